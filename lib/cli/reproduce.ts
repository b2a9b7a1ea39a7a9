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
import { explorePayload, pairSummaries } from "../explore/explore_data.ts";
import { explorerPage } from "../explore/explorer_page.ts";
import { trialLinks } from "../explore/trial_links.ts";
import { figureIndex } from "../figures/figure_index.ts";
import type { PairTrajectory } from "../model/pair_trajectory.ts";
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
    "management column draws every registered policy (a --plugin's too). explorer.html beside " +
    "index.html holds every pair behind the figures (deno task explore's page); index.html " +
    "links each figure's operating points to them.",
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
    // Every pair trial's trajectory, for the explorer written beside index.html.
    onTrajectory: (t: PairTrajectory) => void trajectories.push(t),
  };
  const trajectories: PairTrajectory[] = [];
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
  const explorerStarted = performance.now();
  const explorer = await _writeExplorer({
    dir,
    figures,
    stageRows: Object.values(stages),
    trajectories,
    dataset,
    agents: agents.map((a) => a.id),
  });
  written.push(`${dir}/${_EXPLORER}`);
  console.log(
    `\n${explorer.pairs} pairs with their trajectories -> ${dir}/${_EXPLORER} (${
      ((performance.now() - explorerStarted) / 1000).toFixed(1)
    } s)`,
  );
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
        trials: explorer.links.get(f.name),
      })),
      explorer: _EXPLORER,
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

/** The trial explorer's file name beside index.html. */
const _EXPLORER = "explorer.html";

/**
 * Write the trial explorer beside index.html: every pair of every figure's experiment, tagged
 * with the figures that use it (Figure 3, its columns and the MID figure share the stage
 * sweeps), and each figure's links to its operating points.
 */
async function _writeExplorer(options: {
  dir: string;
  figures: readonly FigureResult[];
  stageRows: readonly { rows: TrialRow[] }[];
  trajectories: readonly PairTrajectory[];
  dataset: string;
  agents: readonly string[];
}): Promise<{ links: Map<string, string>; pairs: number }> {
  const { figures, trajectories } = options;
  const rowsOf = (f: FigureResult) =>
    f.rows.length > 0 || !/^(figure3_stages|mid_intervals)$/.test(f.name)
      ? f.rows
      : options.stageRows.flatMap((s) => s.rows);
  const tags = new Map<string, string[]>();
  const all: TrialRow[] = [];
  const seen = new Set<string>();
  for (const f of figures) {
    for (const row of rowsOf(f)) {
      const key = _key(row);
      const list = tags.get(key) ?? [];
      if (!list.includes(f.name)) list.push(f.name);
      tags.set(key, list);
      // A pair several figures share is listed once (its rows are the same run's).
      const id = `${key}/${row.condition}/${row.counterfactualOf ?? ""}/${
        row.ablatedRecordId ?? ""
      }`;
      if (!seen.has(id)) {
        seen.add(id);
        all.push(row);
      }
    }
  }
  const pairs = pairSummaries({ rows: all, trajectories });
  const payload = explorePayload({
    pairs,
    title: `memgauge: every trial behind the figures (${options.dataset}, ${
      options.agents.join(", ")
    })`,
    source: "deno task reproduce",
    figures: tags,
  });
  await writeFileAtomic({
    path: `${options.dir}/${_EXPLORER}`,
    data: await explorerPage({ payload }),
  });
  const byKey = new Map(pairs.map((p) => [p.key, p]));
  const links = new Map<string, string>();
  for (const f of figures) {
    const keys = [...new Set(rowsOf(f).map(_key))];
    const mine = keys.map((k) => byKey.get(k)!).filter(Boolean);
    const flipped = mine.filter((p) =>
      (p.trajectory?.ablations ?? p.ablations).some((a) => a.flipped)
    ).length;
    links.set(f.name, trialLinks({ page: _EXPLORER, figure: f.name, pairs: mine, flipped }));
  }
  return { links, pairs: pairs.length };
}

const _key = (row: { pairId: string; trial?: number }) => `${row.pairId}#${row.trial ?? 0}`;

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
