/** `deno task sweep`: run one stage sweep, write one JSON row per trial, print a summary. */
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import { formatQuickSummary, quickSummary } from "../run/quick_summary.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import { sweep } from "../run/sweep.ts";
import { runCli } from "./cli_error.ts";
import { parseSweepArgs } from "./sweep_args.ts";

/** Run the sweep CLI with the given arguments. */
export async function sweepMain(argv: readonly string[]): Promise<void> {
  const args = parseSweepArgs(argv);
  // Validate everything (agents, dataset, bank size) before the output file exists.
  const agents = resolveAgents({ specs: args.agents });
  let instances = await loadDataset({
    name: args.dataset,
    seed: args.seed,
    bankSize: args.bankSize,
    traceLoad: args.traceLoad,
  });
  if (args.limit !== undefined) instances = instances.slice(0, args.limit);
  const base = {
    k: args.k,
    bankSize: args.bankSize,
    fill: args.fill,
    ranker: args.ranker,
    traceLoad: args.traceLoad,
    ...(args.thetaW !== undefined && { thetaW: args.thetaW }),
    ...(args.policy !== undefined && { policy: args.policy }),
    ...(args.thetaR !== undefined && { thetaR: args.thetaR }),
  };
  const encoder = new TextEncoder();
  const tmp = `${args.out}.partial`;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  let rows;
  try {
    rows = await sweep({
      stage: args.stage,
      grid: args.grid,
      policies: args.policies,
      thetaRRisk: args.thetaRRisk,
      base,
      instances,
      dataset: args.dataset,
      attacks: args.attacks,
      agents,
      seed: args.seed,
      onRows: async (rows) => {
        await file.write(encoder.encode(rows.map((r) => JSON.stringify(r) + "\n").join("")));
      },
      progress: args.quiet ? silentProgress : terminalProgress({ label: `sweep ${args.stage}` }),
    });
  } finally {
    // On a crash the rows written so far stay in the .partial file: nothing is lost.
    file.close();
  }
  await Deno.rename(tmp, args.out);
  if (agents.some((a) => a.simulated)) {
    console.log(
      "Agent: offline reference agent (a simulator for teaching and smoke runs, not a real model).",
    );
  }
  console.log(formatQuickSummary(quickSummary(rows)));
  console.log(`${rows.length} rows -> ${args.out}`);
}

if (import.meta.main) await runCli("sweep", () => sweepMain(Deno.args));
