/** Summarise a JSONL file of trial rows, reading only the columns the summary needs. */
import type pl from "nodejs-polars";
import { firstRow, scanRows } from "./_scan_rows.ts";
import { pairColumns, reduceRows, summarizeReduced } from "./_summarize_frame.ts";
import { checkColumns, defaultGrouping, neededKinds, summarySettings } from "./_trial_frame.ts";
import type { SummarizeOptions } from "./summarize.ts";

/**
 * {@link summarize} of the rows in a JSONL file (one object per line), with the same columns,
 * rules and seeds. Polars scans the file once with a declared schema of just the columns the
 * summary reads (grouping columns present on line 1, ids, condition, outcomes, trial), so other
 * columns are never materialised, and streams it: blocks of about 32 MB are parsed one at a time
 * and each is reduced to its pair trials' counts before the next is read, so memory follows the
 * pairs, not the file size (tests/bench/summarize_1m.ts: a million rows of the full TrialRow
 * contract, about 630 MB, in a few seconds and under 600 MB peak). Checks: required columns on line 1; every value of a read column of the
 * right type, instanceId, pairId and condition present on every line and condition clean,
 * poisoned or nomemory; a line that is not JSON (a torn last line). Each failure is a TypeError
 * naming the file, line and column.
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
 * const s = summarizeFile(path, {});
 * assert.equal(s.getColumn("midAsr").get(0), 1);
 * await Deno.writeTextFile(path, `${row("clean", false)}\n{"agent": "a", "instanceId`);
 * assert.throws(() => summarizeFile(path, {}), /line 2 is not valid JSON/);
 * await Deno.remove(path);
 * ```
 */
export function summarizeFile(path: string, options: SummarizeOptions = {}): pl.DataFrame {
  const settings = summarySettings(options);
  const first = firstRow(path);
  const columns = Object.keys(first);
  const by = [...(options.by ?? defaultGrouping(columns))];
  checkColumns(by, columns, `line 1 of ${path}`);
  const kinds = neededKinds(by, columns, (c) => first[c]);
  // Each block is reduced to its pair trials as it is read: memory follows pairs, not lines.
  const full = pairColumns(by, columns);
  const reduced = scanRows(path, kinds, (rows, invalid) => reduceRows(rows, full, invalid));
  return summarizeReduced(reduced, Object.keys(kinds), by, settings);
}
