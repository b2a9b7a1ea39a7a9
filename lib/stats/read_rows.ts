/** Read trial rows from JSONL into a frame, checking the columns a summary needs. */
import pl from "nodejs-polars";
import { TrialRow } from "../model/trial_row.ts";
import { REQUIRED_COLUMNS } from "./summarize.ts";

const _Required = TrialRow.pick({
  instanceId: true,
  pairId: true,
  condition: true,
  correct: true,
  matchesTarget: true,
  error: true,
});

// Fractions written by JSON.stringify may look like integers (0, 1) for thousands of rows, and
// all-null early columns infer as Null: fix the dtypes the contract knows.
const _OVERRIDES = {
  thetaW: pl.Float64,
  thetaR: pl.Float64,
  thetaRRisk: pl.Float64,
  traceLoad: pl.Float64,
  latencyMs: pl.Float64,
  correct: pl.Bool,
  matchesTarget: pl.Bool,
  error: pl.Utf8,
  output: pl.Utf8,
};

/**
 * Read a JSONL file of trial rows (one object per line, no blank lines) into a frame.
 *
 * Parsing is done by Polars in native code and keeps every column: a million full TrialRow rows
 * (about 650 MB) took 9-12 s and 1.4 GB on a busy 2-core machine. To summarise a file, use
 * summarizeFile, which reads only the columns a summary needs. Checks:
 * every column in {@link REQUIRED_COLUMNS} exists; `instanceId`, `pairId` and `condition` are
 * never missing; `condition` is clean, poisoned or nomemory. The first offending line is then
 * checked with the TrialRow zod schema, whose message (with the field path) names the line. A
 * row lacking `correct`, `matchesTarget` or `error` reads as null there, so it counts as an
 * error row, never as a failure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRows } from "./read_rows.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({ instanceId: "i", pairId: "p",
 *   condition: "clean", correct: true, matchesTarget: false, error: null }) + "\n");
 * assert.equal(readRows(path).height, 1);
 * await Deno.remove(path);
 * ```
 */
export function readRows(path: string): pl.DataFrame {
  let df: pl.DataFrame;
  const present = _firstLineKeys(path);
  const overrides = Object.fromEntries(
    Object.entries(_OVERRIDES).filter(([c]) => present.has(c)),
  );
  try {
    // scanJson, not readJSON: the latter fails under Deno in nodejs-polars 0.25.2.
    df = pl.scanJson(path, { inferSchemaLength: 10_000, schemaOverrides: overrides } as never)
      .collectSync();
  } catch (e) {
    throw new TypeError(`Cannot read rows from ${path}: ${(e as Error).message.split("\n")[0]}`);
  }
  for (const c of REQUIRED_COLUMNS) {
    if (!df.columns.includes(c)) {
      throw new TypeError(`Cannot read rows from ${path}: line 1 lacks required column "${c}"`);
    }
  }
  const bad = df.withRowIndex("_line", 1).filter(
    pl.col("instanceId").isNull()
      .or(pl.col("pairId").isNull())
      .or(pl.col("condition").isNull())
      .or(pl.col("condition").cast(pl.Utf8).isIn(["clean", "poisoned", "nomemory"]).not()),
  ).select("_line").head(1);
  if (bad.height > 0) {
    const line = Number(bad.getColumn("_line").get(0));
    throw new TypeError(`Cannot read rows from ${path}: ${_explainLine(path, line)}`);
  }
  return df;
}

/** Why line `line` of `path` is invalid, from the TrialRow zod schema (field path named). */
export function _explainLine(path: string, line: number): string {
  const text = _readLine(path, line);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `line ${line} is not valid JSON`;
  }
  const parsed = _Required.safeParse(value);
  if (parsed.success) return `line ${line} is invalid`;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".");
  const missing = issue.code === "invalid_type" && typeof value === "object" && value !== null &&
    !(field in value);
  return missing
    ? `line ${line} lacks required column "${field}"`
    : `line ${line}, column "${field}": ${issue.message}`;
}

/** Line `line` (1-based) of a file, read in chunks: files larger than a JS string still work. */
function _readLine(path: string, line: number): string {
  const file = Deno.openSync(path);
  try {
    const buf = new Uint8Array(1 << 20);
    const parts: Uint8Array[] = [];
    let current = 1;
    for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
      let start = 0;
      for (let i = 0; i < n; i++) {
        if (buf[i] !== 10) continue;
        if (current === line) parts.push(buf.slice(start, i));
        if (current++ === line) return new TextDecoder().decode(_concat(parts));
        start = i + 1;
      }
      if (current === line) parts.push(buf.slice(start, n));
    }
    return new TextDecoder().decode(_concat(parts));
  } finally {
    file.close();
  }
}

function _concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) out.set(p, offset), offset += p.length;
  return out;
}

/** Keys of the first line of a JSONL file; TypeError if it is not a JSON object. */
export function _firstLineKeys(path: string): Set<string> {
  const file = Deno.openSync(path);
  try {
    const buf = new Uint8Array(1 << 20);
    const n = file.readSync(buf) ?? 0;
    const line = new TextDecoder().decode(buf.subarray(0, n)).split("\n")[0];
    try {
      return new Set(Object.keys(JSON.parse(line)));
    } catch {
      throw new TypeError(`Cannot read rows from ${path}: line 1 is not a JSON object`);
    }
  } finally {
    file.close();
  }
}
