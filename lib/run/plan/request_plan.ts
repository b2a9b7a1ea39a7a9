/**
 * Count a run's model requests without sending any: every cache miss is answered by a stand-in
 * reply (so the run goes on to the requests that depend on it), and every call, hit or miss,
 * is counted by phase and model, merged by cache key, with estimated tokens.
 */
import type { CacheMiss, ChatResult } from "../../models/model_client.ts";
import { requestPhase } from "../batch/request_phase.ts";
import type { ObservedCall } from "../model_setup.ts";
import {
  currentAnswerKey,
  currentCondition,
  currentRound,
  PHASES,
  RUN_PHASES,
  type RunPhase,
} from "../run_phase.ts";
import { standInReply, standInToolCall } from "./stand_in_reply.ts";
import { promptTokens, textTokens } from "./token_estimate.ts";

/** The requests of one phase and model. */
export interface PlanEntry {
  phase: RunPhase;
  /** Model id (catalog id, or the name given with `--base-url`). */
  model: string;
  /** Calls the run makes (before identical requests are merged). */
  asked: number;
  /** Distinct requests (by cache key). */
  unique: number;
  /** Distinct requests the response cache already answers. */
  cached: number;
  /** Distinct requests to send: `unique - cached`. */
  toSend: number;
  /** Estimated prompt tokens of the requests to send. */
  promptTokens: number;
  /** Estimated completion tokens of the requests to send. */
  completionTokens: number;
  /**
   * Where the completion estimate comes from: `cache` (the mean of this model's cached
   * replies in this phase) or `stand-in` (the length of a short visible reply).
   */
  completionBasis: "cache" | "stand-in";
  /** Factor applied to the prompt estimate (the model's own count over ours, in its cached replies); 1 without any. */
  promptScale: number;
}

interface _Key {
  model: string;
  phase: RunPhase;
  /** Batch round: the phase's, or the one its call site declared. */
  round: number;
  hit: boolean;
  prompt: number;
  completion: number;
  /** The body of a miss, when bodies are kept (batch export). */
  body?: Record<string, unknown>;
}

/** A request to send: its cache key (a Batch API `custom_id`), exact body and phase. */
export interface PlannedRequest {
  customId: string;
  body: Record<string, unknown>;
  phase: RunPhase;
}

const _order = (p: RunPhase) => PHASES.indexOf(p);

/**
 * Pass `plan.onMiss` and `plan.observe` to `modelSetup`, run the sweep, then read
 * `plan.entries()`. Nothing is sent and nothing is written to the cache.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inPhase } from "../run_phase.ts";
 * import { RequestPlan } from "./request_plan.ts";
 * const plan = new RequestPlan();
 * const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
 * for (const key of ["a", "a", "b"]) {
 *   const result = await inPhase("agent", () => plan.onMiss({ key, body }));
 *   inPhase("agent", () => plan.observe({ id: "m", key, body, result }));
 * }
 * const [agent] = plan.entries();
 * assert.deepEqual([agent.phase, agent.asked, agent.unique, agent.toSend], ["agent", 3, 2, 2]);
 * ```
 */
export class RequestPlan {
  #keepBodies: boolean;
  #keys = new Map<string, _Key>();
  #asked = new Map<string, number>();
  /** Per model: the provider's prompt tokens and our estimate, over cached replies. */
  #promptSeen = new Map<string, { real: number; estimate: number }>();
  /** Per phase and model: completion tokens of cached replies. */
  #completionSeen = new Map<string, { sum: number; n: number }>();
  /** Distinct agent requests that end in an answer (not a tool call), by cache key. */
  #answers = new Set<string>();

  constructor(options: {
    /** Keep the body of every request to send, for `requests()`; default false. */
    keepBodies?: boolean;
  } = {}) {
    this.#keepBodies = options.keepBodies ?? false;
  }

  /** Answer a miss with a stand-in reply of its phase (no request is made). */
  onMiss = (miss: CacheMiss): Promise<ChatResult> => {
    const phase = requestPhase(miss.body);
    const call = standInToolCall({ body: miss.body, key: miss.key });
    const content = call ? "" : standInReply({
      phase,
      body: miss.body,
      key: miss.key,
      condition: currentCondition(),
      answerKey: currentAnswerKey(),
    });
    return Promise.resolve({
      content,
      toolCalls: call ? [call] : [],
      reasoning: null,
      stopReason: call ? "tool_calls" : "stop",
      cacheHit: false,
      promptTokens: promptTokens(miss.body),
      completionTokens: textTokens(call ? call.arguments : content),
    });
  };

