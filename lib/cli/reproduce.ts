/**
 * `deno task reproduce`: run the experiment behind every figure and table (offline by default:
 * demo set, offline reference agent) and write figures/*.svg, figures/*.png and figures/*.csv.
 * Every file is written to a temporary name and renamed; `manifest.json` is written last, so a
 * directory without it (or with files it does not list) holds an interrupted run.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { SIMULATOR_CAVEAT } from "../agents/simulator_caveat.ts";
import { DATASETS } from "../data/datasets.ts";
import { loadInstanceFile } from "../data/load_instance_file.ts";
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
import { writeFileAtomic } from "../io/atomic_write.ts";
import type { TrialRow } from "../model/trial_row.ts";
import { errorSummary } from "../run/error_summary.ts";
import { modelSetup } from "../run/model_setup.ts";
import { terminalProgress } from "../run/progress.ts";
import { summarize } from "../stats/summarize.ts";
import {
  commandLine,
  defineCommand,
  errorRowsExit,
  opt,
  type Parsed,
  runCommand,
} from "./command.ts";
import { checkModelIds, MODEL_OPTIONS, SWEEP_OPTIONS } from "./sweep_args.ts";
import { pathProblem } from "../io/path_problem.ts";
import { CliError } from "./command.ts";

// Failed calls are never cached: a rerun asks exactly them again and reuses every answer.
const _RETRY_LABEL = "Retry the failed calls (cached answers are reused)";

/** The manifest's name inside the output directory. */
export const MANIFEST = "manifest.json";

/** `deno task reproduce`. */
export const reproduceCommand = defineCommand({
  name: "reproduce",
  summary: "run the experiment behind every figure and table and write them as SVG, PNG and CSV",
  description: "Offline by default (demo set, offline reference agent: a simulator, labelled as " +
    "such in every caption). Each option can also be set through its environment variable. " +
    `${MANIFEST} is written last and lists every file with its SHA-256: a directory without ` +
    "it holds an interrupted run.",
  options: {
    out: opt.string({
      description: "Output directory (created when its parent exists).",
      example: "my-figures",
      default: "figures",
      env: "MEMGAUGE_FIGURES",
      path: { use: "output-dir" },
    }),
    dataset: { ...SWEEP_OPTIONS.dataset, env: "MEMGAUGE_DATASET" },
    agent: { ...SWEEP_OPTIONS.agent, env: "MEMGAUGE_AGENTS" },
    judge: { ...MODEL_OPTIONS.judge, env: "MEMGAUGE_JUDGE" },
    "base-url": { ...MODEL_OPTIONS["base-url"], env: "MEMGAUGE_BASE_URL" },
    cache: { ...MODEL_OPTIONS.cache, env: "MEMGAUGE_CACHE" },
    concurrency: MODEL_OPTIONS.concurrency,
    "max-retries": MODEL_OPTIONS["max-retries"],
    timeout: MODEL_OPTIONS.timeout,
    seed: SWEEP_OPTIONS.seed,
    limit: {
      ...SWEEP_OPTIONS.limit,
      description: "Use only the first N instances of each experiment (a quick look; the " +
        "figures then say less).",
    },
    "retry-errors": opt.flag({
      description: "Rerun after a run that ended with error rows: answers already in the " +
        "response cache are reused, so only the calls that failed are sent again (failed " +
        "calls are never cached; a plain rerun does the same).",
    }),
    "allow-errors": opt.flag({
      description: "Exit 0 even when experiments end with error rows (default: exit 3).",
    }),
  },
  examples: [
    "deno task reproduce",
    "deno task reproduce --agent llm:gpt-5.4-mini --judge llm:gpt-5.4-mini --out figures-gpt",
  ],
  check(v, { label }) {
    if (!(v.dataset in DATASETS) && !v.dataset.endsWith(".json")) {
      throw new RangeError(
        `${label("dataset")}: unknown dataset ${JSON.stringify(v.dataset)} (expected one of ${
          Object.keys(DATASETS).join(", ")
        }, or a path ending in .json)`,
      );
    }
    checkModelIds({ agent: v.agent, judge: [v.judge] }, v.baseUrl);
  },
});

async function _main(parsed: Parsed<typeof reproduceCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  // Same agent resolution as the sweep CLI and the notebooks.
  const models = modelSetup({
    baseUrl: v.baseUrl,
    judge: v.judge,
    cachePath: v.cache,
    concurrency: v.concurrency,
    maxRetries: v.maxRetries,
    timeoutMs: v.timeout,
  });
  try {
    return await _reproduce(parsed, models);
  } finally {
    models.close();
  }
}

