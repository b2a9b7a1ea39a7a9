/** What a plan's requests cost per model, live and through the Batch API, from catalog prices. */
import type { ModelPrices } from "../../models/model_catalog.ts";
import type { PlanEntry } from "./request_plan.ts";

/** The prices a plan needs (a data/models.json entry's `prices`, or just the three numbers). */
export type PlanPrices =
  & Pick<ModelPrices, "inputPer1M" | "outputPer1M" | "batchDiscount">
  & Partial<Pick<ModelPrices, "read" | "verified">>;

/** The cost of one model's requests to send. */
export interface ModelCost {
  model: string;
  /** Requests to send, over every phase. */
  toSend: number;
  promptTokens: number;
  completionTokens: number;
  /** Null when the catalog has no prices for the model. */
  prices: PlanPrices | null;
  /** USD at list prices; null without prices. */
  liveUsd: number | null;
  /** USD through the Batch API; null without prices or without a batch discount. */
  batchUsd: number | null;
}

/**
 * Sum a plan's entries per model and price them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planCosts } from "./plan_cost.ts";
 * const entry = { phase: "agent" as const, model: "m", asked: 2, unique: 2, cached: 0, toSend: 2,
 *   promptTokens: 1_000_000, completionTokens: 100_000, completionBasis: "stand-in" as const, promptScale: 1 };
 * const [cost] = planCosts({ entries: [entry], prices: () => ({ inputPer1M: 1, outputPer1M: 10, batchDiscount: 0.5 }) });
 * assert.equal(cost.liveUsd, 2);
 * assert.equal(cost.batchUsd, 1);
 * ```
 */
export function planCosts(options: {
  /** The plan's entries. */
  entries: readonly PlanEntry[];
  /** A model's prices, or null when it has none. */
  prices: (model: string) => PlanPrices | null;
}): ModelCost[] {
  const byModel = new Map<string, ModelCost>();
  for (const e of options.entries) {
    let c = byModel.get(e.model);
    if (!c) {
      c = {
        model: e.model,
        toSend: 0,
        promptTokens: 0,
        completionTokens: 0,
        prices: options.prices(e.model),
        liveUsd: null,
        batchUsd: null,
      };
      byModel.set(e.model, c);
    }
    c.toSend += e.toSend;
    c.promptTokens += e.promptTokens;
    c.completionTokens += e.completionTokens;
  }
  for (const c of byModel.values()) {
    if (!c.prices) continue;
    c.liveUsd = (c.promptTokens * c.prices.inputPer1M + c.completionTokens * c.prices.outputPer1M) /
      1e6;
    c.batchUsd = c.prices.batchDiscount === null ? null : c.liveUsd * (1 - c.prices.batchDiscount);
  }
  return [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}
