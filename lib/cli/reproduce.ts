/**
 * `deno task reproduce`: run the experiment behind every figure and table (offline by default:
 * demo set, offline reference agent), print each figure's compact summary, and write
 * figures/*.svg, figures/*.png, figures/*.csv and figures/index.html (every figure with its
 * caption and tables, for a browser, offline). The figures come from the same specs the
 * notebooks call (lib/experiments/, drawing with lib/figures/), so both draw the same bytes for the same data.
 * Every file is written to a temporary name and renamed; `manifest.json` is written last, so a
 * directory without it (or with files it does not list) holds an interrupted run.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { DATASETS } from "../data/datasets.ts";
import { loadInstanceFile } from "../data/load_instance_file.ts";
import { FIGURES } from "../experiments/figure_registry.ts";
import type { FigureResult } from "../figures/figure_result.ts";
import { saveFigure } from "../figures/figure_result.ts";
import { reproduceExperiments } from "../experiments/reproduce_experiments.ts";
import { explorePayload, pairSummaries } from "../explore/explore_data.ts";
import { explorerPage } from "../explore/explorer_page.ts";
import { trialLinks } from "../explore/trial_links.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { figureIndex } from "../figures/figure_index.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { redact } from "../models/redact.ts";
import { isSpendCapReached } from "../models/spend_cap.ts";
import { errorSummary, requestFixes } from "../run/error_summary.ts";
import { modelSetup } from "../run/model_setup.ts";
import { parseModelOptions } from "../models/model_options.ts";
import { formatRunPlan } from "../run/plan/format_plan.ts";
import { planRun } from "../run/plan/plan_sweep_run.ts";
import { sweep } from "../run/sweep.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import {
  commandLine,
  defineCommand,
  errorRowsExit,
  execute,
  EXIT,
  opt,
  type Parsed,
  runCommand,
} from "./command.ts";
import { agentSpecs, checkModelIds, MODEL_OPTIONS, rolesOf, SWEEP_OPTIONS } from "./sweep_args.ts";
import { modelSetupOptions } from "./sweep_options.ts";
import { pilotLines } from "./plan_text.ts";
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
    model: opt.list("string", {
      description: "Shorthand for --agent llm:MODEL,... (not with --agent): the paper's agent " +
        "over each model (catalog ids, or any name with --base-url).",
      placeholder: "MODEL,...",
      example: "gpt-5.4,gemini-2.5-flash",
      defaultText: "none",
    }),
    judge: { ...MODEL_OPTIONS.judge, env: "MEMGAUGE_JUDGE" },
    ranker: {
      ...SWEEP_OPTIONS.ranker,
      description: SWEEP_OPTIONS.ranker.description.replace(
        /^Writing-stage ranker/,
        "Writing-stage ranker of every sweep (Figure 5 compares its own rankers)",
      ),
    },
    "base-url": { ...MODEL_OPTIONS["base-url"], env: "MEMGAUGE_BASE_URL" },
    "api-key-env": MODEL_OPTIONS["api-key-env"],
    "model-option": MODEL_OPTIONS["model-option"],
    cache: { ...MODEL_OPTIONS.cache, env: "MEMGAUGE_CACHE" },
    concurrency: MODEL_OPTIONS.concurrency,
    "max-retries": MODEL_OPTIONS["max-retries"],
    "max-cost": MODEL_OPTIONS["max-cost"],
    timeout: MODEL_OPTIONS.timeout,
    "dry-run": opt.flag({
      description: "Send nothing and write nothing: print the plan of every experiment this " +
        "command would run (model requests by phase after identical requests are merged and " +
        "after cache hits, estimated tokens, cost per model live and batch) and what a pilot " +
        "(--limit 2) would cost. Reads no key.",
    }),
    seed: SWEEP_OPTIONS.seed,
    "rebuild-instances": SWEEP_OPTIONS["rebuild-instances"],
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
    "deno task reproduce --dataset locomo --model gpt-5.4,gemini-2.5-flash --dry-run",
  ],
  check(v, { label, given }) {
    if (given("model") && given("agent")) {
      throw new CliError("--model: is shorthand for --agent llm:MODEL,...; give one, not both");
    }
    if (given("api-key-env") && !given("base-url")) {
      throw new CliError(
        "--api-key-env: applies with --base-url only (catalog models read the variable named " +
          "in data/models.json)",
      );
    }
    parseModelOptions({ specs: v.modelOption, baseUrl: v.baseUrl !== undefined });
    // The one rule of every command: a mix of offline and model agents names its judge and
    // ranker (as the sweep asks), before any instance is built.
    rolesOf(v);
    if (!DATASETS.has(v.dataset) && !v.dataset.endsWith(".json")) {
      throw new RangeError(
        `${label("dataset")}: unknown dataset ${JSON.stringify(v.dataset)} (expected one of ${
          DATASETS.ids().join(", ")
        }, or a path ending in .json)`,
      );
    }
    checkModelIds(
      {
        [given("model") ? "model" : "agent"]: agentSpecs(v),
        judge: [_judge(v)],
        ranker: v.ranker === undefined ? [] : [v.ranker],
      },
      v.baseUrl,
    );
    // As the sweep refuses it: an endpoint no model of this run would call.
    if (given("base-url") && ![...agentSpecs(v), _judge(v)].some((id) => id.startsWith("llm:"))) {
      throw new CliError(
        `${label("base-url")}: no model is used (agent ${agentSpecs(v).join(",")}, judge ${
          _judge(v)
        }); add an llm: agent or judge`,
      );
    }
  },
});

/** `--judge`, or the default for the agents (`defaultRoles`, as every command). */
const _judge = (v: Parameters<typeof rolesOf>[0]) => rolesOf(v).judge;