async function _reproduce(
  parsed: Parsed<typeof reproduceCommand.spec.options>,
  models: ReturnType<typeof modelSetup>,
): Promise<number> {
  const v = parsed.values;
  const dir = v.out;
  const dataset = v.dataset;
  const file = v.dataset.endsWith(".json")
    ? pathProblem({ path: v.dataset, use: "input-file", nonEmpty: true })
    : null;
  if (file) throw new CliError(`${_datasetLabel(parsed, "dataset")}: ${file}`);
  // A malformed instance file fails here, before anything is printed or written.
  if (v.dataset.endsWith(".json")) await loadInstanceFile(v.dataset);
  const agents = models.agents(v.agent);
  const options = {
    dataset,
    agents,
    models,
    seed: v.seed,
    n: v.limit,
    resamples: 500,
    progress: (label: string) => terminalProgress({ label: label.padEnd(14) }),
  };
  const started = performance.now();
  const paper = await loadPaperValues({});
  const written: string[] = [];
  const rows: TrialRow[] = [];
  // Before the first file is replaced, the old manifest goes: it would vouch for files this run
  // may not finish rewriting. (A run that fails earlier leaves the directory as it was.)
  let begun = false;
  const start = async () => {
    if (begun) return;
    begun = true;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.remove(`${dir}/${MANIFEST}`).catch(() => {});
  };
  const writeCsv = async (path: string, text: string) => {
    await start();
    await writeFileAtomic({ path, data: text });
    written.push(path);
  };
  const write = async (name: string, figure: Element, result?: ExperimentResult) => {
    await start();
    written.push(...await exportFigure(figure, { dir, name }));
    if (result) {
      rows.push(...result.rows);
      await writeCsv(`${dir}/${name}.csv`, result.summary.writeCSV().toString());
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
    rows.push(...stages[stage].rows);
    await writeCsv(`${dir}/figure3_${stage}.csv`, stages[stage].summary.writeCSV().toString());
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
    await writeCsv(`${dir}/mid_${stage}.csv`, mid[stage].writeCSV().toString());
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
    await writeCsv(`${dir}/${name}.csv`, frame.writeCSV().toString());
  }
  const errors = errorSummary({ rows });
  await _writeManifest({ dir, written, parsed, errors });
  console.log(`\nWrote ${written.length} files and ${MANIFEST} under ${dir}/:`);
  for (const path of written) console.log(`  ${path}`);
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return errorRowsExit({
    name: "reproduce",
    summary: errors,
    retry: commandLine({
      name: "reproduce",
      argv: parsed.argv,
      drop: ["retry-errors", "allow-errors"],
      add: ["--retry-errors"],
    }),
    retryLabel: _RETRY_LABEL,
    allowErrors: parsed.values.allowErrors,
  });
}

/** `--NAME`, or `$VAR (--NAME)` when its variable set it. */
function _datasetLabel(
  parsed: Parsed<typeof reproduceCommand.spec.options>,
  name: "dataset",
): string {
  return parsed.source(name) === "env" ? `$MEMGAUGE_DATASET (--${name})` : `--${name}`;
}

/** The last file of a run: what it wrote, with hashes, and what it ran on. */
async function _writeManifest(options: {
  dir: string;
  written: string[];
  parsed: Parsed<typeof reproduceCommand.spec.options>;
  errors: ReturnType<typeof errorSummary>;
}): Promise<void> {
  const { dir, parsed, errors } = options;
  const files = [];
  for (const path of options.written) {
    const bytes = await Deno.readFile(path);
    files.push({
      file: basename(path),
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  }
  const v = parsed.values;
  const manifest = {
    complete: true,
    command: commandLine({ name: "reproduce", argv: parsed.argv }),
    dataset: v.dataset,
    agents: v.agent,
    judge: v.judge,
    seed: v.seed,
    limit: v.limit ?? null,
    rows: errors.rows,
    errorRows: errors.errors,
    errorKinds: Object.fromEntries(errors.kinds),
    files,
  };
  await writeFileAtomic({
    path: `${dir}/${MANIFEST}`,
    data: JSON.stringify(manifest, null, 2) + "\n",
  });
}

if (import.meta.main) await runCommand(reproduceCommand, _main);
