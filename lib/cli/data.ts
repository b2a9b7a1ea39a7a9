/** `deno task data`: fetch the benchmark files, or with `--stats` summarize the built instances. */
import { z } from "zod";
import { buildLocomo } from "../data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../data/longmemeval/build_longmemeval.ts";
import { DATA_FILES } from "../data/data_files.ts";
import { dataDir as defaultDataDir } from "../data/data_dir.ts";
import { datasetStats } from "../data/dataset_stats.ts";
import { ensureDataFile } from "../data/download.ts";
import { formatRankerAudit, rankerAudit } from "../data/ranker_audit.ts";
import { pathProblem } from "../io/path_problem.ts";
import { OperatingPoint } from "../schema/operating_point.ts";
import { modelSetup } from "../run/model_setup.ts";
import { RANKERS } from "../stages/writing/rankers.ts";
import { CliError, defineCommand, execute, EXIT, opt, type Parsed, runCommand } from "./command.ts";
import { checkModelIds, MODEL_OPTIONS } from "./sweep_args.ts";

const _BUILDERS = { locomo: buildLocomo, longmemeval: buildLongMemEval };

const _STATS_ONLY = ["dataset", "seed", "bank-size", "trace-load"] as const;

const _AuditRanker = z.string().refine(
  (id) => RANKERS.has(id) || (/^llm:.+/.test(id) && id !== "llm:self"),
  {
    error: () =>
      `expected ${RANKERS.ids().join("|")}|llm:MODEL (llm:self is an agent's own ` +
      "model and the audit has no agent)",
  },
);

/** `deno task data`. */
export const dataCommand = defineCommand({
  name: "data",
  summary: "download the benchmark files (LoCoMo, LongMemEval), or with --stats build the " +
    "instances and print counts and bank composition per dataset",
  description: "Without --stats: download every missing required file into the data directory " +
    "and check its SHA-256. With --stats (seed 0, as sweeps) and --ranker: also audit where the " +
    "ranker puts the first unit stating y* and y_adv (an LLM ranker answers from the response " +
    "cache --cache, else asks --base-url). Licenses: LoCoMo CC BY-NC 4.0 (non-commercial); " +
    "LongMemEval MIT.",
  options: {
    stats: opt.flag({
      description: "Build the instances and print counts instead of downloading.",
    }),
    dataset: opt.repeated({
      description: "With --stats: a dataset to build.",
      placeholder: Object.keys(_BUILDERS).join("|"),
      example: "locomo",
      defaultText: Object.keys(_BUILDERS).join(","),
      schema: z.enum(Object.keys(_BUILDERS) as [string, ...string[]], {
        error: `expected one of ${Object.keys(_BUILDERS).join("|")}`,
      }),
    }),
    seed: opt.integer({
      description: "With --stats: builder seed (0, as sweeps).",
      example: "2",
      default: 0,
      schema: z.number().int().min(0),
    }),
    "bank-size": opt.integer({
      description: "With --stats: background records per instance, in [50, 500].",
      example: "300",
      default: 100,
      schema: OperatingPoint.shape.bankSize.min(50).max(500),
      field: "OperatingPoint.bankSize",
    }),
    "trace-load": opt.number({
      description: "With --stats: trace load (x source units).",
      example: "1.25",
      default: 1,
      schema: OperatingPoint.shape.traceLoad,
      field: "OperatingPoint.traceLoad",
    }),
    "data-dir": opt.string({
      description: "Data directory (created when downloading).",
      placeholder: "DIR",
      example: "/data/memgauge",
      defaultText: "$MEMGAUGE_DATA, else data/raw/",
    }),
    "with-s": opt.flag({
      description: "Without --stats: also download the optional longmemeval_s.json (264 MB; " +
        "background distractors).",
    }),
    ranker: opt.string({
      description: "With --stats: audit this writing-stage ranker (implies --stats).",
      placeholder: `${RANKERS.ids().join("|")}|llm:MODEL`,
      example: "random",
      defaultText: "none (no audit)",
      schema: _AuditRanker,
    }),
    "base-url": {
      ...MODEL_OPTIONS["base-url"],
      description: "With an llm: --ranker: " + MODEL_OPTIONS["base-url"].description,
    },
    cache: MODEL_OPTIONS.cache,
  },
  examples: [
    "deno task data",
    "deno task data --stats --dataset locomo --bank-size 300",
    "deno task data --stats --dataset locomo --ranker llm:gpt-5.4-mini",
  ],
  check(v, { given }) {
    const building = v.stats || v.ranker !== undefined;
    for (const name of _STATS_ONLY) {
      if (!building && given(name)) throw new CliError(`--${name}: applies only with --stats`);
    }
    if (building && v.withS) throw new CliError("--with-s: applies only without --stats");
    const llm = v.ranker?.startsWith("llm:") ?? false;
    for (const name of ["base-url", "cache"] as const) {
      if (!llm && given(name)) throw new CliError(`--${name}: applies only with an llm: --ranker`);
    }
    checkModelIds({ ranker: v.ranker === undefined ? [] : [v.ranker] }, v.baseUrl);
  },
});

