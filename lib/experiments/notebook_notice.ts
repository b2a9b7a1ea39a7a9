/**
 * A notebook's "what to notice", checked: each claim is shown with the numbers it was decided
 * from, and a claim that does not hold on this run stops the notebook, so the words a class reads
 * cannot drift from the data it sees.
 */
import { JUPYTER_DISPLAY } from "../figures/display_figure.ts";

/** One claim about the result shown above it, decided from this run's numbers. */
export interface Claim {
  /** The sentence as the notebook states it (Markdown). */
  claim: string;
  /** Whether it holds on this run. */
  holds: boolean;
  /** The numbers it was decided from, shown after it; a null (missing) value fails the claim. */
  values?: Readonly<Record<string, number | string | null>>;
}

/**
 * Environment variable of the claims mode: `check` (default) fails the notebook on a claim that
 * does not hold; `mark` shows it with ✗ and goes on (runs with other parameters than the ones
 * the claims were written for: `deno task notebooks --claims mark`).
 */
export const CLAIMS_ENV = "MEMGAUGE_CLAIMS";

function _mark(): boolean {
  try {
    return Deno.env.get(CLAIMS_ENV) === "mark";
  } catch {
    return false;
  }
}

/** Thrown by {@link notice} when a claim does not hold: the notebook cell fails with it. */
export class ClaimError extends Error {
  override name = "ClaimError";
}

