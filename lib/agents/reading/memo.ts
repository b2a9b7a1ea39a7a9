/**
 * A bounded memo for the reading helpers: a sweep shows the same record texts to the agent at
 * every operating point, so their words are worked out once. The memo forgets everything when it
 * grows past its size, which keeps memory bounded on any sweep.
 */

/**
 * Wrap a pure function of a string key.
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
