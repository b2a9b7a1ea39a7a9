/**
 * The one builder of error rows: a failed call becomes a row with its (redacted) message and
 * null decisions, never a wrong answer. The stage sweep and the systems' measurement both use it.
 */
import type { ModelUsage } from "../schema/model_usage.ts";
import { redact } from "../models/redact.ts";
import { isSpendCapReached } from "../models/spend_cap.ts";

/** The outcome columns of a trial that failed: null decisions, the error and its stop reason. */
export interface ErrorOutcome {
  output: null;
  correct: null;
  matchesTarget: null;
  hedged: null;
  error: string;
  latencyMs: number;
  cacheHit: boolean | null;
  promptTokens: number | null;
  completionTokens: number | null;
  reasoning: null;
  stopReason: string | null;
  /** A failed trial neither answered nor refused. */
  refusal: null;
}

/**
 * The outcome columns of a failed trial. The message goes through the redaction layer (rows are
 * a sink like any other); a failure that a reply's finish reason explains (`length`,
 * `content_filter`) keeps it, else the `stopReason` given (the agent's, when the judge failed).
 * A call held back by the run's spending cap (`SpendCapReached`) is rethrown: the run stops
 * there, and the trial is not a row (a resume runs it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorOutcome } from "./error_row.ts";
 * const out = errorOutcome({ error: new TypeError("bad reply") });
 * assert.equal(out.error, "TypeError: bad reply");
 * assert.equal(out.correct, null);
 * ```
 */
export function errorOutcome(options: {
  /** What was thrown. */
  error: unknown;
  /** Time spent before the failure; default 0 (nothing was asked). */
  latencyMs?: number;
  /** Tokens spent before the failure (the agent's, when the judge failed); default none. */
  usage?: ModelUsage;
  /** Finish reason known before the failure; default null. */
  stopReason?: string | null;
}): ErrorOutcome {
  const { error: e, usage } = options;
  // A run stopped at its spending cap has no error rows: the trial is left for the resume.
  if (isSpendCapReached(e)) throw e;
  const thrown = (e as { stopReason?: unknown } | null)?.stopReason;
  return {
    output: null,
    correct: null,
    matchesTarget: null,
    hedged: null,
    error: redact({ text: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
    latencyMs: options.latencyMs ?? 0,
    cacheHit: usage?.cacheHit ?? null,
    promptTokens: usage?.promptTokens ?? null,
    completionTokens: usage?.completionTokens ?? null,
    reasoning: null,
    stopReason: typeof thrown === "string" ? thrown : options.stopReason ?? null,
    refusal: null,
  };
}

/**
 * A whole error row: the row's own columns plus {@link errorOutcome}, in the contract order of
 * `columns` (`TRIAL_ROW_COLUMNS` or `SYSTEM_ROW_COLUMNS`), so error rows and answered rows list
 * their columns alike. Columns the row leaves out and that are optional stay out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorRow } from "./error_row.ts";
 * const row = errorRow({
 *   columns: ["pairId", "output", "error", "trial"],
 *   row: { trial: 0, pairId: "p" },
 *   error: new Error("down"),
 * });
 * assert.deepEqual(Object.keys(row), ["pairId", "output", "error", "trial"]);
 * ```
 */
export function errorRow(options: {
  /** Column names in contract order. */
  columns: readonly string[];
  /** The row's columns other than the outcome. */
  row: Readonly<Record<string, unknown>>;
  /** What was thrown. */
  error: unknown;
}): Record<string, unknown> {
  const all: Record<string, unknown> = {
    ...options.row,
    ...errorOutcome({ error: options.error }),
  };
  return Object.fromEntries(
    options.columns.filter((c) => all[c] !== undefined).map((c) => [c, all[c]]),
  );
}
