/** Agreement among human annotators and their majority labels (the judge's reference). */
import pl from "nodejs-polars";
import type { JudgeLabel, JudgeQuestion } from "../judges/judge_rows.ts";
import { fleissKappa } from "./fleiss_kappa.ts";
import { majorityVote } from "./majority_vote.ts";

/** What {@link annotatorAgreement} returns. */
export interface AnnotatorAgreement {
  /**
   * Per question (`correct`, `target`, `all`): items, annotators, Fleiss' kappa, mean pairwise
   * percent agreement of the annotators, and ties (items without a majority).
   */
  summary: pl.DataFrame;
  /** The majority label per item (null on a tie), to compare a judge against. */
  majority: JudgeLabel[];
}

/**
 * Fleiss' kappa and majority vote over a labels frame (as `readJudgeLabels` returns: columns
 * `trajectoryId`, `question`, one boolean column per annotator).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { annotatorAgreement } from "./annotator_agreement.ts";
 * const labels = pl.DataFrame({ trajectoryId: ["t1", "t2"], question: ["correct", "correct"],
 *   a1: [true, false], a2: [true, false], a3: [true, true] });
 * const { summary, majority } = annotatorAgreement({ labels });
 * assert.deepEqual(majority.map((m) => m.label), [true, false]);
 * assert.equal(summary.getColumn("items").toArray()[0], 2);
 * ```
 */
export function annotatorAgreement(options: {
  /** Labels frame. */
  labels: pl.DataFrame;
  /** Annotator columns; default every column except `trajectoryId` and `question`. */
  annotators?: readonly string[];
}): AnnotatorAgreement {
  const annotators = options.annotators ??
    options.labels.columns.filter((c) => c !== "trajectoryId" && c !== "question");
  const records = options.labels.toRecords() as Record<string, unknown>[];
  const items = records.map((r) => ({
    trajectoryId: String(r.trajectoryId),
    question: r.question as JudgeQuestion,
    labels: annotators.map((a) => r[a] as boolean),
  }));
  const votes = majorityVote(items.map((i) => i.labels), {});
  const majority = items.map((item, i) => ({
    trajectoryId: item.trajectoryId,
    question: item.question,
    label: votes[i],
  }));
  const summary = ["correct", "target", "all"].map((question) => {
    const idx = items.flatMap((it, i) => question === "all" || it.question === question ? [i] : []);
    const these = idx.map((i) => items[i].labels);
    let same = 0, pairs = 0;
    for (const labels of these) {
      for (let x = 0; x < labels.length; x++) {
        for (let y = x + 1; y < labels.length; y++) {
          pairs++;
          if (labels[x] === labels[y]) same++;
        }
      }
    }
    return {
      question,
      items: these.length,
      annotators: annotators.length,
      fleissKappa: these.length ? fleissKappa(these) : NaN,
      pairwiseAgreement: pairs ? same / pairs : NaN,
      ties: idx.filter((i) => votes[i] === null).length,
    };
  });
  return { summary: pl.DataFrame(summary), majority };
}
