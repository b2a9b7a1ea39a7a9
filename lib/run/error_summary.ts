/**
 * Error rows counted by kind (HTTP status, timeout, rejected judge reply, ...), so a run that
 * ends with failures says which failures, and a notebook run can report them to its caller.
 */
import { appendFileSync } from "node:fs";
import type { TrialRow } from "../model/trial_row.ts";

const _KINDS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/\btruncated\b|finish_reason[": ]+length|max_tokens/i, () => "truncated reply"],
  [/content_filter/i, () => "content filter"],
  [/\bHTTP (\d{3})\b/, (m) => `HTTP ${m[1]}`],
  [/timeout|timed out/i, () => "timeout"],
  [/APIConnectionError|connection (error|refused)|ECONNREFUSED/i, () => "connection failed"],
  [/deferred to the batch/, () => "deferred to the batch"],
  [/no message content/, () => "empty reply"],
  [/^\w+: judge\b/, () => "judge reply rejected"],
  [/^\w+: ranker\b/, () => "ranker reply rejected"],
  [/^\w+: writer\b/, () => "writer reply rejected"],
];

/**
 * The kind of a row's error message: `HTTP 401`, `timeout`, `connection failed`, `truncated
 * reply`, `judge reply rejected`, ...; otherwise the error's class name (`TypeError`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorKind } from "./error_summary.ts";
 * assert.equal(errorKind("ModelCallError: m: HTTP 401 after 1 attempt(s): bad key"), "HTTP 401");
 * assert.equal(errorKind("TypeError: judge m: unparsable correct verdict (x)"), "judge reply rejected");
 * assert.equal(errorKind("RangeError: something else"), "RangeError");
 * ```
 */
export function errorKind(message: string): string {
  for (const [pattern, name] of _KINDS) {
    const m = pattern.exec(message);
    if (m) return name(m);
  }
  return /^(\w+):/.exec(message)?.[1] ?? "other";
}

/** Error rows of a run, by kind (most frequent first). */
export interface ErrorSummary {
  rows: number;
  errors: number;
  kinds: [kind: string, count: number][];
}

/**
 * Count error rows by kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorSummary, formatErrorSummary } from "./error_summary.ts";
 * const rows = [{ error: null }, { error: "ModelCallError: m: HTTP 429 after 5 attempt(s): slow" }];
 * const summary = errorSummary({ rows });
 * assert.deepEqual(summary, { rows: 2, errors: 1, kinds: [["HTTP 429", 1]] });
 * assert.equal(formatErrorSummary(summary), "1 of 2 rows are error rows (HTTP 429: 1)");
 * ```
 */
export function errorSummary(options: {
  /** Rows (only `error` is read). */
  rows: readonly Pick<TrialRow, "error">[];
}): ErrorSummary {
  const counts = new Map<string, number>();
  for (const row of options.rows) {
    if (row.error === null) continue;
    const kind = errorKind(row.error);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const kinds = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { rows: options.rows.length, errors: kinds.reduce((n, [, c]) => n + c, 0), kinds };
}

/** One line: "N of M rows are error rows (kind: n, ...)". */
export function formatErrorSummary(summary: ErrorSummary): string {
  return `${summary.errors} of ${summary.rows} rows are error rows (${
    summary.kinds.map(([k, n]) => `${k}: ${n}`).join(", ")
  })`;
}

/** The environment variable naming the file that {@link reportErrorRows} appends to. */
export const ERROR_REPORT_ENV = "MEMGAUGE_ERROR_REPORT";

/**
 * When `MEMGAUGE_ERROR_REPORT` names a file, append one JSON line with the rows' error summary
 * to it; otherwise do nothing. `deno task notebooks` sets it for each notebook's kernel, so a
 * notebook whose sweeps ended with error rows makes the run exit 3 (the kernel itself cannot
 * set an exit code).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ERROR_REPORT_ENV, reportErrorRows } from "./error_summary.ts";
 * const path = await Deno.makeTempFile();
 * Deno.env.set(ERROR_REPORT_ENV, path);
 * reportErrorRows({ rows: [{ error: null }, { error: "HTTP 429: slow down" }] });
 * Deno.env.delete(ERROR_REPORT_ENV);
 * reportErrorRows({ rows: [{ error: "HTTP 500" }] }); // without the variable: nothing happens
 * const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
 * assert.deepEqual(lines, [{ rows: 2, errors: 1, kinds: [["HTTP 429", 1]] }]);
 * ```
 */
export function reportErrorRows(options: {
  /** Rows of one sweep. */
  rows: readonly Pick<TrialRow, "error">[];
}): void {
  let path: string | undefined;
  try {
    path = Deno.env.get(ERROR_REPORT_ENV);
  } catch {
    return; // no permission to read the environment: nobody asked for a report
  }
  if (!path) return;
  appendFileSync(path, JSON.stringify(errorSummary(options)) + "\n");
}
