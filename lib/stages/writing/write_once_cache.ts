/** Each unit is written ONCE per writer; every coverage level reuses the cached text. */
import type { SourceUnit } from "../../schema/source_unit.ts";
import type { Trace } from "../../schema/trace.ts";
import type { Writer } from "./writer.ts";

/**
 * A memoizing wrapper around a writer, keyed by writer id, trace id and unit id. Concurrent
 * requests for the same unit share one in-flight call. `calls` counts real writer calls, so
 * tests (and cost estimates) can check that a sweep over coverage levels writes each unit once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WriteOnceCache } from "./write_once_cache.ts";
 * import { verbatimWriter } from "./writers/verbatim.ts";
 * const cache = new WriteOnceCache({ writer: verbatimWriter });
 * const unit = { id: "a", text: "Rex is 4.", channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null };
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit] };
 * await cache.write(unit, { trace });
 * await cache.write(unit, { trace });
 * assert.equal(cache.calls, 1);
 * ```
 */
export class WriteOnceCache {
  readonly writer: Writer;
  #texts = new Map<string, Promise<string>>();
  #calls = 0;

  constructor(options: { writer: Writer }) {
    this.writer = options.writer;
  }

  /** Number of real calls made to the wrapped writer. */
  get calls(): number {
    return this.#calls;
  }

  /** The unit's record text, written at most once. */
  write(unit: SourceUnit, options: { trace: Trace }): Promise<string> {
    const key = JSON.stringify([this.writer.id, options.trace.id, unit.id]);
    let text = this.#texts.get(key);
    if (text === undefined) {
      this.#calls++;
      text = this.writer.write(unit, options);
      // A failed write must not poison the cache: drop it so a retry can call again.
      text.catch(() => this.#texts.delete(key));
      this.#texts.set(key, text);
    }
    return text;
  }
}
