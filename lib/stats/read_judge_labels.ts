/** Read a human labels file: one row per (trajectory, question), one column per annotator. */
import pl from "nodejs-polars";

const _YES = new Set(["1", "true", "yes", "y"]);
const _NO = new Set(["0", "false", "no", "n"]);

/**
 * Read a CSV with columns `trajectory_id`, `question` (`correct` or `target`) and one column per
 * annotator (every other column unless `annotators` names them) holding 1/0, true/false or
 * yes/no. Lines starting with `#` are comments. Returns a frame with `trajectoryId`, `question`
 * and one boolean column per annotator. A bad cell throws a RangeError naming its line and
 * column and the value received.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJudgeLabels } from "./read_judge_labels.ts";
 * const path = await Deno.makeTempFile({ suffix: ".csv" });
 * await Deno.writeTextFile(path, "# synthetic\ntrajectory_id,question,ann1,ann2\nt1,correct,1,0\n");
 * const labels = await readJudgeLabels({ path });
 * assert.deepEqual(labels.columns, ["trajectoryId", "question", "ann1", "ann2"]);
 * assert.deepEqual(labels.getColumn("ann1").toArray(), [true]);
 * ```
 */
export async function readJudgeLabels(options: {
  /** CSV path. */
  path: string;
  /** Annotator columns; default every column except `trajectory_id` and `question`. */
  annotators?: readonly string[];
}): Promise<pl.DataFrame> {
  // Every column as text (inferSchemaLength 0): the cells are validated here, not guessed.
  const raw = pl.readCSV(await Deno.readTextFile(options.path), {
    inferSchemaLength: 0,
    commentPrefix: "#",
  });
  for (const column of ["trajectory_id", "question"]) {
    if (!raw.columns.includes(column)) {
      throw new RangeError(
        `${options.path}: labels file needs a ${column} column, got columns ${
          raw.columns.join(", ")
        }`,
      );
    }
  }
  const annotators = options.annotators ??
    raw.columns.filter((c) => c !== "trajectory_id" && c !== "question");
  if (annotators.length < 2) {
    throw new RangeError(
      `${options.path}: labels file needs at least 2 annotator columns, got ${annotators.length}`,
    );
  }
  const records = raw.toRecords() as Record<string, string | null>[];
  const out = records.map((r, i) => {
    // Data rows counted from 1 after the header; comment lines are not counted.
    const where = (column: string) => `${options.path}: data row ${i + 1}, column ${column}`;
    const question = r.question?.trim();
    if (question !== "correct" && question !== "target") {
      throw new RangeError(
        `${where("question")}: expected correct or target, got ${JSON.stringify(r.question)}`,
      );
    }
    const row: Record<string, string | boolean> = {
      trajectoryId: r.trajectory_id ?? "",
      question,
    };
    for (const a of annotators) {
      if (!(a in r)) throw new RangeError(`${options.path}: no annotator column ${a}`);
      const v = (r[a] ?? "").trim().toLowerCase();
      if (!_YES.has(v) && !_NO.has(v)) {
        throw new RangeError(
          `${where(a)}: expected 1/0, true/false or yes/no, got ${JSON.stringify(r[a])}`,
        );
      }
      row[a] = _YES.has(v);
    }
    return row;
  });
  return pl.DataFrame(out, { orient: "row" }).select("trajectoryId", "question", ...annotators);
}
