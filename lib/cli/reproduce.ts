/**
 * `deno task reproduce`: run the experiment behind every figure and table (offline by default:
 * demo set, offline reference agent), print each figure's compact summary, and write
 * figures/*.svg, figures/*.png, figures/*.csv and figures/index.html (every figure with its
 * caption and tables, for a browser, offline). The figures come from the same specs the
 * notebooks call (lib/experiments/figures/), so both draw the same bytes for the same data.
 * Every file is written to a temporary name and renamed; `manifest.json` is written last, so a
 * directory without it (or with files it does not list) holds an interrupted run.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { DATASETS } from "../data/datasets.ts";
import { loadInstanceFile } from "../data/load_instance_file.ts";
import { FIGURES } from "../experiments/figures/figures.ts";
import { figure3, figure3Column } from "../experiments/figures/figure3.ts";
import type { FigureResult } from "../experiments/figures/figure_result.ts";
import { saveFigure } from "../experiments/figures/figure_result.ts";
import { midIntervals } from "../experiments/figures/mid_intervals.ts";
import { stageExperiment } from "../experiments/stage_experiments.ts";
import { figureIndex } from "../figures/figure_index.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";
import type { TrialRow } from "../model/trial_row.ts";
import { errorSummary } from "../run/error_summary.ts";
import { modelSetup } from "../run/model_setup.ts";
import { terminalProgress } from "../run/progress.ts";
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
    "it holds an interrupted run. Figures, in order: figure3_stages and its three columns, " +
    `mid_intervals (from the three stage sweeps), then ${FIGURES.ids().join(", ")}. The ` +
    "management column draws every registered policy (a --plugin's too).",
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
  check(v, { label, given }) {
    if (!DATASETS.has(v.dataset) && !v.dataset.endsWith(".json")) {
      throw new RangeError(
        `${label("dataset")}: unknown dataset ${JSON.stringify(v.dataset)} (expected one of ${
          DATASETS.ids().join(", ")
        }, or a path ending in .json)`,
      );
    }
    checkModelIds({ agent: v.agent, judge: [_judge(v)] }, v.baseUrl);
    // As the sweep refuses it: an endpoint no model of this run would call.
    if (given("base-url") && ![...v.agent, _judge(v)].some((id) => id.startsWith("llm:"))) {
      throw new CliError(
        `${label("base-url")}: no model is used (agent ${v.agent.join(",")}, judge ${
          _judge(v)
        }); add an llm: agent or judge`,
      );
    }
  },
});

/** `--judge`, or the default for the agents (`llm:self` for llm: agents, else deterministic). */
function _judge(v: { judge?: string; agent: string[] }): string {
  return v.judge ?? (v.agent.every((a) => a.startsWith("llm:")) ? "llm:self" : "deterministic");
}

async function _main(parsed: Parsed<typeof reproduceCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  // Same agent resolution as the sweep CLI and the notebooks.
  const models = modelSetup({
    baseUrl: v.baseUrl,
    judge: _judge(v),
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
    ? pathProblem({ path: v.dataset, use: "input-file", nonEmpty: true, utf8: true })
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
    progress: (label: string) => terminalProgress({ label: label.padEnd(14) }),
    // Building a benchmark's instances takes seconds per bank size: say what is happening.
    status: (message: string) => console.error(message),
  };
  const started = performance.now();
  const written: string[] = [];
  const rows: TrialRow[] = [];
  const figures: FigureResult[] = [];
  // Before the first file is replaced, the old manifest goes: it would vouch for files this run
  // may not finish rewriting. (A run that fails earlier leaves the directory as it was.)
  let begun = false;
  const start = async () => {
    if (begun) return;
    begun = true;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.remove(`${dir}/${MANIFEST}`).catch(() => {});
  };
  const write = async (result: FigureResult) => {
    await start();
    written.push(...await saveFigure({ dir, result }));
    rows.push(...result.rows);
    figures.push(result);
    console.log(`\n${result.summary.text()}\n  -> ${dir}/${result.name}.svg, .png, .csv`);
  };
  console.log(
    `Reproducing every figure on ${dataset} with ${agents.map((a) => a.id).join(", ")}.`,
  );

  const stages = {
    writing: await stageExperiment({ ...options, stage: "writing" }),
    management: await stageExperiment({ ...options, stage: "management" }),
    retrieval: await stageExperiment({ ...options, stage: "retrieval" }),
  };
  const whole = await figure3({ results: stages });
  await start();
  written.push(...await saveFigure({ dir, result: { ...whole, csv: {} } }));
  figures.push(whole);
  for (const stage of ["writing", "management", "retrieval"] as const) {
    await write(await figure3Column({ stage, result: stages[stage] }));
  }
  const mid = await midIntervals({ results: stages, seed: v.seed });
  await write({ ...mid, rows: [] });
  for (const entry of FIGURES.entries()) await write(await entry.value(options));
  const index = `${dir}/index.html`;
  await writeFileAtomic({
    path: index,
    data: figureIndex({
      title: `memgauge: every figure (${dataset}, ${agents.map((a) => a.id).join(", ")})`,
      figures: figures.map((f) => ({
        name: f.name,
        title: f.figure.title,
        caption: f.figure.caption,
        tables: [f.summary.html(), ...(f.besidePaper ? [f.besidePaper.html()] : [])],
      })),
    }),
  });
  written.push(index);
  const errors = errorSummary({ rows });
  await _writeManifest({ dir, written, parsed, errors });
  console.log(
    `\nWrote ${written.length} files and ${MANIFEST} under ${dir}/; open ${index} for every figure with its caption and tables.`,
  );
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
    judge: _judge(v),
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
