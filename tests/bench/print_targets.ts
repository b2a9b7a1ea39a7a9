/**
 * Print every built instance for reading targets by eye: "n  dataset  answer kind  target kind
 * query | answer -> target  [evidence dates; asked: query date]", then the questions skipped, by
 * reason, the answer-kind and target-kind shares, and a recount of the target checks on the
 * built instances (format, well-formedness, timeline, evidence support; all 0 when the builder
 * applied them). Evidence dates are the helpful trace's session stamps; the query date is the
 * instance's when the builder sets one.
 * Run: `MEMGAUGE_DATA=... deno run -A tests/bench/print_targets.ts [SEED]` (default seed 0, the
 * sweeps' default; |B| = 100).
 */
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { dataDir } from "../../lib/data/data_dir.ts";
import { formatProblem, wellFormedProblem } from "../../lib/data/target_format.ts";
import { timelineProblem } from "../../lib/data/target_timeline.ts";
import { evidenceProblem } from "../../lib/data/target_support.ts";

const seed = Number(Deno.args[0] ?? "0");
const tally = (xs: string[]) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return JSON.stringify(Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1])));
};
for (const build of [buildLocomo, buildLongMemEval]) {
  const built = await build({ seed, bankSize: 100, traceLoad: 1, dataDir: dataDir() });
  const recount: string[] = [];
  built.instances.forEach((i, n) => {
    const query = i.query.split(/(?<=[.!?])\s+/).slice(-2).join(" ").replace(/\s+/g, " ");
    const evidence = i.helpful.units.filter((u) => u.origin !== "kit" && u.supports != null);
    const dates = [...new Set(evidence.flatMap((u) => /^\[([^\]]+)\]/.exec(u.text)?.[1] ?? []))];
    const when = `[${dates.join("; ")}${
      i.queryDate === undefined ? "" : `; asked ${i.queryDate}`
    }]`;
    console.log(
      `${n + 1}\t${i.dataset}\t${i.answerKind}\t${
        built.targetKinds[i.id]
      }\t${query} | ${i.answer} -> ${i.target}  ${when}`,
    );
    const evidenceText = evidence.map((u) => u.text.replace(/^\[[^\]]*\] [^:]*: /, "")).join("\n");
    const problem = wellFormedProblem({ target: i.target }) ??
      formatProblem({ answer: i.answer, target: i.target }) ??
      timelineProblem({
        answer: i.answer,
        target: i.target,
        timeline: { evidenceDates: dates, queryDate: i.queryDate ?? null },
      }) ??
      evidenceProblem({ answer: i.answer, target: i.target, evidenceText });
    if (problem !== null) recount.push(problem.replace(/ \(.*\)$|".*"/, ""));
  });
  const name = built.instances[0].dataset;
  const skipped = Object.values(built.skipped).reduce((a, b) => a + b, 0);
  console.log(`${name} skipped ${skipped}: ${JSON.stringify(built.skipped)}`);
  console.log(`${name} answer kinds: ${tally(built.instances.map((i) => i.answerKind))}`);
  console.log(`${name} target kinds: ${tally(Object.values(built.targetKinds))}`);
  console.log(`${name} target check recount: ${recount.length} ${tally(recount)}`);
}
