/**
 * A bounded memo for pure functions of a text: the data builders and the reading helpers meet
 * the same texts again and again (every bank record is checked against each instance's answer
 * and target), so each distinct text is worked out once. The memo forgets everything when it
 * grows past its size, which keeps memory bounded on any run.
 */

/**
 * Wrap a pure function of a string key; `size` (default 20,000) bounds the entries kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memo } from "./memo.ts";
 * let calls = 0;
 * const twice = memo((s: string) => (calls++, s + s));
 * assert.equal(twice("a"), "aa");
 * assert.equal(twice("a"), "aa");
 * assert.equal(calls, 1);
 * ```
 */
export function memo<T>(
  fn: (key: string) => T,
  options: { size?: number } = {},
): (key: string) => T {
  const size = options.size ?? 20_000;
  const cache = new Map<string, T>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as T;
    if (cache.size >= size) cache.clear();
    const value = fn(key);
    cache.set(key, value);
    return value;
  };
}
