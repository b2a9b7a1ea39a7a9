/**
 * The two test tiers (STYLE 20). `deno task test:fast` answers in a minute: units, properties and
 * doc examples, with subprocesses denied (`--deny-run`), so a test that starts one and is not
 * marked fails there rather than slipping in. `deno task test` runs everything: the CLI as a
 * subprocess, notebooks, the browser, builds of the real benchmarks, the slow end-to-end runs.
 */

/** True in `deno task test:fast` (it sets `MEMGAUGE_TESTS=fast`). */
export const FAST_TIER: boolean = (() => {
  try {
    return Deno.env.get("MEMGAUGE_TESTS") === "fast";
  } catch {
    return false;
  }
})();

/**
 * `full.test` is `Deno.test` for a test of the full suite only (it starts a subprocess, a
 * notebook or a browser, builds a real benchmark, or runs a memory system end to end); shown as
 * ignored in the fast tier. It takes every form `Deno.test` takes (and `deno fmt` lays it out
 * as it lays out `Deno.test`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAST_TIER, full } from "./tiers.ts";
 * assert.equal(full.test === Deno.test, !FAST_TIER);
 * ```
 */
export const full: { test: typeof Deno.test } = {
  test: FAST_TIER ? (_ignored as unknown as typeof Deno.test) : Deno.test,
};

type _Fn = (t: Deno.TestContext) => void | Promise<void>;

function _ignored(...args: unknown[]): void {
  const [a, b, c] = args as [unknown, unknown, unknown];
  const definition: Deno.TestDefinition = typeof a === "function"
    ? { name: a.name, fn: a as _Fn }
    : typeof a === "string"
    ? { ...(typeof b === "object" ? b : {}), name: a, fn: (c ?? b) as _Fn }
    : { ...(a as Deno.TestDefinition), ...(typeof b === "function" ? { fn: b as _Fn } : {}) };
  Deno.test({ ...definition, ignore: true });
}
