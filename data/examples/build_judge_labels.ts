/**
 * Generator for `data/examples/judge_labels_SYNTHETIC.csv`: SYNTHETIC annotator labels (not human
 * labels) so notebook 06 runs offline. Run: `deno run -A data/examples/build_judge_labels.ts`.
 */
import { judgeTrajectories } from "../../lib/experiments/judge_trajectories.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { judgeRows } from "../../lib/judges/judge_rows.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { deriveSeed } from "../../lib/random/derive_seed.ts";

/** Instances labelled: the first 4 of the demo set (CI runs the notebook with N = 6). */
const N = 4;
/** Synthetic annotators and the chance each flips the matcher's verdict. */
const ANNOTATORS = 5;
const FLIP = 0.1;

const { rows, instances } = await judgeTrajectories({ n: N, seed: 0 });
const labels = await judgeRows({ rows, instances, judge: deterministicJudge });
const lines = [
  "# SYNTHETIC example labels, NOT human labels: each synthetic_i column is the deterministic",
  `# matcher's verdict flipped with probability ${FLIP} (seeded). Made by build_judge_labels.ts for`,
  "# notebooks/06_judge_agreement.ipynb (demo set, seed 0, offline reference agent, first 4",
  "# instances). Replace with real annotations in the same format to validate a judge.",
  [
    "trajectory_id",
    "question",
    ...Array.from({ length: ANNOTATORS }, (_, i) => `synthetic_${i + 1}`),
  ]
    .join(","),
];
for (const l of labels) {
  const prng = createPrng(deriveSeed(0, "synthetic-labels", l.trajectoryId, l.question));
  const votes = Array.from(
    { length: ANNOTATORS },
    () => (prng.float() < FLIP ? !l.label : l.label) ? 1 : 0,
  );
  lines.push([l.trajectoryId, l.question, ...votes].join(","));
}
const out = new URL("./judge_labels_SYNTHETIC.csv", import.meta.url).pathname;
await Deno.writeTextFile(out, lines.join("\n") + "\n");
console.log(`${labels.length} synthetic label rows -> ${out}`);
