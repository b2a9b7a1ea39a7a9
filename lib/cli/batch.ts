/**
 * `deno task batch export|import`: run a sweep's model requests through the OpenAI Batch API.
 * Export writes the requests the response cache cannot answer; import caches the results.
 */
import { exportedBatchIds, recordBatchExport } from "../run/batch/batch_plan_store.ts";
import { parseBatchOutput } from "../run/batch/batch_output_line.ts";
import { importBatchResults } from "../run/batch/import_batch_results.ts";
import { writeBatchRequests } from "../run/batch/write_batch_requests.ts";
import { formatRunPlan } from "../run/plan/format_plan.ts";
import { planSweepRun } from "../run/plan/plan_sweep_run.ts";
import { sweepShape } from "../run/plan/sweep_shape.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import { PHASES } from "../run/run_phase.ts";
import { ResponseCache } from "../models/response_cache.ts";
import { redact } from "../models/redact.ts";
import {
  CliError,
  type CommandGroup,
  defineCommand,
  executeGroup,
  opt,
  type Parsed,
  runGroup,
} from "./command.ts";
import {
  checkSweepPlan,
  MODEL_OPTIONS,
  rolesOf,
  SWEEP_OPTIONS,
  sweepCommand,
} from "./sweep_args.ts";
import { modelSetupOptions, sweepOptionsFrom } from "./sweep_options.ts";
import { sweepMain } from "./sweep.ts";

// Provider messages and echoed command lines pass the redaction layer before they are printed.
const _safe = (text: string) => redact({ text, secrets: [] });

/** `deno task batch export`. */
export const exportCommand = defineCommand({
  name: "batch export",
  summary: "write the model requests of a sweep that the response cache cannot answer, as " +
    "Batch API input lines",
  description: "Takes exactly the options of deno task sweep (same plan, same run id); sends " +
    "nothing and reads no API key. It prints the sweep's plan (requests by phase, tokens, " +
    "cost live and batch) and writes the requests that can be sent now. They come in three " +
    "rounds, each needing the answers of the one before: ranking and writing (every unit is " +
    "written whatever its rank), then the agent, then the judge (and a fourth for " +
    "counterfactual agent calls). Run export, submit, import, and export again until it says " +
    "the sweep is complete.",
  options: {
    ...SWEEP_OPTIONS,
    "batch-out": opt.string({
      description: "Batch API input file (JSONL); with several models one file per model " +
        "beside it (FILE.MODEL.jsonl). Written to a temporary name and renamed.",
      example: "requests.jsonl",
      required: true,
      path: { use: "output-file" },
    }),
    out: opt.string({
      description: "Accepted and ignored, so a sweep command line can be reused as it is.",
      example: "rows.jsonl",
      defaultText: "none",
    }),
    quiet: opt.flag({ description: "No progress bar while the sweep is planned." }),
  },
  examples: [
    "deno task batch export --stage writing --model gpt-5.4 --batch-out requests.jsonl",
  ],
  check: (v, { given }) => checkSweepPlan(v, given),
});

async function _export(parsed: Parsed<typeof exportCommand.spec.options>): Promise<void> {
  const v = parsed.values;
  // One pass plans the whole sweep on stand-in replies; the earliest round with requests to
  // send was built from cached answers only, so its requests are exactly the run's.
  const plan = await planSweepRun({
    setup: modelSetupOptions({ values: v, judge: rolesOf(v).judge }),
    build: async (models) => ({
      ...await sweepOptionsFrom({ parsed, models }),
      progress: v.quiet ? silentProgress : terminalProgress({ label: "planning" }),
    }),
    writeAhead: true,
    keepBodies: true,
  });
  console.log(formatRunPlan({
    title: [
      "BATCH EXPORT: nothing is sent; the requests of the next round are written.",
      `Plan: ${sweepShape({ stage: v.stage, rows: plan.rows })}`,
    ],
    entries: plan.entries,
    costs: plan.costs,
  }));
  const requests = plan.requests;
  if (plan.round === null || requests.length === 0) {
    console.log(
      "\nNothing to export: every model request of this sweep is in the cache. Run `deno task " +
        "sweep` with the same options to write the rows (it makes no requests).",
    );
    return;
  }
  const counts = PHASES.map((p) => [p, requests.filter((r) => r.phase === p).length] as const)
    .filter(([, n]) => n > 0);
  const files = await writeBatchRequests({ path: v.batchOut, requests });
  recordBatchExport({ cachePath: v.cache, round: plan.round, requests });
  const index = plan.rounds.indexOf(plan.round) + 1;
  console.log(
    `\nRound ${index} of ${plan.rounds.length}: ${requests.length} requests (${
      counts.map(([p, n]) => `${p} ${n}`).join(", ")
    }).`,
  );
  for (const f of files) console.log(`${f.count} requests for ${f.model} -> ${f.path}`);
  console.log(
    "Next: submit each file to the Batch API (endpoint /v1/chat/completions), download its " +
      "output, run `deno task batch import --batch-in OUTPUT" +
      (v.cache === ".memgauge/cache.sqlite" ? "" : ` --cache ${v.cache}`) +
      "`, then run this export again: it writes the next round, or says the sweep is complete.",
  );
}

