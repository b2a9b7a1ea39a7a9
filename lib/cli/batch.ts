/**
 * `deno task batch export|import`: run a sweep's model requests through the OpenAI Batch API.
 * Export writes the requests the response cache cannot answer; import caches the results.
 */
import { parseArgs } from "node:util";
import { modelSetup } from "../run/model_setup.ts";
import { BatchRecorder } from "../run/batch/batch_recorder.ts";
import { importBatchResults } from "../run/batch/import_batch_results.ts";
import { BATCH_PHASES } from "../run/batch/request_phase.ts";
import { writeBatchRequests } from "../run/batch/write_batch_requests.ts";
import { ResponseCache } from "../models/response_cache.ts";
import { sweep } from "../run/sweep.ts";
import { CliError, runCli } from "./cli_error.ts";
import { parseSweepArgs } from "./sweep_args.ts";
import { sweepOptionsFromArgs } from "./sweep_options.ts";
import { sweepMain } from "./sweep.ts";

const USAGE = "usage: deno task batch export <sweep options> --batch-out FILE | " +
  "import --batch-in FILE [--batch-in FILE...] [--cache PATH] [--then-sweep <sweep options>]";

// Export never sends a request, so it never needs a key: every key variable reads as this.
const _NO_KEYS = new Proxy({}, { get: () => "batch-export-needs-no-key" }) as Record<
  string,
  string
>;

function _take(argv: string[], name: string): string[] {
  const found: string[] = [];
  for (let i = argv.indexOf(name); i !== -1; i = argv.indexOf(name)) {
    if (i + 1 >= argv.length || argv[i + 1].startsWith("--")) {
      throw new CliError(`${name}: expected a file path`);
    }
    found.push(argv[i + 1]);
    argv.splice(i, 2);
  }
  return found;
}

async function _export(argv: string[]): Promise<void> {
  const out = _take(argv, "--batch-out");
  if (out.length !== 1) throw new CliError("--batch-out: required once (path of the JSONL file)");
  // Same options as `deno task sweep`; --out is accepted (and ignored) so a command can be reused.
  const args = parseSweepArgs(argv.includes("--out") ? argv : [...argv, "--out", "(batch)"]);
  const recorder = new BatchRecorder();
  const models = modelSetup({
    cachePath: args.cache,
    baseUrl: args.baseUrl,
    apiKeyEnv: args.apiKeyEnv,
    modelOptions: args.modelOptions,
    concurrency: args.concurrency,
    judge: args.judge,
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
  const files = await writeBatchRequests({ path: out[0], requests });
  console.log(`Phase ${counts[0][0]}: ${requests.length} requests (${phases}).`);
  for (const f of files) console.log(`${f.count} requests for ${f.model} -> ${f.path}`);
  console.log(
    "Next: submit each file to the Batch API (endpoint /v1/chat/completions), download its " +
      "output, run `deno task batch import --batch-in OUTPUT" +
      (args.cache === ".memgauge/cache.sqlite" ? "" : ` --cache ${args.cache}`) +
      "`, then run this export again: it writes the next phase, or says the sweep is complete.",
  );
}

async function _import(argv: string[]): Promise<void> {
  const inputs = _take(argv, "--batch-in");
  if (inputs.length === 0) throw new CliError("--batch-in: required (a Batch API output file)");
  const then = argv.indexOf("--then-sweep");
  const sweepArgv = then === -1 ? undefined : [...argv.slice(0, then), ...argv.slice(then + 1)];
  let cachePath: string;
  if (sweepArgv) {
    cachePath = parseSweepArgs(sweepArgv).cache;
  } else {
    try {
      const { values } = parseArgs({
        args: argv,
        options: { cache: { type: "string" } },
        strict: true,
        allowPositionals: false,
      });
      cachePath = values.cache ?? ".memgauge/cache.sqlite";
    } catch (e) {
      throw new CliError(`${(e as Error).message} (sweep options need --then-sweep)`);
    }
  }
  // Read and validate every file before the cache is touched.
  const texts = await Promise.all(inputs.map((path) => Deno.readTextFile(path)));
  const cache = new ResponseCache({ path: cachePath });
  try {
    for (const [i, text] of texts.entries()) {
      let result;
      try {
        result = importBatchResults({ text, cache });
      } catch (e) {
        throw new TypeError(`${inputs[i]}: ${(e as Error).message}`);
      }
      console.log(`${inputs[i]}: ${result.stored} responses cached in ${cachePath}.`);
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
  if (sweepArgv) await sweepMain(sweepArgv);
}

/** Run the batch CLI with the given arguments. */
export async function batchMain(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === "export") return await _export(rest);
  if (command === "import") return await _import(rest);
  throw new CliError(`expected export or import, got ${JSON.stringify(command ?? "")}; ${USAGE}`);
}

if (import.meta.main) await runCli("batch", () => batchMain(Deno.args));
