/**
 * `deno task reproduce`: run the experiment behind every figure and table (offline by default:
 * demo set, offline reference agent) and write figures/*.svg, figures/*.png and figures/*.csv.
 */
import { SIMULATOR_CAVEAT } from "../agents/simulator_caveat.ts";
import type { ExperimentResult } from "../experiments/stage_experiments.ts";
import {
  asymmetricExposureExperiment,
  budgetFillExperiment,
  memorySizeExperiment,
  rankerExperiment,
  stageExperiment,
  traceLoadExperiment,
} from "../experiments/stage_experiments.ts";
import { exportFigure } from "../figures/export_figure.ts";
import { figure3Stages } from "../figures/figure3_stages.ts";
import { midFigure } from "../figures/mid_figure.ts";
import { table1Frame, table2Frame } from "../figures/paper_tables.ts";
import { loadPaperValues } from "../figures/paper_values.ts";
import { stageFigure } from "../figures/stage_figure.ts";
import { topKFigure } from "../figures/top_k_figure.ts";
import { modelSetup } from "../run/model_setup.ts";
import { terminalProgress } from "../run/progress.ts";
import { summarize } from "../stats/summarize.ts";
import { runCli } from "./cli_error.ts";

async function main(): Promise<void> {
  const dir = Deno.env.get("MEMGAUGE_FIGURES") ?? "figures";
  const dataset = Deno.env.get("MEMGAUGE_DATASET") ?? "demo";
  // Same agent resolution as the sweep CLI and the notebooks: MEMGAUGE_AGENTS=llm:MODEL works.
  const models = modelSetup({
    baseUrl: Deno.env.get("MEMGAUGE_BASE_URL"),
    judge: Deno.env.get("MEMGAUGE_JUDGE"),
    cachePath: Deno.env.get("MEMGAUGE_CACHE"),
  });
  const agents = models.agents((Deno.env.get("MEMGAUGE_AGENTS") ?? "reference").split(","));
  const options = {
    dataset,
    agents,
    models,
    seed: 0,
    resamples: 500,
    progress: (label: string) => terminalProgress({ label: label.padEnd(14) }),
  };
  const started = performance.now();
  const paper = await loadPaperValues({});
  const written: string[] = [];
  const write = async (name: string, figure: Element, result?: ExperimentResult) => {
    written.push(...await exportFigure(figure, { dir, name }));
    if (result) {
      const csv = `${dir}/${name}.csv`;
      await Deno.writeTextFile(csv, result.summary.writeCSV().toString());
      written.push(csv);
    }
  };
  console.log(`Reproducing every figure on ${dataset} with ${agents.map((a) => a.id).join(", ")}.`);

  const stages = {
    writing: await stageExperiment({ ...options, stage: "writing" }),
    management: await stageExperiment({ ...options, stage: "management" }),
    retrieval: await stageExperiment({ ...options, stage: "retrieval" }),
  };
  const label = stages.writing.agentLabel;
  await write(
    "figure3_stages",
    figure3Stages({
      summaries: {
        writing: stages.writing.summary,
        management: stages.management.summary,
        retrieval: stages.retrieval.summary,
      },
      agentLabel: label,
      paper: paper.figures,
    }),
  );
  for (const stage of ["writing", "management", "retrieval"] as const) {
    const csv = `${dir}/figure3_${stage}.csv`;
    await Deno.writeTextFile(csv, stages[stage].summary.writeCSV().toString());
    written.push(csv);
  }

  const pooled = (result: ExperimentResult, column: string) =>
    summarize(result.rows as unknown as Record<string, unknown>[], {
      by: ["dataset", "attack", column],
      resamples: 1000,
      seed: 0,
    });
  const mid = {
    writing: pooled(stages.writing, "thetaW"),
    management: pooled(stages.management, "policy"),
    retrieval: pooled(stages.retrieval, "thetaR"),
  };
  await write("mid_intervals", midFigure({ summaries: mid, agentLabel: label }));
  for (const stage of ["writing", "management", "retrieval"] as const) {
    const csv = `${dir}/mid_${stage}.csv`;
    await Deno.writeTextFile(csv, mid[stage].writeCSV().toString());
    written.push(csv);
  }

  const load = await traceLoadExperiment(options);
  await write(
    "figure4_trace_load",
    stageFigure({
      summary: load.summary,
      x: "thetaW",
      xLabel: "writing coverage θw →",
      fx: "traceLoad",
      fxLabel: "trace load (× source units)",
      title: "Figure 4. Writing coverage under different trace loads (MINJA)",
      agentLabel: load.agentLabel,
      note: load.note,
      paper: paper.figures.filter((p) => p.figure === "figure4"),
      width: 420,
    }),
    load,
  );

  const rankers = await rankerExperiment(options);
  await write(
    "figure5_rankers",
    stageFigure({
      summary: rankers.summary,
      x: "thetaW",
      xLabel: "writing coverage θw →",
      fx: "ranker",
      fxLabel: "writing-stage ranker",
      title: "Figure 5. Writing coverage by ranker (MINJA)",
      agentLabel: rankers.agentLabel,
      note: "Offline rankers: usefulness stands in for the paper's self and external LLM rankers.",
      paper: paper.figures.filter((p) => p.figure === "figure5"),
      width: 900,
    }),
    rankers,
  );

  const budget = await budgetFillExperiment(options);
  await write(
    "figure6_k_fill",
    stageFigure({
      summary: budget.summary,
      x: "thetaR",
      xLabel: "retrieval exposure θr →",
      fx: "k",
      fxLabel: "retrieval budget K",
      fy: "fill",
      title: "Figure 6. Retrieval exposure by budget K and fill order (MINJA)",
      agentLabel: budget.agentLabel,
      note: budget.rows.every((r) => r.simulated) ? SIMULATOR_CAVEAT : undefined,
      width: 900,
    }),
    budget,
  );

  const asymmetric = await asymmetricExposureExperiment(options);
  await write(
    "asymmetric_exposure",
    stageFigure({
      summary: asymmetric.summary,
      x: "thetaRRisk",
      xLabel: "risk exposure θr- (θr+ fixed at 0.8) →",
      title: "Asymmetric exposure (MINJA)",
      agentLabel: asymmetric.agentLabel,
      paper: paper.figures.filter((p) => p.figure === "asymmetric"),
      width: 560,
    }),
    asymmetric,
  );

  const sizes = dataset === "demo" ? [25, 50, 100, 128] : [50, 100, 300, 500];
  const memory = await memorySizeExperiment({ ...options, sizes });
  const paper7 = paper.figures.filter((p) => p.figure === "figure7");
  await write(
    "figure7_memory_size",
    stageFigure({
      summary: memory.summary,
      x: "policy",
      xLabel: "management policy",
      categories: ["UM", "PQ", "NC", "SC"],
      fx: "bankSize",
      fxLabel: "memory size |B|",
      title: "Figure 7. Management policy by memory size (MINJA)",
      agentLabel: memory.agentLabel,
      connect: false,
      note: (dataset === "demo"
        ? "Demo banks hold 128 records, so |B| = 25, 50, 100, 128 stand in for the paper's 50-500. "
        : "") + `Paper at |B| = 500: ${
        paper7.map((p) => `${p.x} ASR ${p.lo.toFixed(2)}`).join(", ")
      }. ${memory.note}`,
      width: 900,
    }),
    memory,
  );

  await write("topk_curves", topKFigure({ paper: paper.table2 }));
  for (
    const [name, frame] of [
      ["table1_existing_systems", table1Frame({ paper: paper.table1 })],
      ["table2_retrieval_budget", table2Frame({ paper: paper.table2 })],
    ] as const
  ) {
    const csv = `${dir}/${name}.csv`;
    await Deno.writeTextFile(csv, frame.writeCSV().toString());
    written.push(csv);
  }
  console.log(`\nWrote ${written.length} files under ${dir}/:`);
  for (const path of written) console.log(`  ${path}`);
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  models.close();
}

if (import.meta.main) await runCli("reproduce", main);