  /** Count one completed call. */
  observe = (call: ObservedCall): void => {
    const phase = requestPhase(call.body);
    if ((phase === "agent" || phase === "counterfactual") && call.result.toolCalls.length === 0) {
      this.#answers.add(call.key);
    }
    const cell = `${phase}\0${call.id}`;
    this.#asked.set(cell, (this.#asked.get(cell) ?? 0) + 1);
    const round = currentRound() ?? RUN_PHASES[phase].round;
    const known = this.#keys.get(call.key);
    if (known) {
      // One request asked in two phases counts in the earlier one, whatever finished first.
      if (_order(phase) < _order(known.phase)) known.phase = phase;
      known.round = Math.min(known.round, round);
      return;
    }
    const { result } = call;
    const entry: _Key = {
      model: call.id,
      phase,
      round,
      hit: result.cacheHit,
      prompt: promptTokens(call.body),
      completion: result.cacheHit ? 0 : result.completionTokens ?? 0,
      ...(this.#keepBodies && !result.cacheHit && { body: call.body }),
    };
    this.#keys.set(call.key, entry);
    if (!result.cacheHit) return;
    if (result.promptTokens !== null) {
      const seen = this.#promptSeen.get(call.id) ?? { real: 0, estimate: 0 };
      seen.real += result.promptTokens;
      seen.estimate += entry.prompt;
      this.#promptSeen.set(call.id, seen);
    }
    if (result.completionTokens !== null) {
      const seen = this.#completionSeen.get(cell) ?? { sum: 0, n: 0 };
      seen.sum += result.completionTokens;
      seen.n++;
      this.#completionSeen.set(cell, seen);
    }
  };

  /**
   * The batch round that can be sent now: the earliest round with a request to send (every
   * earlier round is answered by the cache). Its requests were built from real answers only,
   * so they are exactly what the run will ask; later rounds depend on stand-in replies. Null
   * when there is nothing to send.
   */
  round(): number | null {
    let round: number | null = null;
    for (const k of this.#keys.values()) {
      if (!k.hit) round = Math.min(round ?? Infinity, k.round);
    }
    return round;
  }

  /**
   * The most judge requests the run can make: one per distinct agent answer (a model that
   * words every answer differently). The plan itself counts one per foreseeable answer.
   */
  judgeUpperBound(): number {
    return this.#answers.size;
  }

  /** Every batch round the run's requests fall in (sent or cached), in order. */
  rounds(): number[] {
    return [...new Set([...this.#keys.values()].map((k) => k.round))].sort((a, b) => a - b);
  }

  /** The requests to send in `round` (kept bodies only), by phase then cache key. */
  requests(round: number): PlannedRequest[] {
    const out: PlannedRequest[] = [];
    for (const [customId, k] of this.#keys) {
      if (k.hit || k.round !== round || !k.body) continue;
      out.push({ customId, body: k.body, phase: k.phase });
    }
    return out.sort((a, b) =>
      _order(a.phase) - _order(b.phase) ||
      (a.customId < b.customId ? -1 : a.customId > b.customId ? 1 : 0)
    );
  }

  /** The requests by phase (in run order) and model (by id). */
  entries(): PlanEntry[] {
    const cells = new Map<string, PlanEntry>();
    const cell = (phase: RunPhase, model: string) => {
      const id = `${phase}\0${model}`;
      let e = cells.get(id);
      if (!e) {
        const prompt = this.#promptSeen.get(model);
        const completion = this.#completionSeen.get(id);
        e = {
          phase,
          model,
          asked: this.#asked.get(id) ?? 0,
          unique: 0,
          cached: 0,
          toSend: 0,
          promptTokens: 0,
          completionTokens: 0,
          completionBasis: completion ? "cache" : "stand-in",
          promptScale: prompt && prompt.estimate > 0 ? prompt.real / prompt.estimate : 1,
        };
        cells.set(id, e);
      }
      return e;
    };
    for (const id of this.#asked.keys()) {
      const [phase, model] = id.split("\0") as [RunPhase, string];
      cell(phase, model);
    }
    for (const k of this.#keys.values()) {
      const e = cell(k.phase, k.model);
      e.unique++;
      if (k.hit) {
        e.cached++;
        continue;
      }
      e.toSend++;
      e.promptTokens += k.prompt;
      e.completionTokens += k.completion;
    }
    for (const e of cells.values()) {
      e.promptTokens = Math.round(e.promptTokens * e.promptScale);
      const seen = this.#completionSeen.get(`${e.phase}\0${e.model}`);
      if (seen) e.completionTokens = Math.round((seen.sum / seen.n) * e.toSend);
    }
    return [...cells.values()].sort((a, b) =>
      _order(a.phase) - _order(b.phase) || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)
    );
  }
}
