/** Rows for the explorer and the Inspect export: a rows file checked line by line at the boundary. */
import { SystemRow } from "../schema/system_row.ts";
import { TrialRow } from "../schema/trial_row.ts";

/**
 * Every row of a rows file (a sweep's or a systems run's), checked against the row contract. A
 * torn last line (an interrupted write) is skipped; any other bad line is a `RangeError` naming
 * the file, the line and what is wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTrialRows } from "./read_trial_rows.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"runId": 1}\n{}\n');
 * await assert.rejects(readTrialRows({ path: `${dir}/r.jsonl` }), /r\.jsonl line 1: runId: /);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readTrialRows(options: {
  /** The rows file (JSONL). */
  path: string;
}): Promise<TrialRow[]> {
  const { path } = options;
  const lines = (await Deno.readTextFile(path)).split("\n");
  const rows: TrialRow[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // The last line may be cut short by a kill; anywhere else it is a broken file.
      if (lines.slice(i + 1).every((l) => l.trim() === "")) return;
      throw new RangeError(`${path} line ${i + 1}: not JSON`);
    }
    const system = (value as { kind?: unknown })?.kind === "system";
    const parsed = (system ? SystemRow : TrialRow).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RangeError(
        `${path} line ${i + 1}: ${
          issue.path.join(".") || "row"
        }: ${issue.message} (not a row of deno task sweep or systems)`,
      );
    }
    rows.push(parsed.data as unknown as TrialRow);
  });
  return rows;
}
