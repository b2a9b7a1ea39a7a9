/**
 * What the code calling a model says about the calls it makes, without threading it through
 * every signature: which run asks (stored with each reply), where in the run's plan the call
 * sits (requests of earlier rows go first), and a list that collects the calls a row made (so
 * the row's `cacheHit` is settled in plan order). Scopes nest; an inner one inherits what it
 * does not set.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ResponseCache } from "./response_cache.ts";

/** One model call a scope saw: its cache key and the cache that answers it. */
export interface CallRecord {
  key: string;
  /** The client's response cache; undefined when the client has none. */
  cache: ResponseCache | undefined;
}

/** What the calling code says about the calls it makes. */
export interface CallScope {
  /** The run the calls belong to (recorded with every reply it stores). */
  run?: string;
  /**
   * The calls' place in the run's plan: a limiter serves lower ranks first, so the requests
   * of the rows that are due next are sent before those of later rows.
   */
  rank?: number;
  /** Receives every call made in the scope (a row's calls). */
  calls?: CallRecord[];
}

const _scope = new AsyncLocalStorage<CallScope>();

/**
 * Run `fn` in a call scope: every model call it makes, directly or through awaited promises,
 * sees `scope` (fields it leaves out come from the enclosing scope).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callScope, withCallScope } from "./call_scope.ts";
 * const calls: { key: string; cache: undefined }[] = [];
 * await withCallScope({ run: "r", rank: 3 }, () =>
 *   withCallScope({ calls }, async () => {
 *     await new Promise((r) => setTimeout(r, 1));
 *     assert.deepEqual([callScope()?.run, callScope()?.rank], ["r", 3]);
 *     callScope()?.calls?.push({ key: "k", cache: undefined });
 *   }));
 * assert.deepEqual(calls.map((c) => c.key), ["k"]);
 * assert.equal(callScope(), undefined);
 * ```
 */
export function withCallScope<T>(scope: CallScope, fn: () => T): T {
  const outer = _scope.getStore();
  return _scope.run(outer ? { ...outer, ...scope } : scope, fn);
}

/** The call scope of the code running now; undefined outside any. */
export function callScope(): CallScope | undefined {
  return _scope.getStore();
}
