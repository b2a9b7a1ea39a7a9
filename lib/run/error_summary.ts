/**
 * Error rows counted by kind (HTTP status, timeout, rejected judge reply, ...), so a run that
 * ends with failures says which failures, and a notebook run can report them to its caller.
 */
import { appendFileSync } from "node:fs";
import type { TrialRow } from "../schema/trial_row.ts";

// Status and provider code first (what the endpoint said), the text of the message last.
const _KINDS: [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /\bHTTP (\d{3}) after \d+ attempt\(s\)(?: \[([^\],\]]+)(?:, param ([^\]]+))?\])?/,
    (m) => `HTTP ${m[1]}${m[2] ? ` ${m[2]}` : ""}${m[3] ? ` (${m[3]})` : ""}`,
  ],
  [/\bHTTP (\d{3})\b/, (m) => `HTTP ${m[1]}`],
  [/: timeout after \d+ attempt|timed out|TimeoutError/i, () => "timeout"],
  [
    /connection failed|APIConnectionError|connection (error|refused)|ECONNREFUSED/i,
    () => "connection failed",
  ],
  [/: malformed reply after/, () => "malformed reply"],
  [/\btruncated at \w+=\d+|finish_reason[": ]+length/i, () => "truncated reply"],
  [/content_filter/i, () => "content filter"],
  [/: the model refused \(refusal:/, () => "refusal"],
  [/deferred to the batch/, () => "deferred to the batch"],
  [/no message content/, () => "empty reply"],
  [/^\w+: judge\b/, () => "judge reply rejected"],
  [/^\w+: ranker\b/, () => "ranker reply rejected"],
  [/^\w+: writer\b/, () => "writer reply rejected"],
];

/**
 * The kind of a row's error message, by what the endpoint said first: the HTTP status with the
 * provider's error code and parameter (`HTTP 400 unsupported_parameter (max_tokens)`), then
 * `timeout`, `connection failed`, `malformed reply`, `truncated reply`, `content filter`,
 * `refusal` (a judge, ranker or writer that refused), `empty reply`, `judge reply rejected`,
 * ...; otherwise the error's class name (`TypeError`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorKind } from "./error_summary.ts";
 * assert.equal(errorKind("ModelCallError: m: HTTP 401 after 1 attempt(s): bad key"), "HTTP 401");
 * assert.equal(errorKind("ModelCallError: m: HTTP 400 after 1 attempt(s) [unsupported_parameter, param max_tokens]: Unsupported parameter: 'max_tokens'"), "HTTP 400 unsupported_parameter (max_tokens)");
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

/** The `--model-option` that makes an endpoint take a request it refused, by what it refused. */
const _FIXES: { refused: RegExp; key: string; value: string; what: string }[] = [
  {
    refused: /\bmax_completion_tokens\b/,
    key: "maxTokensParam",
    value: "max_tokens",
    what: "max_completion_tokens",
  },
  {
    refused: /\bmax_tokens\b/,
    key: "maxTokensParam",
    value: "max_completion_tokens",
    what: "max_tokens",
  },
  {
    refused: /\bjson_schema\b/,
    key: "responseFormat",
    value: "json_object",
    what: "response_format json_schema",
  },
  {
    refused: /\bjson_object\b/,
    key: "responseFormat",
    value: "none",
    what: "response_format json_object",
  },
  {
    refused: /\breasoning_effort\b/,
    key: "reasoningEffort",
    value: "null",
    what: "reasoning_effort",
  },
  { refused: /\btemperature\b/, key: "temperature", value: "null", what: "temperature" },
  { refused: /\bseed\b/, key: "seed", value: "false", what: "seed" },
];

/** A request an endpoint refused (HTTP 400/422), and the model option that changes it. */
export interface RequestFix {
  /** The model id the error names. */
  model: string;
  /** What the endpoint refused (`max_tokens`, `response_format json_schema`, ...). */
  refused: string;
  /** The `--model-option` value that sends what it takes, e.g. `m.responseFormat=json_object`. */
  option: string;
  /** Error rows it explains. */
  rows: number;
}

/**
 * The requests that failed because the endpoint refuses a parameter as sent (HTTP 400 or 422
 * naming it): asking again with the same options cannot help, the request itself must change.
 * Each comes with the `--model-option` that changes it (`deno task models check` tells what an
 * endpoint takes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestFixes } from "./error_summary.ts";
 * const error = "ModelCallError: m: HTTP 400 after 1 attempt(s) [invalid_parameter, param response_format]: 'response_format' of type 'json_schema' is not supported";
 * assert.deepEqual(requestFixes({ rows: [{ error }, { error }, { error: null }] }), [
 *   { model: "m", refused: "response_format json_schema", option: "m.responseFormat=json_object", rows: 2 },
 * ]);
 * ```
 */
export function requestFixes(options: {
  /** Rows (only `error` is read). */
  rows: readonly Pick<TrialRow, "error">[];
}): RequestFix[] {
  const fixes = new Map<string, RequestFix>();
  for (const { error } of options.rows) {
    const m = error && /^\w+: (.+?): HTTP (400|422) after \d+ attempt\(s\)(?: \[[^\]]*\])?: (.*)$/s
      .exec(error);
    if (!m) continue;
    // What was refused: the provider's `param`, else the first quoted name in its message.
    const param = /\[[^\]]*param ([^\]]+)\]/.exec(error)?.[1];
    const text = m[3];
    const subject = param === "response_format"
      ? (/json_schema/.test(text) ? "json_schema" : /json_object/.test(text) ? "json_object" : "")
      : param ?? /'(\w+)'/.exec(text)?.[1] ?? text;
    const fix = _FIXES.find((f) => f.refused.test(subject));
    if (!fix) continue;
    const option = `${m[1]}.${fix.key}=${fix.value}`;
    const known = fixes.get(option);
    if (known) known.rows++;
    else fixes.set(option, { model: m[1], refused: fix.what, option, rows: 1 });
  }
  return [...fixes.values()];
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
