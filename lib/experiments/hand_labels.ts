/**
 * A judge checked against answers labelled by hand: `data/examples/hand_labelled_answers.csv`
 * holds 120 answers written for the kit, each with a question, y*, y_adv and the labeller's
 * decision on "supports y*" and "matches y_adv". The labels were written by hand with the
 * answers, not derived from any judge's verdicts; there is one labeller, so there is no
 * inter-annotator agreement to report.
 */
import pl from "nodejs-polars";
import { z } from "zod";
import type { Judge } from "../judges/judge.ts";
import type { Instance } from "../schema/instance.ts";
import { cohensKappa } from "../stats/cohens_kappa.ts";
import { percentAgreement } from "../stats/percent_agreement.ts";
import { repoPath } from "./repo_paths.ts";

/** The shipped hand-labelled set. */
export const HAND_LABELS = "data/examples/hand_labelled_answers.csv";

/** One hand-labelled answer. */
export const HandLabel = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  answer: z.string().min(1),
  target: z.string().min(1),
  output: z.string().min(1),
  correct: z.enum(["0", "1"]).transform((v) => v === "1"),
  matches_target: z.enum(["0", "1"]).transform((v) => v === "1"),
});
/** One hand-labelled answer. */
export type HandLabel = z.infer<typeof HandLabel>;

/**
 * Read a hand-labelled CSV (path relative to the repository root); a bad line names its id and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHandLabels } from "./hand_labels.ts";
 * const labels = await readHandLabels({});
 * assert.ok(labels.length >= 100);
 * ```
 */
export async function readHandLabels(options: {
  /** CSV path; default {@link HAND_LABELS}. */
  path?: string;
}): Promise<HandLabel[]> {
  const path = repoPath({ path: options.path ?? HAND_LABELS });
  const frame = pl.readCSV(await Deno.readTextFile(path), { inferSchemaLength: 0 });
  return frame.toRecords().map((r, i) => {
    const parsed = HandLabel.safeParse(r);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(
        `${path}: line ${i + 2} (${r.id ?? "no id"}): ${issue.path.join(".")}: ${issue.message}`,
      );
    }
    return parsed.data;
  });
}

/** What {@link handLabelAgreement} returns. */
export interface HandLabelAgreement {
  /** Per question (correct, target, all): n, judged (no error), agreement, Cohen's kappa. */
  summary: pl.DataFrame;
  /** Every answer where the judge and the label differ. */
  disagreements: pl.DataFrame;
}

/**
 * Judge every hand-labelled answer and compare with the labels. A judge call that fails is left
 * out and counted (`n` minus `judged`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deterministicJudge } from "../judges/deterministic_judge.ts";
 * import { handLabelAgreement, readHandLabels } from "./hand_labels.ts";
 * const labels = (await readHandLabels({})).slice(0, 8);
 * const { summary } = await handLabelAgreement({ labels, judge: deterministicJudge });
 * assert.deepEqual(summary.getColumn("question").toArray(), ["correct", "target", "all"]);
 * ```
 */
export async function handLabelAgreement(options: {
  /** The labelled answers. */
  labels: readonly HandLabel[];
  /** The judge to check. */
  judge: Judge;
}): Promise<HandLabelAgreement> {
  const verdicts = await Promise.all(options.labels.map(async (l) => {
    const instance = {
      id: l.id,
      query: l.question,
      answer: l.answer,
      target: l.target,
    } as unknown as Instance;
    try {
      return await options.judge.judge({ instance, output: l.output });
    } catch {
      return null;
    }
  }));
  const pairs = (q: "correct" | "target") =>
    options.labels.flatMap((l, i) => {
      const v = verdicts[i];
      if (!v) return [];
      return [{
        label: q === "correct" ? l.correct : l.matches_target,
        judge: q === "correct" ? v.correct : v.matchesTarget,
      }];
    });
  const row = (question: string, p: { label: boolean; judge: boolean }[]) => ({
    question,
    n: question === "all" ? 2 * options.labels.length : options.labels.length,
    judged: p.length,
    agreement: p.length ? percentAgreement(p.map((x) => x.label), p.map((x) => x.judge)) : null,
    kappa: p.length ? cohensKappa(p.map((x) => x.label), p.map((x) => x.judge)) : null,
  });
  const correct = pairs("correct");
  const target = pairs("target");
  const summary = pl.readRecords([
    row("correct", correct),
    row("target", target),
    row("all", [...correct, ...target]),
  ]).withColumns(pl.col("n").cast(pl.Int32), pl.col("judged").cast(pl.Int32));
  const disagreements = options.labels.flatMap((l, i) => {
    const v = verdicts[i];
    if (!v || (v.correct === l.correct && v.matchesTarget === l.matches_target)) return [];
    return [{
      id: l.id,
      question: l.question,
      "y*": l.answer,
      y_adv: l.target,
      output: l.output,
      "label: correct": l.correct,
      "judge: correct": v.correct,
      "label: target": l.matches_target,
      "judge: target": v.matchesTarget,
    }];
  });
  return {
    summary,
    disagreements: disagreements.length
      ? pl.readRecords(disagreements)
      : pl.DataFrame({ disagreements: [0] }),
  };
}
