/** `deno task sweep`: run one stage sweep, write one JSON row per trial, print a summary. */
import type { TrialRow } from "../model/trial_row.ts";
import { modelSetup } from "../run/model_setup.ts";
import { formatQuickSummary, quickSummary } from "../run/quick_summary.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import { trialKey } from "../run/run_pair.ts";
import { readRowsFile } from "../run/rows_file.ts";
import { sweep } from "../run/sweep.ts";
import { CliError, runCli } from "./cli_error.ts";
import { parseSweepArgs } from "./sweep_args.ts";
import { sweepOptionsFromArgs } from "./sweep_options.ts";

const _exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Run the sweep CLI with the given arguments. */
export async function sweepMain(argv: readonly string[]): Promise<void> {
  const args = parseSweepArgs(argv);
  if (args.resume && args.retryErrors) {
    throw new CliError("--resume and --retry-errors: pick one");
  }
  const models = modelSetup({
    cachePath: args.cache,
    baseUrl: args.baseUrl,
    apiKeyEnv: args.apiKeyEnv,
    modelOptions: args.modelOptions,
    concurrency: args.concurrency,
    maxRetries: args.maxRetries,
    timeoutMs: args.timeoutMs,
    judge: args.judge,
    writer: args.writer,
  });
  try {
    await _run(args, models);
  } finally {
    models.close();
  }
}

async function _run(
  args: ReturnType<typeof parseSweepArgs>,
  models: ReturnType<typeof modelSetup>,
): Promise<void> {
  const planned = await sweepOptionsFromArgs({ args, models });
  const agents = planned.agents;
  const tmp = `${args.out}.partial`;
  // What is already done: resume keeps complete pair trials of the partial file; retry-errors
  // reruns the pair trials of the finished file that have an error row.
  let previous: TrialRow[] = [];
  let select: ((key: string) => boolean) | undefined;
  if (args.resume && await _exists(tmp)) {
    const { rows, keys } = await readRowsFile({ path: tmp });
    previous = rows;
    select = (key) => !keys.has(key);
    await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  } else if (args.resume && await _exists(args.out)) {
    console.log(`${args.out} is complete; nothing to resume.`);
    return;
  } else if (args.retryErrors) {
    if (!await _exists(args.out)) {
      throw new CliError(`--retry-errors: no finished rows file at ${JSON.stringify(args.out)}`);
    }
    previous = (await readRowsFile({ path: args.out })).rows;
    const failed = new Set(previous.filter((r) => r.error !== null).map(trialKey));
    select = (key) => failed.has(key);
  }
  const encoder = new TextEncoder();
  const retrying = args.retryErrors;
  const file = await Deno.open(tmp, {
    write: true,
    create: true,
    truncate: !args.resume,
    append: args.resume,
  });
  const fresh: TrialRow[] = [];
  try {
    await sweep({
      ...planned,
      select,
      onRows: async (rows) => {
        fresh.push(...rows);
        // Retry-errors merges at the end; otherwise rows are appended as pairs finish.
        if (!retrying) {
          await file.write(encoder.encode(rows.map((r) => JSON.stringify(r) + "\n").join("")));
        }
      },
      progress: args.quiet ? silentProgress : terminalProgress({ label: `sweep ${args.stage}` }),
    });
  } finally {
    // On a crash the rows written so far stay in the .partial file: --resume picks them up.
    file.close();
  }
  let rows = [...previous, ...fresh];
  if (retrying) {
    const redone = new Map<string, TrialRow[]>();
    for (const r of fresh) redone.set(trialKey(r), [...(redone.get(trialKey(r)) ?? []), r]);
    rows = previous.flatMap((r) => {
      const again = redone.get(trialKey(r));
      if (!again) return [r];
      return again.filter((n) => n.condition === r.condition);
    });
    await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  }
  await Deno.rename(tmp, args.out);
  if (agents.some((a) => a.simulated)) {
    console.log(
      "Agent: offline reference agent (a simulator for teaching and smoke runs, not a real model).",
    );
  }
  const stats = models.stats();
  if (stats.requests + stats.cacheHits > 0) {
    console.log(
      `Model calls: ${stats.requests} requests, ${stats.cacheHits} cache hits, ${stats.retries} retries, ${stats.errors} failed.`,
    );
  }
  console.log(formatQuickSummary(quickSummary(rows)));
  console.log(`${rows.length} rows -> ${args.out}`);
}

if (import.meta.main) await runCli("sweep", () => sweepMain(Deno.args));
