/**
 * `deno task reproduce`: the main job. Offline by default: runs the writing, management and
 * retrieval sweeps on the demo set with every reference persona and both attacks, writes the
 * rows under `out/reproduce/` and prints each stage's summary.
 */
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import type { Stage } from "../model/operating_point.ts";
import { formatQuickSummary, quickSummary } from "../run/quick_summary.ts";
import { terminalProgress } from "../run/progress.ts";
import { sweep } from "../run/sweep.ts";
import { runCli } from "./cli_error.ts";

async function main(): Promise<void> {
  const outDir = Deno.env.get("MEMGAUGE_OUT") ?? "out/reproduce";
  await Deno.mkdir(outDir, { recursive: true });
  const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
  const agents = resolveAgents({ specs: ["reference"] });
  console.log(
    `Offline reproduction on the demo set (${instances.length} instances) with the offline reference agent ` +
      `(${agents.length} personas). A simulator: these are not results about real models.`,
  );
  const started = performance.now();
  for (const stage of ["writing", "management", "retrieval"] as Stage[]) {
    const rows = await sweep({
      stage,
      instances,
      dataset: "demo",
      agents,
      seed: 0,
      progress: terminalProgress({ label: stage.padEnd(10) }),
    });
    const path = `${outDir}/${stage}.jsonl`;
    await Deno.writeTextFile(
      `${path}.partial`,
      rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    await Deno.rename(`${path}.partial`, path);
    console.log(`\n${stage} stage (median across personas) -> ${path}`);
    console.log(formatQuickSummary(quickSummary(rows)));
  }
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

if (import.meta.main) await runCli("reproduce", main);
