/**
 * `--max-cost USD`: a run's spending cap. Every request is priced before it is sent (its prompt
 * at 4 characters per token, its reply at the mean length this model's replies have had so far)
 * and after it is answered (the provider's usage); a request whose estimate would take the spend
 * past the cap is not sent: the run stops, finishes what is in flight and keeps what it has.
 */
import { FieldError } from "../schema/field_error.ts";
import type { ModelPrices } from "./model_catalog.ts";

/** Thrown instead of sending a request that would cross the cap; the run stops on it. */
export class SpendCapReached extends Error {
  override name = "SpendCapReached";
}

/** True for the error that stops a run at its cap (never an error row). */
export function isSpendCapReached(e: unknown): e is SpendCapReached {
  return e instanceof SpendCapReached;
}

/** A completion length assumed before a model has answered anything, in tokens. */
const FIRST_GUESS = 256;

/**
 * The cap shared by every client of a run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpendCap } from "./spend_cap.ts";
 * const cap = new SpendCap({ usd: 0.01 });
 * const prices = { inputPer1M: 1, outputPer1M: 10, batchDiscount: null };
 * const r = cap.reserve({ model: "m", prices, promptChars: 4000 }); // 1,000 + 256 tokens: $0.00356
 * cap.settle(r, { promptTokens: 1000, completionTokens: 100 }); // $0.002 spent
 * assert.equal(cap.spentUsd.toFixed(4), "0.0020");
 * assert.throws(() => cap.reserve({ model: "m", prices, promptChars: 40000 }), /--max-cost 0.01/);
 * ```
 */
export class SpendCap {
  /** The cap in USD. */
  readonly usd: number;
  #spent = 0;
  #reserved = 0;
  #requests = 0;
  #completions = new Map<string, { sum: number; n: number }>();
  #reached = false;

  constructor(options: {
    /** The cap in USD, > 0. */
    usd: number;
  }) {
    if (!(options.usd > 0) || !Number.isFinite(options.usd)) {
      throw new FieldError({
        field: "maxCostUsd",
        detail: `expected a number of USD > 0, got ${options.usd}`,
      });
    }
    this.usd = options.usd;
  }

  /** USD spent on answered requests (at their usage, or the estimate when none was reported). */
  get spentUsd(): number {
    return this.#spent;
  }

  /** Requests answered under the cap. */
  get requests(): number {
    return this.#requests;
  }

  /** Whether a request was held back because of the cap. */
  get reached(): boolean {
    return this.#reached;
  }

  /**
   * Price a request about to be sent and hold its estimate, or throw `SpendCapReached` when it
   * would take the spend (answered, plus what is in flight) past the cap.
   */
  reserve(options: {
    model: string;
    prices: Pick<ModelPrices, "inputPer1M" | "outputPer1M">;
    /** Characters of the request's text (messages, schema, tools). */
    promptChars: number;
  }): { usd: number; model: string; prices: Pick<ModelPrices, "inputPer1M" | "outputPer1M"> } {
    const seen = this.#completions.get(options.model);
    const completion = seen ? seen.sum / seen.n : FIRST_GUESS;
    const usd = (options.promptChars / 4 * options.prices.inputPer1M +
      completion * options.prices.outputPer1M) / 1e6;
    if (this.#spent + this.#reserved + usd > this.usd) {
      this.#reached = true;
      throw new SpendCapReached(
        `--max-cost ${this.usd}: the next request (${options.model}, about ${
          usd.toFixed(4)
        } USD) ` +
          `would take the estimated spend past the cap (${this.#spent.toFixed(4)} USD spent, ` +
          `${this.#reserved.toFixed(4)} USD in flight)`,
      );
    }
    this.#reserved += usd;
    return { usd, model: options.model, prices: options.prices };
  }

  /** Book an answered request at its usage (or its estimate), and release its reservation. */
  settle(
    reservation: ReturnType<SpendCap["reserve"]>,
    usage: { promptTokens: number | null; completionTokens: number | null } | null,
  ): void {
    this.#reserved = Math.max(0, this.#reserved - reservation.usd);
    this.#requests++;
    if (!usage || usage.promptTokens === null || usage.completionTokens === null) {
      this.#spent += reservation.usd;
      return;
    }
    const seen = this.#completions.get(reservation.model) ?? { sum: 0, n: 0 };
    seen.sum += usage.completionTokens;
    seen.n++;
    this.#completions.set(reservation.model, seen);
    this.#spent += (usage.promptTokens * reservation.prices.inputPer1M +
      usage.completionTokens * reservation.prices.outputPer1M) / 1e6;
  }

  /** Release a reservation whose request got no billable answer (a failure). */
  release(reservation: ReturnType<SpendCap["reserve"]>): void {
    this.#reserved = Math.max(0, this.#reserved - reservation.usd);
  }
}
