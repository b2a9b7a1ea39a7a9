/** Record the model requests a sweep could not answer from the cache, instead of sending them. */
import type { CacheMiss, ChatResult } from "../../models/model_client.ts";
import { BATCH_PHASES, type BatchPhase, requestPhase } from "./request_phase.ts";

/** One request for the Batch API: its cache key (the `custom_id`), body and phase. */
export interface BatchRequest {
  customId: string;
  body: Record<string, unknown>;
  phase: BatchPhase;
}

/**
 * Pass `recorder.onMiss` as a client's `onMiss`: every cache miss is recorded once (by cache
 * key) and fails with a deferral error, so the pair that needed it becomes an error row and
 * nothing that depends on it is asked. What is recorded is exactly what is computable now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchRecorder } from "./batch_recorder.ts";
 * const recorder = new BatchRecorder();
 * const miss = { key: "k", body: { model: "m", messages: [{ role: "user", content: "hi" }] } };
 * await assert.rejects(recorder.onMiss(miss), /deferred to the batch/);
 * await assert.rejects(recorder.onMiss(miss));
 * assert.deepEqual(recorder.requests().map((r) => [r.customId, r.phase]), [["k", "judge"]]);
 * ```
 */
export class BatchRecorder {
  #requests = new Map<string, BatchRequest>();

  /** Record a miss and reject (the sweep treats it as a failed call). */
  onMiss = (miss: CacheMiss): Promise<ChatResult> => {
    if (!this.#requests.has(miss.key)) {
      this.#requests.set(miss.key, {
        customId: miss.key,
        body: miss.body,
        phase: requestPhase(miss.body),
      });
    }
    return Promise.reject(
      new Error(`request ${miss.key.slice(0, 12)} deferred to the batch (not in the cache)`),
    );
  };

  /** The recorded requests, by phase then cache key (the same sweep gives the same order). */
  requests(): BatchRequest[] {
    const order = (r: BatchRequest) => BATCH_PHASES.indexOf(r.phase);
    return [...this.#requests.values()].sort((a, b) =>
      order(a) - order(b) || (a.customId < b.customId ? -1 : a.customId > b.customId ? 1 : 0)
    );
  }
}
