/** Read a rows file written so far (possibly cut off mid-line by a kill). */
import { TrialRow } from "../model/trial_row.ts";
import { trialKey } from "./run_pair.ts";

/**
 * Parse the complete rows of a JSONL file, keeping only pair trials with both rows present
 * (a kill can cut the last write short). Returns the kept rows, in file order, and their keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRowsFile } from "./rows_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"broken');
 * assert.deepEqual((await readRowsFile({ path: `${dir}/r.jsonl` })).rows, []);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readRowsFile(options: {
  /** Path of the JSONL rows file. */
  path: string;
}): Promise<{ rows: TrialRow[]; keys: Set<string> }> {
  const text = await Deno.readTextFile(options.path);
  const rows: TrialRow[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const row = JSON.parse(line);
      TrialRow.parse(row);
      // Keep the object as written: zod would reorder keys and break byte-identical files.
      rows.push(row);
    } catch {
      // A torn final line from an interrupted write: drop it (its pair will be rerun).
    }
  }
  const count = new Map<string, number>();
  for (const r of rows) count.set(trialKey(r), (count.get(trialKey(r)) ?? 0) + 1);
  const kept = rows.filter((r) => count.get(trialKey(r)) === 2);
  return { rows: kept, keys: new Set(kept.map(trialKey)) };
}
