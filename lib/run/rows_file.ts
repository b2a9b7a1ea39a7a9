/** Read a rows file written so far (possibly cut off mid-line by a kill). */
import { TrialRow } from "../model/trial_row.ts";
import { counterfactualCalls } from "./counterfactual.ts";
import { trialKey } from "./run_pair.ts";

/**
 * Parse the complete rows of a JSONL file, keeping only pair trials with both rows present
 * (a kill can cut the last write short) and, for a `--counterfactual loo` run, every rerun of
 * their selected trials. Returns the kept rows, in file order, and their keys.
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
  /** The run reruns selected trials (`--counterfactual loo`); default false. */
  counterfactual?: boolean;
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
  const originals = new Map<string, TrialRow[]>();
  const reruns = new Map<string, number>();
  for (const r of rows) {
    const key = trialKey(r);
    if ((r.counterfactualOf ?? null) === null) {
      originals.set(key, [...(originals.get(key) ?? []), r]);
    } else reruns.set(key, (reruns.get(key) ?? 0) + 1);
  }
  const complete = (key: string) => {
    const pair = originals.get(key) ?? [];
    if (pair.length !== 2) return false;
    const expected = options.counterfactual ? counterfactualCalls({ rows: pair }) : 0;
    return (reruns.get(key) ?? 0) === expected;
  };
  const kept = rows.filter((r) => complete(trialKey(r)));
  return { rows: kept, keys: new Set(kept.map(trialKey)) };
}