async function _main(parsed: Parsed<typeof dataCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const dir = v.dataDir ?? defaultDataDir();
  const problem = pathProblem({ path: dir, use: v.stats ? "input-dir" : "output-dir" });
  // A missing directory under --stats is a missing data file: its error says how to get it.
  if (problem && !(v.stats && /does not exist/.test(problem))) {
    throw new CliError(`--data-dir: ${problem}`);
  }
  if (!v.stats && v.ranker === undefined) {
    let failed = 0;
    for (const file of Object.values(DATA_FILES)) {
      // The S split is 264 MB and only adds background distractors: fetch it on request.
      if (!file.required && !v.withS) continue;
      const result = await ensureDataFile({ file, dataDir: dir });
      const label = file.required ? "" : " (optional)";
      console.log(
        `${result.status.padEnd(10)} ${result.path}${label}: ${result.message}` +
          (result.sha256 ? `\n           sha256 ${result.sha256}` : ""),
      );
      if (result.status === "failed" && file.required) failed++;
    }
    console.log("Licenses: LoCoMo CC BY-NC 4.0 (non-commercial); LongMemEval MIT.");
    return failed === 0 ? EXIT.ok : EXIT.failed;
  }
  const { seed, bankSize, traceLoad } = v;
  const names = v.dataset.length > 0 ? v.dataset : Object.keys(_BUILDERS);
  const audit = v.ranker === undefined ? undefined : _auditRanker(v.ranker, v.baseUrl, v.cache);
  try {
    for (const name of names) await _stats({ name, seed, bankSize, traceLoad, dir, audit });
  } finally {
    audit?.close();
  }
  return EXIT.ok;
}

async function _stats(options: {
  name: string;
  seed: number;
  bankSize: number;
  traceLoad: number;
  dir: string;
  audit?: ReturnType<typeof _auditRanker>;
}): Promise<void> {
  const { name, seed, bankSize, traceLoad, dir, audit } = options;
  const start = performance.now();
  const built = await _BUILDERS[name as keyof typeof _BUILDERS]({
    seed,
    bankSize,
    traceLoad,
    dataDir: dir,
  });
  const ms = Math.round(performance.now() - start);
  const s = datasetStats({ built });
  const units = (u: { min: number; mean: number; max: number }) =>
    `${u.min}-${u.max} (mean ${u.mean})`;
  console.log(
    `== ${name} (seed ${seed}, bank ${bankSize}, trace load ${traceLoad}; built in ${ms} ms)`,
  );
  console.log(`instances:        ${s.instances}`);
  console.log(`question types:   ${_mix(s.categories, s.quotas)}`);
  console.log(`answer kinds:     ${_mix(s.answerKinds, s.answerKindQuotas)}`);
  console.log(`answer shares:    ${JSON.stringify(s.answerKindShares)}`);
  console.log(`evidence support: ${JSON.stringify(s.support)}`);
  console.log(
    `y* in tau+:       stated only by kit-written units in ${s.yStarOnlyKitWritten}; ` +
      `stated by no unit (the agent works it out) in ${s.yStarNotStated}; ` +
      `confirmed by the user (SC's verified outcome) in ${s.confirmed}`,
  );
  console.log(
    `query verbatim:   in ${s.riskRepeatingQuery.minja ?? 0} MINJA and ` +
      `${s.riskRepeatingQuery.sleeper ?? 0} Sleeper traces`,
  );
  console.log(`target kinds:     ${JSON.stringify(s.targetKinds)}`);
  console.log(`units helpful:    ${units(s.unitsHelpful)}`);
  console.log(`units MINJA:      ${units(s.unitsMinja)}`);
  console.log(
    `units Sleeper:    ${units(s.unitsSleeper)}  styles ${JSON.stringify(s.sleeperStyles)}`,
  );
  console.log(`bank size:        ${units(s.bankSize)}`);
  const b = s.bank;
  console.log(
    `bank records:     ${b.records}; channels user ${b.channels.user}, assistant ${b.channels.assistant}, ` +
      `tool ${b.channels.tool}; trusted ${b.trusted}, verified ${b.verified}, stating numbers ${b.statingNumbers}`,
  );
  const skips = Object.entries(s.skipped).sort((a, b) => b[1] - a[1]);
  console.log(`skipped (sample): ${skips.reduce((n, [, c]) => n + c, 0)} questions`);
  for (const [reason, count] of skips) console.log(`  ${String(count).padStart(4)}  ${reason}`);
  if (audit !== undefined) {
    const rows = await rankerAudit({ instances: built.instances, ranker: audit.ranker, seed });
    console.log(formatRankerAudit({ ranker: audit.ranker.id, rows }));
  }
}

/** "type built/quota" per stratum, in the build's order. */
function _mix(built: Record<string, number>, quotas: Record<string, number>): string {
  const names = [...new Set([...Object.keys(quotas), ...Object.keys(built)])];
  return names.map((n) => `${n} ${built[n] ?? 0}/${quotas[n] ?? "-"}`).join(", ") +
    " (built/quota in the benchmark's own mix)";
}

/** The ranker `--ranker` names: an offline one, or `llm:MODEL` over the response cache. */
function _auditRanker(id: string, baseUrl: string | undefined, cache: string) {
  const offline = RANKERS.get(id);
  if (offline) return { ranker: offline, close: () => {} };
  const models = modelSetup({ cachePath: cache, baseUrl });
  return { ranker: models.rankerFactory(id, undefined)!, close: () => models.close() };
}

/** Run the data CLI with the given arguments; returns the exit code (errors are printed). */
export async function dataMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: dataCommand, argv, main: _main });
}

if (import.meta.main) await runCommand(dataCommand, _main);
