/** `deno task sweep`: run one stage sweep, write one JSON row per trial, print a summary. */
import type { TrialRow } from "../model/trial_row.ts";
import { errorSummary } from "../run/error_summary.ts";
import { modelSetup } from "../run/model_setup.ts";
import { formatQuickSummary, quickSummary } from "../run/quick_summary.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import { trialKey } from "../run/run_pair.ts";
import { readRowsFile } from "../run/rows_file.ts";
import { sweep } from "../run/sweep.ts";
import {
  CliError,
  commandLine,
  errorRowsExit,
  execute,
  modelCallsLine,
  type Parsed,
  runCommand,
} from "./command.ts";
import { type SweepArgs, sweepArgsFromValues, sweepCommand } from "./sweep_args.ts";
import { sweepOptionsFromArgs } from "./sweep_options.ts";

const _exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Run the sweep CLI with the given arguments; returns the exit code (errors are printed). */
export async function sweepMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: sweepCommand, argv, main: _main });
}

async function _main(parsed: Parsed<typeof sweepCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const args = sweepArgsFromValues(v, parsed.given, {
    out: v.out,
    quiet: v.quiet,
    resume: v.resume,
    retryErrors: v.retryErrors,
    allowErrors: v.allowErrors,
  });
  let finished: TrialRow[] = [];
  if (args.retryErrors) {
    if (!await _exists(args.out)) {
      throw new CliError(`--retry-errors: no finished rows file at ${JSON.stringify(args.out)}`);
    }
    finished = (await readRowsFile({
      path: args.out,
      counterfactual: args.counterfactual !== "none",
    })).rows;
    if (finished.length === 0) {
      throw new CliError(
        `--retry-errors: ${JSON.stringify(args.out)} holds no complete trial rows of a sweep`,
      );
    }
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
    judgeScope: args.judgeScope,
    memoryPlacement: args.memoryPlacement,
    writer: args.writer,
  });
  let rows: TrialRow[];
  try {
    rows = await _run(args, models, finished);
  } finally {
    models.close();
  }
  return errorRowsExit({
    name: "sweep",
    summary: errorSummary({ rows }),
    retry: commandLine({
      name: "sweep",
      argv: parsed.argv,
      drop: ["resume", "retry-errors", "allow-errors"],
      add: ["--retry-errors"],
    }),
    allowErrors: args.allowErrors,
  });
}

async function _run(
  args: SweepArgs,
  models: ReturnType<typeof modelSetup>,
  finished: TrialRow[],
): Promise<TrialRow[]> {
  const planned = await sweepOptionsFromArgs({ args, models });
  const agents = planned.agents;
  const tmp = `${args.out}.partial`;
  // What is already done: resume keeps complete pair trials of the partial file; retry-errors
  // reruns the pair trials of the finished file that have an error row.
  let previous: TrialRow[] = [];
  let select: ((key: string) => boolean) | undefined;
  if (args.resume && await _exists(tmp)) {
    const { rows, keys } = await readRowsFile({
      path: tmp,
      counterfactual: args.counterfactual !== "none",
    });
    previous = rows;
    select = (key) => !keys.has(key);
    await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  } else if (args.resume && await _exists(args.out)) {
    console.log(`${args.out} is complete; nothing to resume.`);
    return (await readRowsFile({ path: args.out, counterfactual: args.counterfactual !== "none" }))
      .rows;
  } else if (args.retryErrors) {
    previous = finished;
    const failed = new Set(previous.filter((r) => r.error !== null).map(trialKey));
    select = (key) => failed.has(key);
  }
  const encoder = new TextEncoder();
  const retrying = args.retryErrors;
  // Opened at the first rows, so a run that fails before any row leaves no file behind.
  let file: Deno.FsFile | undefined;
  const open = async () =>
    file ??= await Deno.open(tmp, {
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
          await (await open()).write(
            encoder.encode(rows.map((r) => JSON.stringify(r) + "\n").join("")),
          );
        }
      },
      progress: args.quiet ? silentProgress : terminalProgress({ label: `sweep ${args.stage}` }),
    });
    await open();
  } finally {
    // On a crash the rows written so far stay in the .partial file: --resume picks them up.
    file?.close();
  }
  let rows = [...previous, ...fresh];
  if (retrying) {
    const redone = new Map<string, TrialRow[]>();
    for (const r of fresh) redone.set(trialKey(r), [...(redone.get(trialKey(r)) ?? []), r]);
    // A redone pair trial's fresh rows (both conditions and any counterfactual reruns) take
    // the place of all its old rows.
    const placed = new Set<string>();
    rows = previous.flatMap((r) => {
      const key = trialKey(r);
      const again = redone.get(key);
      if (!again) return [r];
      if (placed.has(key)) return [];
      placed.add(key);
      return again;
    });
    await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  }
  await Deno.rename(tmp, args.out);
  if (agents.some((a) => a.simulated)) {
    console.log(
      "Agent: offline reference agent (a simulator for teaching and smoke runs, not a real model).",
    );
  }
  const line = modelCallsLine(models.stats());
  if (line) console.log(line);
  console.log(formatQuickSummary(quickSummary(rows)));
  console.log(`${rows.length} rows -> ${args.out}`);
  return rows;
}

if (import.meta.main) await runCommand(sweepCommand, _main);
