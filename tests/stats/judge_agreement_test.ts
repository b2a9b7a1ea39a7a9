import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { judgeTrajectories } from "../../lib/experiments/judge_trajectories.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { type JudgeLabel, judgeRows } from "../../lib/judges/judge_rows.ts";
import { annotatorAgreement } from "../../lib/stats/annotator_agreement.ts";
import { cohensKappa } from "../../lib/stats/cohens_kappa.ts";
import { fleissKappa } from "../../lib/stats/fleiss_kappa.ts";
import { judgeAgreement } from "../../lib/stats/judge_agreement.ts";
import { readJudgeLabels } from "../../lib/stats/read_judge_labels.ts";

const SYNTHETIC = new URL("../../data/examples/judge_labels_SYNTHETIC.csv", import.meta.url)
  .pathname;

const label = (id: string, question: "correct" | "target", l: boolean | null): JudgeLabel => ({
  trajectoryId: id,
  question,
  label: l,
});

Deno.test("judgeAgreement() joins on trajectory and question, drops missing and null labels", () => {
  const a = [
    label("t1", "correct", true),
    label("t2", "correct", false),
    label("t3", "correct", true),
    label("t1", "target", false),
    label("t4", "target", null),
  ];
  const b = [
    label("t2", "correct", true),
    label("t1", "correct", true),
    label("t3", "correct", true),
    label("t1", "target", false),
    label("t4", "target", true),
    label("t5", "target", true),
  ];
  const rows = judgeAgreement({ a, b }).toRecords();
  assert.deepEqual(rows.map((r) => [r.question, r.n, r.dropped]), [
    ["correct", 3, 0],
    ["target", 1, 2],
    ["all", 4, 2],
  ]);
  assert.equal(rows[0].agreement, 2 / 3);
  assert.equal(rows[0].kappa, cohensKappa([true, false, true], [true, true, true]));
  const empty = judgeAgreement({ a: [], b: [] }).toRecords();
  assert.ok(Number.isNaN(empty[2].agreement as number) && empty[2].n === 0);
});

Deno.test("annotatorAgreement() gives Fleiss' kappa per question and the majority label", () => {
  const labels = pl.DataFrame({
    trajectoryId: ["t1", "t2", "t3", "t1"],
    question: ["correct", "correct", "correct", "target"],
    a1: [true, false, true, false],
    a2: [true, false, false, false],
    a3: [false, false, true, true],
    a4: [true, true, true, false],
  });
  const { summary, majority } = annotatorAgreement({ labels });
  assert.deepEqual(majority.map((m) => m.label), [true, false, true, false]);
  const correct = summary.toRecords()[0];
  assert.equal(
    correct.fleissKappa,
    fleissKappa([[true, true, false, true], [false, false, false, true], [
      true,
      false,
      true,
      true,
    ]]),
  );
  assert.equal(correct.ties, 0);
  assert.equal(correct.pairwiseAgreement, (3 + 3 + 3) / 18);
});

Deno.test("readJudgeLabels() names the row, column and value of a bad cell", async () => {
  const path = await Deno.makeTempFile({ suffix: ".csv" });
  await Deno.writeTextFile(path, "trajectory_id,question,a,b\nt1,correct,1,0\nt2,target,1,maybe\n");
  await assert.rejects(readJudgeLabels({ path }), /data row 2, column b: .*got "maybe"/);
  await Deno.writeTextFile(path, "trajectory_id,question,a,b\nt1,answer,1,0\n");
  await assert.rejects(readJudgeLabels({ path }), /column question: expected correct or target/);
  await Deno.writeTextFile(path, "id,question,a,b\nt1,correct,1,0\n");
  await assert.rejects(readJudgeLabels({ path }), /needs a trajectory_id column/);
  await Deno.writeTextFile(path, "trajectory_id,question,a\nt1,correct,1\n");
  await assert.rejects(readJudgeLabels({ path }), /at least 2 annotator columns, got 1/);
});

Deno.test("the shipped synthetic labels say so and still label the trajectories notebook 06 makes", async () => {
  const text = await Deno.readTextFile(SYNTHETIC);
  assert.match(text, /^# SYNTHETIC example labels, NOT human labels/);
  const labels = await readJudgeLabels({ path: SYNTHETIC });
  assert.ok(labels.columns.slice(2).every((c) => c.startsWith("synthetic_")));
  // If this fails, the demo set or the reference agent changed: rerun
  // `deno run -A data/examples/build_judge_labels.ts`.
  const { rows, instances } = await judgeTrajectories({ n: 6 });
  const matcher = await judgeRows({ rows, instances, judge: deterministicJudge });
  const { majority } = annotatorAgreement({ labels });
  const all = judgeAgreement({ a: matcher, b: majority }).toRecords()[2];
  assert.equal(all.n, labels.height);
  assert.ok((all.agreement as number) > 0.9);
});