/** `deno task batch import`. */
export const importCommand = defineCommand({
  name: "batch import",
  summary: "store the successful completions of Batch API output files in the response cache",
  description: "Every file is read and validated before the cache is touched: a malformed line " +
    "stops with its line number and field, and nothing is cached. A line with an error or a " +
    "non-200 status is reported and skipped; the next export asks for it again.",
  options: {
    "batch-in": opt.repeated({
      description: "A Batch API output file (JSONL).",
      example: "output.jsonl",
      required: true,
      path: { use: "input-file", nonEmpty: true, utf8: true },
    }),
    cache: { ...MODEL_OPTIONS.cache, path: { use: "database" } },
  },
  rest: {
    name: "then-sweep",
    placeholder: "SWEEP-OPTIONS...",
    description: "Then run deno task sweep with every argument after it (its --cache, or this " +
      "--cache, is the one imported into).",
    example: "--stage writing --model gpt-5.4 --out rows.jsonl",
  },
  examples: [
    "deno task batch import --batch-in output.jsonl",
    "deno task batch import --batch-in output.jsonl --then-sweep --stage writing --model gpt-5.4 " +
    "--out rows.jsonl",
  ],
});

async function _import(parsed: Parsed<typeof importCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  let sweepArgv = parsed.rest;
  let cachePath = v.cache;
  if (sweepArgv) {
    // The sweep's options are checked, paths included, before anything is imported.
    const sweepParsed = sweepCommand.parse({ argv: sweepArgv });
    if (sweepParsed === "help") {
      console.log(sweepCommand.help());
      return 0;
    }
    if (
      sweepParsed.given("cache") && parsed.given("cache") && sweepParsed.values.cache !== v.cache
    ) {
      throw new CliError(
        `--cache: ${JSON.stringify(v.cache)} before --then-sweep and ${
          JSON.stringify(sweepParsed.values.cache)
        } after it; the sweep must read the cache that is imported into`,
      );
    }
    if (!sweepParsed.given("cache")) sweepArgv = [...sweepArgv, "--cache", v.cache];
    cachePath = sweepParsed.given("cache") ? sweepParsed.values.cache : v.cache;
    sweepCommand.checkPaths(sweepParsed);
  }
  // Read and validate every file before the cache is touched.
  const texts = await Promise.all(v.batchIn.map((path) => Deno.readTextFile(path)));
  for (const [i, text] of texts.entries()) {
    let lines;
    try {
      lines = parseBatchOutput({ text });
    } catch (e) {
      throw new CliError(`--batch-in ${v.batchIn[i]}: ${(e as Error).message}`);
    }
    if (lines.length === 0) {
      throw new CliError(`--batch-in ${v.batchIn[i]}: holds no batch output lines`);
    }
  }
  const planned = exportedBatchIds({ cachePath });
  const cache = new ResponseCache({ path: cachePath });
  try {
    for (const [i, text] of texts.entries()) {
      const result = importBatchResults({ text, cache });
      console.log(`${v.batchIn[i]}: ${result.stored} responses cached in ${cachePath}.`);
      _reportSkipped(result.skipped);
      if (planned) _reportUnplanned(v.batchIn[i], parseBatchOutput({ text }), planned, cachePath);
    }
  } finally {
    cache.close();
  }
  return sweepArgv ? await sweepMain(sweepArgv) : 0;
}

/** Every failed line with its provider's message (redacted); past 50, the rest by reason. */
function _reportSkipped(skipped: readonly { line: number; customId: string; reason: string }[]) {
  if (skipped.length === 0) return;
  const shown = skipped.length > 50 ? skipped.slice(0, 20) : skipped;
  for (const s of shown) {
    console.log(_safe(`  skipped line ${s.line} (${s.customId.slice(0, 12)}): ${s.reason}`));
  }
  if (shown.length < skipped.length) {
    const byReason = new Map<string, number>();
    for (const s of skipped.slice(shown.length)) {
      byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
    }
    console.log(_safe(
      `  and ${skipped.length - shown.length} more: ${
        [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} (${n})`).join("; ")
      }`,
    ));
  }
  console.log(
    `  ${skipped.length} failed requests skipped (not cached); the next export writes them ` +
      "again.",
  );
}

/** Warn about output lines whose custom_id no export with this cache wrote. */
function _reportUnplanned(
  file: string,
  lines: readonly { customId: string }[],
  planned: ReadonlySet<string>,
  cachePath: string,
) {
  const unknown = [...new Set(lines.map((l) => l.customId).filter((id) => !planned.has(id)))];
  if (unknown.length === 0) return;
  console.log(
    `  warning: ${unknown.length} custom_ids of ${file} are in no export made with ${cachePath} ` +
      `(first: ${unknown[0].slice(0, 12)}): their answers are cached but no planned request ` +
      "asks for them; was the batch exported with another --cache or other options?",
  );
}

/** The `deno task batch` group. */
export const batchGroup: CommandGroup = {
  name: "batch",
  summary: "run a sweep's model requests through the OpenAI Batch API",
  commands: {
    export: { command: exportCommand as never, main: _export as never },
    import: { command: importCommand as never, main: _import as never },
  },
};

/** Run the batch CLI with the given arguments; returns the exit code (errors are printed). */
export async function batchMain(argv: readonly string[]): Promise<number> {
  return await executeGroup(batchGroup, argv);
}

if (import.meta.main) await runGroup(batchGroup);
