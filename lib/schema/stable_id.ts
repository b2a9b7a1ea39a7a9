/** Stable ids: a short hash of JSON-serialisable content, for run, pair and prompt ids. */
import { createHash } from "node:crypto";

/**
 * A short stable hash (16 hex digits of SHA-256) of JSON-serialisable content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stableId } from "./stable_id.ts";
 * assert.equal(stableId([1, "a"]), stableId([1, "a"]));
 * assert.match(stableId({ x: 1 }), /^[0-9a-f]{16}$/);
 * ```
 */
export function stableId(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}