type _Values = Parsed<typeof reproduceCommand.spec.options>["values"];

/** How models are reached: one place for the run and its plan (a plan spends nothing). */
function _setup(v: _Values) {
  return modelSetupOptions({ values: { ...v, maxCost: undefined }, judge: _judge(v) });
}

async function _main(parsed: Parsed<typeof reproduceCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  if (v.dryRun) return await _dryRun(parsed);
  // Same agent resolution as the sweep CLI and the notebooks.
  const models = modelSetup(modelSetupOptions({ values: v, judge: _judge(v) }));
  try {
    return await _reproduce(parsed, models);
  } catch (e) {
    if (!isSpendCapReached(e)) throw e;
    const spend = models.spend!;
    console.error(
      `memgauge reproduce: stopped before the estimated spend crossed --max-cost ${spend.usd} ` +
        `USD (${spend.spentUsd.toFixed(4)} USD spent on ${spend.requests} requests); the ` +
        `answers received are cached and ${v.out}/${MANIFEST} is not written.`,
    );
    console.error(
      `Go on with (cached answers cost nothing; a new --max-cost caps the rest): ${
        redact({ text: commandLine({ name: "reproduce", argv: parsed.argv }) })
      }`,
    );
    return EXIT.stopped;
  } finally {
    models.close();
  }
}

/** `--dry-run`: every experiment planned over stand-in replies; nothing sent, nothing written. */
async function _dryRun(parsed: Parsed<typeof reproduceCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const file = v.dataset.endsWith(".json")
    ? pathProblem({ path: v.dataset, use: "input-file", nonEmpty: true })
    : null;
  if (file) throw new CliError(`${_datasetLabel(parsed, "dataset")}: ${file}`);
  const started = performance.now();
  const agents = agentSpecs(v);
  let rows = 0;
  const planOf = (limit: number | undefined, count: boolean) =>
    planRun({
      setup: _setup(v),
      run: (models) =>
        reproduceExperiments({
          dataset: v.dataset,
          agents: models.agents(agents),
          models,
          base: { ranker: rolesOf(v).ranker },
          seed: v.seed,
          n: limit,
          // A plan needs the requests, not the intervals.
          resamples: 1,
          progress: () => silentProgress,
          status: (message) => console.error(message),
          // Rows of the sweeps, as the run would write them.
          sweep: async (options) => {
            const done = await sweep(options);
            if (count) rows += done.length;
            return done;
          },
          onFigure: () => {},
        }),
    });
  const plan = await planOf(v.limit, true);
  // What a pilot would send: the same experiments on 2 instances (the instances are built).
  const pilot = v.limit !== undefined && v.limit <= 2 ? null : await planOf(2, false);
  const seconds = (performance.now() - started) / 1000;
  console.log(formatRunPlan({
    title: [
      "DRY RUN: nothing was sent and no file was written.",
      `Plan: every experiment of deno task reproduce on ${v.dataset}` +
      `${v.limit !== undefined ? ` (first ${v.limit} instances)` : ""} with ${
        agents.join(", ")
      }, judge ${_judge(v)}: ${rows.toLocaleString("en-US")} rows (planned in ${
        seconds.toFixed(1)
      } s).`,
    ],
    entries: plan.entries,
    costs: plan.costs,
    judgeUpperBound: plan.judgeUpperBound,
    notes: [
      ...pilotLines({
        pilot,
        command: redact({
          text: commandLine({
            name: "reproduce",
            argv: parsed.argv.filter((a, i, all) => a !== "--limit" && all[i - 1] !== "--limit"),
            drop: ["dry-run"],
            add: ["--limit", "2"],
          }),
        }),
      }),
      ...(v.maxCost !== undefined ? _capLine(v.maxCost, plan.costs) : []),
    ],
  }));
  return 0;
}

/** Whether the plan's live cost crosses `--max-cost`. */
function _capLine(cap: number, costs: { liveUsd: number | null }[]): string[] {
  const live = costs.reduce((s, c) => s + (c.liveUsd ?? 0), 0);
  return [
    live > cap
      ? `--max-cost ${cap}: the plan's live cost (${live.toFixed(2)} USD) crosses it; the run ` +
        "stops before it does and prints the command that goes on."
      : `--max-cost ${cap}: the plan's live cost (${live.toFixed(2)} USD) stays under it.`,
  ];
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
  const agents = models.agents(agentSpecs(v));
  const options = {
    dataset,
    agents,
    models,
    base: { ranker: rolesOf(v).ranker },
    seed: v.seed,
    n: v.limit,
    rebuildInstances: v.rebuildInstances,
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

  await reproduceExperiments({
    ...options,
    onFigure: async (result, { csv }) => {
      if (csv) await write(result);
      else {
        await start();
        written.push(...await saveFigure({ dir, result: { ...result, csv: {} } }));
        figures.push(result);
      }
    },
  });
  const explorerStarted = performance.now();
  const explorer = await _writeExplorer({
    dir,
    figures,
    // The whole of Figure 3 and the MID figure draw the stage sweeps of Figure 3's columns.
    stageRows: figures.filter((f) => /^figure3_(writing|management|retrieval)$/.test(f.name)),
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
  const fixes = requestFixes({ rows });
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
    fixes,
    fixCommand: commandLine({
      name: "reproduce",
      argv: parsed.argv,
      drop: ["retry-errors", "allow-errors"],
      add: fixes.flatMap((f) => ["--model-option", f.option]),
    }),
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
    agents: agentSpecs(v),
    judge: _judge(v),
    ranker: rolesOf(v).ranker,
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

/** Run the reproduce CLI with the given arguments; returns the exit code (errors are printed). */
export async function reproduceMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: reproduceCommand, argv, main: _main });
}

if (import.meta.main) await runCommand(reproduceCommand, _main);
