/** Read a rows file written so far (possibly cut off mid-line by a kill). */
import { TrialRow } from "../schema/trial_row.ts";
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
export async function readRowsFile<R = TrialRow>(options: {
  /** Path of the JSONL rows file. */
  path: string;
  /** Row schema each line must pass; default the controlled `TrialRow`. */
  schema?: { parse(row: unknown): unknown };
  /**
   * The resume unit a row belongs to, for rows other than pair trials (the systems' rows); with
   * it, a unit is complete when it has `rowsPerKey` rows. Default: pair trials by `trialKey`.
   */
  key?: (row: R) => string;
  /** Rows a complete unit has when `key` is given; default 2. */
  rowsPerKey?: number;
  /** The run reruns selected trials (`--counterfactual loo`); default false. Pair trials only. */
  counterfactual?: boolean;
}): Promise<{ rows: R[]; keys: Set<string> }> {
  const schema = options.schema ?? TrialRow;
  const text = await Deno.readTextFile(options.path);
  const rows: R[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const row = JSON.parse(line);
      schema.parse(row);
      // Keep the object as written: zod would reorder keys and break byte-identical files.
      rows.push(row);
    } catch {
      // A torn final line from an interrupted write: drop it (its pair will be rerun).
    }
  }
  if (options.key !== undefined) {
    const key = options.key;
    const count = new Map<string, number>();
    for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
    const kept = rows.filter((r) => count.get(key(r)) === (options.rowsPerKey ?? 2));
    return { rows: kept, keys: new Set(kept.map(key)) };
  }
  const pairs = rows as unknown as TrialRow[];
  const originals = new Map<string, TrialRow[]>();
  const reruns = new Map<string, number>();
  for (const r of pairs) {
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
  const kept = pairs.filter((r) => complete(trialKey(r)));
  return { rows: kept as unknown as R[], keys: new Set(kept.map(trialKey)) };
}
