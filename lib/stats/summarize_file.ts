/** Summarise a JSONL file of trial rows, reading only the columns the summary needs. */
import pl from "nodejs-polars";
import { _BadLine, _scanJsonl } from "./_scan_jsonl.ts";
import { _explainLine, _firstLineKeys } from "./read_rows.ts";
import {
  _checkBy,
  _keyColumns,
  _settings,
  _summarizeColumns,
  DEFAULT_GROUP_COLUMNS,
  REQUIRED_COLUMNS,
  type SummarizeOptions,
} from "./summarize.ts";

/** Columns whose values are fractions: the summary keeps them Float64 even if all are whole. */
const _FLOAT_COLUMNS = new Set(["thetaW", "thetaR", "thetaRRisk", "traceLoad"]);

/**
 * {@link summarize} of the rows in a JSONL file (one object per line), with the same columns,
 * rules and seeds, without building a frame of all columns: the file is scanned once for the
 * grouping, id and outcome columns, which are integer-coded as they are read. A million rows
 * of the full TrialRow contract (about 650 MB) take a few seconds and a few hundred MB. Checks
 * as {@link readRows}: required columns in line 1; instanceId, pairId and condition present on
 * every line and condition clean, poisoned or nomemory, else a TypeError naming the line and
 * the field (TrialRow's zod message).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeFile } from "./summarize_file.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * const row = (condition: string, matchesTarget: boolean) =>
 *   JSON.stringify({ agent: "a", instanceId: "i", pairId: "p", condition, correct: true,
 *     matchesTarget, error: null });
 * await Deno.writeTextFile(path, `${row("clean", false)}\n${row("poisoned", true)}\n`);
 * const s = summarizeFile(path, { resamples: 100 });
 * assert.equal(s.getColumn("midAsr").get(0), 1);
 * await Deno.remove(path);
 * ```
 */
export function summarizeFile(path: string, options: SummarizeOptions = {}): pl.DataFrame {
  const { resamples, ci, seed, level } = _settings(options);
  const columns = [..._firstLineKeys(path)];
  for (const c of REQUIRED_COLUMNS) {
    if (!columns.includes(c)) {
      throw new TypeError(`Cannot read rows from ${path}: line 1 lacks required column "${c}"`);
    }
  }
  const by = [...(options.by ?? DEFAULT_GROUP_COLUMNS.filter((c) => columns.includes(c)))];
  _checkBy(by, columns);
  let t;
  try {
    t = _scanJsonl(path, _keyColumns(by, columns));
  } catch (e) {
    const why = e instanceof _BadLine ? _explainLine(path, e.line) : (e as Error).message;
    throw new TypeError(`Cannot read rows from ${path}: ${why}`);
  }
  t.dtypes = Object.fromEntries(
    by.filter((c) => _FLOAT_COLUMNS.has(c)).map((c) => [c, pl.Float64]),
  );
  return _summarizeColumns(t, by, { resamples, ci, seed, level });
}
