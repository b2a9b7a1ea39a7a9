/**
 * `deno task batch export|import`: run a sweep's model requests through the OpenAI Batch API.
 * Export writes the requests the response cache cannot answer; import caches the results.
 */
import { modelSetup } from "../run/model_setup.ts";
import { BatchRecorder } from "../run/batch/batch_recorder.ts";
import { parseBatchOutput } from "../run/batch/batch_output_line.ts";
import { importBatchResults } from "../run/batch/import_batch_results.ts";
import { BATCH_PHASES } from "../run/batch/request_phase.ts";
import { writeBatchRequests } from "../run/batch/write_batch_requests.ts";
import { ResponseCache } from "../models/response_cache.ts";
import { sweep } from "../run/sweep.ts";
import {
  CliError,
  type CommandGroup,
  defineCommand,
  opt,
  type Parsed,
  runGroup,
} from "./command.ts";
import {
  checkSweepPlan,
  MODEL_OPTIONS,
  SWEEP_OPTIONS,
  sweepArgsFromValues,
  sweepCommand,
} from "./sweep_args.ts";
import { sweepOptionsFromArgs } from "./sweep_options.ts";
import { sweepMain } from "./sweep.ts";

// Export never sends a request, so it never needs a key: every key variable reads as this.
const _NO_KEYS = new Proxy({}, { get: () => "batch-export-needs-no-key" }) as Record<
  string,
  string
>;

/** `deno task batch export`. */
export const exportCommand = defineCommand({
  name: "batch export",
  summary: "write the model requests of a sweep that the response cache cannot answer, as " +
    "Batch API input lines",
  description: "Takes exactly the options of deno task sweep (same plan, same run id); sends " +
    "nothing and reads no API key. Requests come in phases (ranking, writing, agent, judge), " +
    "each depending on the answers of the one before: run export, submit, import, and export " +
    "again until it says the sweep is complete.",
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
    quiet: opt.flag({ description: "Accepted and ignored (export shows no progress bar)." }),
  },
  examples: [
    "deno task batch export --stage writing --model gpt-5.4 --batch-out requests.jsonl",
  ],
  check: (v, { given }) => checkSweepPlan(v, given),
});

async function _export(parsed: Parsed<typeof exportCommand.spec.options>): Promise<void> {
  const v = parsed.values;
  const args = sweepArgsFromValues(v, parsed.given, {
    out: v.out ?? "(batch)",
    quiet: true,
    resume: false,
    retryErrors: false,
    allowErrors: true,
  });
  const recorder = new BatchRecorder();
  const models = modelSetup({
    cachePath: args.cache,
    baseUrl: args.baseUrl,
    apiKeyEnv: args.apiKeyEnv,
    modelOptions: args.modelOptions,
    concurrency: args.concurrency,
    judge: args.judge,
    judgeScope: args.judgeScope,
    memoryPlacement: args.memoryPlacement,
    writer: args.writer,
    env: _NO_KEYS,
    onMiss: recorder.onMiss,
  });
  try {
    await sweep({ ...await sweepOptionsFromArgs({ args, models }) });
  } finally {
    models.close();
  }
  const requests = recorder.requests();
  if (requests.length === 0) {
    console.log(
      "Nothing to export: every model request of this sweep is in the cache. Run `deno task " +
        "sweep` with the same options to write the rows (it makes no requests).",
    );
    return;
  }
  const counts = BATCH_PHASES.map((p) => [p, requests.filter((r) => r.phase === p).length] as const)
    .filter(([, n]) => n > 0);
  const phases = counts.map(([p, n]) => `${p} ${n}`).join(", ");
  const files = await writeBatchRequests({ path: v.batchOut, requests });
  console.log(`Phase ${counts[0][0]}: ${requests.length} requests (${phases}).`);
  for (const f of files) console.log(`${f.count} requests for ${f.model} -> ${f.path}`);
  console.log(
    "Next: submit each file to the Batch API (endpoint /v1/chat/completions), download its " +
      "output, run `deno task batch import --batch-in OUTPUT" +
      (args.cache === ".memgauge/cache.sqlite" ? "" : ` --cache ${args.cache}`) +
      "`, then run this export again: it writes the next phase, or says the sweep is complete.",
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
      path: { use: "input-file", nonEmpty: true },
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
  const cache = new ResponseCache({ path: cachePath });
  try {
    for (const [i, text] of texts.entries()) {
      const result = importBatchResults({ text, cache });
      console.log(`${v.batchIn[i]}: ${result.stored} responses cached in ${cachePath}.`);
      for (const s of result.skipped.slice(0, 20)) {
        console.log(`  skipped line ${s.line} (${s.customId.slice(0, 12)}): ${s.reason}`);
      }
      if (result.skipped.length > 0) {
        console.log(
          `  ${result.skipped.length} failed requests skipped (not cached); the next export ` +
            "writes them again.",
        );
      }
    }
  } finally {
    cache.close();
  }
  return sweepArgv ? await sweepMain(sweepArgv) : 0;
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

if (import.meta.main) await runGroup(batchGroup);
