/**
 * Print what the reference agent's acceptance checks read, from the figure CSVs of a
 * `deno task reproduce` run (offline, demo set by default):
 *
 *   MEMGAUGE_FIGURES=/tmp/fig deno task reproduce
 *   MEMGAUGE_DATA=/work/shared/data deno run -A tests/agents/print_acceptance.ts /tmp/fig
 *
 * - groups of figure6_k_fill.csv (agent x theta_r) whose metrics differ across K and across fill,
 *   and of figure7_memory_size.csv (agent x policy) across |B|;
 * - median MINJA ASR across personas along writing coverage (figure3_writing.csv);
 * - U0: the share of right answers with no memory at all, per dataset;
 * - helpful-trace units the instruction detector flags, per dataset.
 * This is a report about the simulator, not about models; it compares nothing with the paper.
 */
import pl from "nodejs-polars";
import { instructionCues } from "../../lib/agents/mechanisms/instructions.ts";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { HAVE_DATA } from "../data/_built.ts";

const dir = Deno.args[0] ?? "figures";
const METRICS = ["cleanUtility", "poisonedUtility", "asr"];

/** How many groups (by `group`) hold more than one metric triple across the values of `vary`. */
function differing(frame: pl.DataFrame, group: string[], vary: string): string {
  const keyed = new Map<string, Set<string>>();
  for (const row of frame.toRecords()) {
    const key = group.map((c) => String(row[c])).join(" | ");
    const metrics = METRICS.map((m) => Number(row[m]).toFixed(9)).join(",");
    (keyed.get(key) ?? keyed.set(key, new Set()).get(key)!).add(`${row[vary]}=${metrics}`);
  }
  let differ = 0;
  for (const values of keyed.values()) {
    const triples = new Set([...values].map((v) => v.slice(v.indexOf("=") + 1)));
    if (triples.size > 1) differ++;
  }
  return `${differ} of ${keyed.size} groups (${group.join(" x ")}) differ across ${vary}`;
}

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const fig6 = pl.readCSV(await Deno.readTextFile(`${dir}/figure6_k_fill.csv`));
const fig7 = pl.readCSV(await Deno.readTextFile(`${dir}/figure7_memory_size.csv`));
console.log("figure6_k_fill.csv:");
const combos = fig6.withColumns(
  pl.concatString([pl.col("k").cast(pl.Utf8), pl.col("fill")], "/").alias("kFill"),
);
console.log(`  ${differing(combos, ["agent", "thetaR"], "kFill")}`);
for (const fill of ["random", "similarity"]) {
  const sub = fig6.filter(pl.col("fill").eq(pl.lit(fill)));
  console.log(`  fill ${fill}: ${differing(sub, ["agent", "thetaR"], "k")}`);
}
for (const k of [3, 5, 7]) {
  const sub = fig6.filter(pl.col("k").eq(pl.lit(k)));
  console.log(`  K = ${k}: ${differing(sub, ["agent", "thetaR"], "fill")}`);
}
console.log("figure7_memory_size.csv:");
console.log(`  ${differing(fig7, ["agent", "policy"], "bankSize")}`);

const writing = pl.readCSV(await Deno.readTextFile(`${dir}/figure3_writing.csv`))
  .filter(pl.col("attack").eq(pl.lit("minja")));
const byTheta = new Map<number, number[]>();
for (const row of writing.toRecords()) {
  const t = Number(row.thetaW);
  (byTheta.get(t) ?? byTheta.set(t, []).get(t)!).push(Number(row.asr));
}
console.log("median MINJA ASR across personas, by theta_w (figure3_writing.csv):");
console.log(
  "  " + [...byTheta].sort(([a], [b]) => a - b).map(([t, v]) => `${t}: ${median(v).toFixed(3)}`)
    .join("  "),
);
const rise = median(byTheta.get(1)!) - median(byTheta.get(0.2)!);
console.log(`  theta_w = 1 minus theta_w = 0.2: ${rise.toFixed(3)}`);

const sets = HAVE_DATA ? ["demo", "locomo", "longmemeval"] : ["demo"];
for (const name of sets) {
  const loads = name === "demo" ? [1] : [0.75, 1, 1.25];
  const instances = (await Promise.all(
    loads.map((traceLoad) => loadDataset({ name, seed: 0, bankSize: 100, traceLoad })),
  )).flat();
  const units = instances.flatMap((i) => i.helpful.units);
  const flagged = units.filter((u) => instructionCues(u.text).length > 0).length;
  let right = 0, runs = 0;
  for (const agent of resolveAgents({ specs: ["reference"] })) {
    for (const instance of instances.filter((i) => i.helpful.units.length > 0)) {
      const out = await agent.answer({
        instance,
        context: [],
        condition: "nomemory",
        pairId: instance.id,
        seed: 0,
      });
      if ((await deterministicJudge.judge({ instance, output: out.output })).correct) right++;
      runs++;
    }
  }
  console.log(
    `${name} (trace loads ${
      loads.join(", ")
    }): instruction detector flags ${flagged} of ${units.length} helpful units; ` +
      `U0 (no memory, every persona) ${(right / runs).toFixed(4)} (${right}/${runs})`,
  );
}
