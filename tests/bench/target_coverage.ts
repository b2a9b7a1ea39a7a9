/**
 * Target coverage per stratum: for EVERY question of LoCoMo (categories 1-4) and LongMemEval
 * (non-abstention), whether the builder's cleaning keeps its answer and whether a target passes
 * the target checks, with the answer kinds of the source and of the buildable questions side by
 * side. A stratified sample in proportion to the source draws from the buildable questions, so a
 * kind that skips more is under-represented: the two kind columns show by how much.
 *
 * The sources are prepared here as the adapters prepare them (cleaning, like-question pools,
 * people, evidence turns and their neighbours, session dates, the question's date), without
 * banks or traces, so the whole benchmark is read in seconds; the builder's own skip counts for
 * the seed-0 sample come from `deno task data --stats`.
 *
 * Run: `MEMGAUGE_DATA=... deno run -A tests/bench/target_coverage.ts [--list STRATUM] [--skips]`
 */
import { dataDir } from "../../lib/data/data_dir.ts";
import { DATA_FILES } from "../../lib/data/data_files.ts";
import { readJsonFile } from "../../lib/data/read_json_file.ts";
import { LocomoFile } from "../../lib/data/locomo/locomo_schema.ts";
import { LongMemEvalFile } from "../../lib/data/longmemeval/longmemeval_schema.ts";
import { prepareTargetSources, type TargetSource } from "./_target_sources.ts";
import { buildTarget } from "./_build_target.ts";

const args = Deno.args;
const listStratum = args.includes("--list") ? args[args.indexOf("--list") + 1] : null;
const showSkips = args.includes("--skips");
const dir = dataDir().replace(/\/+$/, "");
const locomo = await readJsonFile({
  path: `${dir}/${DATA_FILES.locomo.path}`,
  schema: LocomoFile,
  url: DATA_FILES.locomo.url,
});
const oracle = await readJsonFile({
  path: `${dir}/${DATA_FILES.longmemevalOracle.path}`,
  schema: LongMemEvalFile,
  url: DATA_FILES.longmemevalOracle.url,
});

const tally = (xs: string[]) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
};
const pct = (n: number, d: number) => d === 0 ? "-" : `${Math.round((100 * n) / d)}%`;

for (const [dataset, sources] of prepareTargetSources({ locomo, oracle })) {
  const byStratum = new Map<string, TargetSource[]>();
  for (const s of sources) byStratum.set(s.category, [...(byStratum.get(s.category) ?? []), s]);
  console.log(`\n== ${dataset}`);
  let all = 0, built = 0;
  const allKinds: string[] = [], builtKinds: string[] = [];
  for (const [stratum, list] of byStratum) {
    const results = list.map((s) => ({ s, r: buildTarget(s) }));
    const ok = results.filter((x) => "target" in x.r);
    all += list.length, built += ok.length;
    const kinds = list.map((s) => s.kind);
    const okKinds = ok.map((x) => x.s.kind);
    allKinds.push(...kinds), builtKinds.push(...okKinds);
    console.log(
      `${stratum.padEnd(26)} n=${String(list.length).padStart(4)}  built=${
        String(ok.length).padStart(4)
      }  skip=${pct(list.length - ok.length, list.length).padStart(4)}`,
    );
    const share = (xs: string[]) =>
      Object.entries(tally(xs)).map(([k, n]) => `${k} ${pct(n, xs.length)}`).join(", ");
    console.log(`    source kinds:    ${share(kinds)}`);
    console.log(`    buildable kinds: ${share(okKinds)}`);
    const reasons = tally(results.flatMap((x) => "skip" in x.r ? [x.r.skip] : []));
    console.log(`    skips: ${JSON.stringify(reasons)}`);
    if (listStratum === stratum || listStratum === "all") {
      for (const { s, r } of results) {
        const q = s.question.split(/(?<=[.!?])\s+/).slice(-1)[0];
        console.log(
          "skip" in r
            ? `      SKIP [${s.kind}] ${q} | ${s.rawAnswer} :: ${r.skip}`
            : `      OK   [${s.kind}] ${q} | ${s.answer} -> ${r.target} (${r.kind})`,
        );
      }
    } else if (showSkips) {
      for (const { s, r } of results) {
        if ("skip" in r) {
          const q = s.question.split(/(?<=[.!?])\s+/).slice(-1)[0];
          console.log(`      SKIP [${s.kind}] ${q} | ${s.rawAnswer} :: ${r.skip}`);
        }
      }
    }
  }
  const share = (xs: string[]) =>
    Object.entries(tally(xs)).map(([k, n]) => `${k} ${pct(n, xs.length)}`).join(", ");
  console.log(`all: n=${all} built=${built} skip=${pct(all - built, all)}`);
  console.log(`    source kinds:    ${share(allKinds)}`);
  console.log(`    buildable kinds: ${share(builtKinds)}`);
}