function _value(v: number | string | null): string {
  if (v === null) return "missing";
  if (typeof v === "string") return v;
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

function _values(values: Claim["values"]): string {
  return Object.entries(values ?? {}).map(([k, v]) => `${k}: ${_value(v)}`).join("; ");
}

/**
 * Check a notebook's claims and return them for display, each with a check mark and its numbers;
 * throw a {@link ClaimError} naming every claim that does not hold (or lacks a value it needs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notice } from "./notebook_notice.ts";
 * const asr = { low: 0.05, high: 0.43 };
 * const shown = notice({ claims: [{ claim: "ASR rises with coverage.", holds: asr.high > asr.low, values: { "ASR at θw = 0": asr.low, "ASR at θw = 1": asr.high } }] });
 * assert.match(shown.text, /✓ ASR rises with coverage\. \(ASR at θw = 0: 0\.050; ASR at θw = 1: 0\.430\)/);
 * assert.throws(
 *   () => notice({ claims: [{ claim: "ASR falls with coverage.", holds: asr.high < asr.low }] }),
 *   /does not hold on this run: "ASR falls with coverage\."/,
 * );
 * assert.throws(() => notice({ claims: [{ claim: "C", holds: true, values: { x: null } }] }), /x: missing/);
 * // A real model's run marks the claim instead of failing; error rows leave it unchecked.
 * const model = [{ error: null, simulated: false }];
 * assert.match(notice({ claims: [{ claim: "C", holds: false }], rows: model }).text, /✗ C/);
 * assert.match(notice({ claims: [{ claim: "C", holds: false }], rows: [{ error: "HTTP 401", simulated: true }] }).text, /not checked, 1 of 1 rows are error rows/);
 * // Claims mode "mark" (MEMGAUGE_CLAIMS=mark): shown with ✗, the notebook goes on.
 * assert.match(notice({ claims: [{ claim: "C", holds: false }], mark: true }).text, /✗ C/);
 * ```
 */
export function notice(options: {
  /** The claims, in the order the notebook states them. */
  claims: readonly Claim[];
  /** Heading shown above them; default "What to notice, checked on this run". */
  title?: string;
  /**
   * The rows behind the numbers; default none (every claim is checked strictly). With error
   * rows the claims are shown unchecked (the run already fails for its errors); with rows of a
   * real model a claim that does not hold is marked ✗ instead of stopping the notebook, since
   * the words were written for the offline reference agent's data.
   */
  rows?: readonly { error: string | null; simulated: boolean }[];
  /**
   * Mark a claim that does not hold with ✗ instead of throwing; default true when
   * `MEMGAUGE_CLAIMS=mark`, else false.
   */
  mark?: boolean;
}): { text: string } {
  const failed = options.claims.filter((c) =>
    c.holds !== true || Object.values(c.values ?? {}).some((v) => v === null)
  );
  const rows = options.rows ?? [];
  const errors = rows.filter((r) => r.error !== null).length;
  const model = rows.some((r) => !r.simulated);
  const mark = options.mark ?? _mark();
  if (errors > 0 || ((model || mark) && failed.length > 0)) {
    const lines = options.claims.map((c) =>
      `- ${errors > 0 ? "?" : failed.includes(c) ? "✗" : "✓"} ${c.claim}${
        c.values && Object.keys(c.values).length ? ` (${_values(c.values)})` : ""
      }`
    );
    return _shown([
      `**${options.title ?? "What to notice"}: ${
        errors > 0
          ? `not checked, ${errors} of ${rows.length} rows are error rows`
          : model
          ? "checked on a real model; ✗ marks words written for the offline reference agent that do not hold here"
          : "checked; ✗ marks claims that do not hold on this run (claims mode: mark)"
      }**`,
      "",
      ...lines,
    ].join("\n"));
  }
  if (failed.length > 0) {
    throw new ClaimError(
      `${failed.length} of ${options.claims.length} claims ${
        failed.length === 1 ? "does" : "do"
      } not hold on this run: ${
        failed.map((c) => `"${c.claim}"${c.values ? ` (${_values(c.values)})` : ""}`).join("; ")
      }. Rewrite the claim or its threshold to match the data, or find out why the data moved.`,
    );
  }
  const lines = options.claims.map((c) =>
    `- ✓ ${c.claim}${c.values && Object.keys(c.values).length ? ` (${_values(c.values)})` : ""}`
  );
  return _shown(
    [`**${options.title ?? "What to notice, checked on this run"}**`, "", ...lines].join("\n"),
  );
}

function _shown(text: string): { text: string } {
  const shown = { text };
  Object.defineProperty(shown, JUPYTER_DISPLAY, {
    enumerable: false,
    value: () => ({ "text/markdown": text, "text/plain": text.replace(/\*\*/g, "") }),
  });
  return shown;
}

/**
 * A claim that places the kit's number against a value or range the paper states (see
 * `paperValue`), in words the check computes ("below", "inside", "above"), so it holds by
 * construction and says where the kit sits today. Use it where the simulator and the paper
 * disagree. A missing kit number fails it; where the paper states no value (an operating point
 * its text does not name) the claim says so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versusPaper } from "./notebook_notice.ts";
 * const c = versusPaper({ what: "ASR at full coverage", kit: 0.43, paper: { lo: 0.37, hi: 0.64 } });
 * assert.equal(c.claim, "The kit's ASR at full coverage (0.430) is inside the paper's 0.37-0.64.");
 * assert.match(versusPaper({ what: "ASR", kit: 0.2, paper: { lo: 0.37, hi: 0.64 } }).claim, /below/);
 * assert.equal(versusPaper({ what: "ASR", kit: null, paper: { lo: 0.37, hi: 0.64 } }).holds, false);
 * assert.match(versusPaper({ what: "ASR", kit: 0.2, paper: null }).claim, /the paper states no value/);
 * ```
 */
export function versusPaper(options: {
  /** What the number is, after "The kit's". */
  what: string;
  /** The kit's number (null when this run lacks it). */
  kit: number | null;
  /** The paper's value or range (null when it states none). */
  paper: { lo: number; hi: number } | null;
}): Claim {
  const { kit, paper } = options;
  const value = kit === null ? "missing" : kit.toFixed(3);
  if (paper === null) {
    return {
      claim: `The kit's ${options.what} is ${value}; the paper states no value there.`,
      holds: kit !== null,
    };
  }
  const range = paper.lo === paper.hi ? `${paper.lo}` : `${paper.lo}-${paper.hi}`;
  const where = kit === null
    ? "not comparable with"
    : kit < paper.lo
    ? "below"
    : kit > paper.hi
    ? "above"
    : "inside";
  return {
    claim: `The kit's ${options.what} (${value}) is ${where} the paper's ${range}.`,
    holds: kit !== null,
  };
}

/**
 * The spread (largest minus smallest) of numbers a claim compares, e.g. ASR across policies;
 * null when any is missing, so a claim built on it fails rather than compare a partial set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spread } from "./notebook_notice.ts";
 * assert.equal(spread([0.36, 0.11, 0]), 0.36);
 * assert.equal(spread([0.36, null]), null);
 * ```
 */
export function spread(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  const numbers = values as number[];
  return Number((Math.max(...numbers) - Math.min(...numbers)).toFixed(6));
}
