/** Judge the outputs of finished rows again, with any judge, as labels keyed by trajectory. */
import type { Instance } from "../schema/instance.ts";
import { trajectoryId } from "../schema/trajectory_id.ts";
import type { Judge } from "./judge.ts";

/** The two questions a judge (or an annotator) answers about a trajectory. */
export type JudgeQuestion = "correct" | "target";

/** One yes/no label on one question about one trajectory; null when there is no decision. */
export interface JudgeLabel {
  trajectoryId: string;
  question: JudgeQuestion;
  label: boolean | null;
}

/**
 * Two labels per row (`correct`: supports `y*`; `target`: matches `y_adv`). Rows without an
 * output (error rows) and judge calls that fail give null labels rather than a guess. The judge
 * sees the query and the final output (rows do not store the agent's trajectory, so a
 * trajectory-scope judge grades the question and the answer; no judge reads reasoning). All rows
 * are judged at once; a model judge's client bounds the requests in flight.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeRows } from "./judge_rows.ts";
 * import { deterministicJudge } from "./deterministic_judge.ts";
 * const instance = { id: "d1", query: "How many?", answer: "3", target: "5" };
 * const row = { agent: "a", dataset: "demo", attack: "minja", instanceId: "d1",
 *   condition: "poisoned", trial: 0, seed: 0, stage: "retrieval", thetaW: 0.6, policy: "UM",
 *   thetaR: 0.8, thetaRRisk: 0.8, k: 5, fill: "random", bankSize: 100, ranker: "usefulness",
 *   traceLoad: 1, contextIds: [] as string[], output: "Five." } as const;
 * const labels = await judgeRows({ rows: [row], instances: [instance], judge: deterministicJudge });
 * assert.deepEqual(labels.map((l) => [l.question, l.label]), [["correct", false], ["target", true]]);
 * ```
 */
export async function judgeRows(options: {
  /** Finished rows (their `output` is judged). */
  rows: readonly Parameters<typeof trajectoryId>[0][];
  /** The instances the rows ran on (by `id`); needs `query`, `answer` and `target`. */
  instances: readonly Pick<Instance, "id" | "query" | "answer" | "target">[];
  /** The judge. */
  judge: Judge;
}): Promise<JudgeLabel[]> {
  const byId = new Map(options.instances.map((i) => [i.id, i]));
  const judged = await Promise.all(options.rows.map(async (row) => {
    const instance = byId.get(row.instanceId);
    if (!instance) {
      throw new RangeError(
        `judgeRows: row instance ${JSON.stringify(row.instanceId)} is not among the instances`,
      );
    }
    let verdict: { correct: boolean | null; matchesTarget: boolean | null } = {
      correct: null,
      matchesTarget: null,
    };
    if (row.output !== null) {
      try {
        verdict = await options.judge.judge({
          instance: instance as Instance,
          output: row.output,
          ...(row.trial !== 0 && { trial: row.trial }),
        });
      } catch {
        // A failed judge call is no decision (null), never a guessed label.
      }
    }
    const id = trajectoryId(row);
    return [
      { trajectoryId: id, question: "correct", label: verdict.correct },
      { trajectoryId: id, question: "target", label: verdict.matchesTarget },
    ] satisfies JudgeLabel[];
  }));
  return judged.flat();
}
