/**
 * The run behind `deno task sweep` (`sweep.ts` loads it once the options are parsed): one stage
 * sweep, one JSON row per trial streamed to OUT.partial, resume, retry, dry run, a summary.
 */
import { isReferenceSpec } from "../agents/agent_spec.ts";
import { readSidecar, sidecarPath, writeSidecar } from "../explore/sidecar_file.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";
import { type PairTrajectory, trajectoryKey } from "../schema/pair_trajectory.ts";
import type { SidecarEncoder } from "../schema/trajectory_sidecar.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { stableId } from "../schema/stable_id.ts";
import { redact } from "../models/redact.ts";
import { isSpendCapReached } from "../models/spend_cap.ts";
import { errorSummary, requestFixes } from "../run/error_summary.ts";
import { modelSetup } from "../run/model_setup.ts";
import { lockOut, type OutLock, OutLockedError } from "../run/out_lock.ts";
import { formatRunPlan } from "../run/plan/format_plan.ts";
import { planSweepRun } from "../run/plan/plan_sweep_run.ts";
import { sweepShape } from "../run/plan/sweep_shape.ts";
import {
  formatQuickSummary,
  quickSummary,
  type QuickSummaryRow,
  quickSummaryRow,
} from "../run/quick_summary.ts";
import { silentProgress, terminalProgress } from "../run/progress.ts";
import { trialKey } from "../run/run_pair.ts";
import { readRowsFile } from "../run/rows_file.ts";
import {
  finishedManifestPath,
  manifestDifferences,
  manifestPath,
  readManifest,
  type RunManifest,
  runManifest,
  writeManifest,
} from "../run/run_manifest.ts";
import { runFingerprint } from "../run/run_fingerprint.ts";
import { sweep, type SweepOptions, sweepRunId } from "../run/sweep.ts";
import {
  CliError,
  commandLine,
  errorRowsExit,
  EXIT,
  modelCallsLine,
  type Parsed,
} from "./command.ts";
import { agentSpecs, rolesOf, sweepCommand } from "./sweep_args.ts";
import { modelSetupOptions, sweepOptionsFrom } from "./sweep_options.ts";

type _Parsed = Parsed<typeof sweepCommand.spec.options>;
/** The parsed values of a run that writes (`--out` is given: `check` holds it). */
type _Args = _Parsed["values"] & { out: string };

const _exists = (path: string) => Deno.stat(path).then(() => true, () => false);
// Every line that echoes the command line or an error passes the redaction layer.
const _safe = (text: string) => redact({ text, secrets: [] });

/** The row-determining options of a command line, by flag name. */
function _rowOptions(parsed: _Parsed): Record<string, unknown> {
  const values = parsed.values as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  const declared = sweepCommand.spec.options as Record<string, { manifest?: boolean }>;
  // Every option is in the manifest (also one added later) unless its declaration says it
  // changes how a run goes, not its rows: a resume may change those.
  for (const name of Object.keys(declared).sort()) {
    if (declared[name].manifest === false) continue;
    const value = values[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    // The manifest is a file: a password in --base-url (http://user:pass@host) never reaches it.
    options[name] = typeof value === "string"
      ? _safe(value)
      : Array.isArray(value)
      ? value.map((x) => typeof x === "string" ? _safe(x) : x)
      : value;
  }
  // --model X and --agent llm:X are the same run.
  options.agent = agentSpecs(parsed.values);
  // Replicas of a model do not change its requests: only the first base URL is the run's.
  if (typeof options["base-url"] === "string") {
    options["base-url"] = options["base-url"].split(",")[0].trim();
  }
  return options;
}

/** The manifest of this run: its options and, once planned, its fingerprint. */
function _manifest(
  parsed: _Parsed,
  planned: Awaited<ReturnType<typeof sweepOptionsFrom>>,
  models: ReturnType<typeof modelSetup>,
): RunManifest {
  return runManifest({
    command: "sweep",
    options: _rowOptions(parsed),
    runId: sweepRunId(planned),
    instancesHash: _instancesHash(planned),
    fingerprint: runFingerprint({
      client: models.client,
      agents: planned.agents,
      judge: planned.judge!,
      writer: planned.writer!,
      ranker: planned.base!.ranker!,
      seed: planned.seed ?? 0,
    }),
  });
}

/** Run a parsed sweep command line; returns the exit code. */
export async function runSweep(parsed: _Parsed): Promise<number> {
  const v = parsed.values;
  const args: _Args = { ...v, out: v.out ?? "" };
  if (v.dryRun) return await _dryRun(args, parsed);
  // One writer per --out, checked before anything is read or written.
  let lock: OutLock;
  try {
    lock = lockOut({ out: args.out, command: "sweep" });
  } catch (e) {
    if (e instanceof OutLockedError) throw new CliError(e.message);
    throw e;
  }
  const state: _RunState = {
    written: null,
    writing: Promise.resolve(),
    sidecar: v.trajectories === "none" ? null : v.trajectories ?? sidecarPath({ rows: args.out }),
  };
  const stopListening = _onInterrupt({ args, parsed, lock, state });
  try {
    return await _write(args, parsed, state);
  } finally {
    stopListening();
    lock.release();
  }
}

/** What an interrupt needs to know about the run in progress. */
interface _RunState {
  /** Pair trials in the partial file; null until the run has touched it. */
  written: number | null;
  /** The write in progress (an interrupt lets it finish). */
  writing: Promise<void>;
  file?: Deno.FsFile;
  /** The trajectory sidecar's path; null with `--trajectories none`. */
  sidecar: string | null;
  sidecarFile?: Deno.FsFile;
}

const _SIGNALS = ["SIGINT", "SIGTERM"] as const;
const _SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * From the lock on: an interrupt (SIGINT, SIGTERM) lets the write in progress finish, leaves
 * the partial resumable, releases the lock and prints how to go on. A second interrupt exits at
 * once. Returns the function that stops listening.
 */
function _onInterrupt(options: {
  args: _Args;
  parsed: _Parsed;
  lock: OutLock;
  state: _RunState;
}): () => void {
  const { args, parsed, lock, state } = options;
  const partial = `${args.out}.partial`;
  let stopping = false;
  const onSignal = (signal: typeof _SIGNALS[number]) => async () => {
    if (stopping) Deno.exit(_SIGNAL_EXIT[signal]);
    stopping = true;
    await Promise.race([state.writing, new Promise((r) => setTimeout(r, 2000))]);
    for (const file of [state.file, state.sidecarFile]) {
      try {
        file?.close();
      } catch { /* closed */ }
    }
    // Resumable once a partial exists; before the first row there is nothing to resume.
    const resumable = !args.retryErrors && await _exists(partial);
    const again = _safe(
      resumable
        ? commandLine({
          name: "sweep",
          argv: parsed.argv,
          drop: ["resume", "overwrite"],
          add: ["--resume"],
        })
        : commandLine({ name: "sweep", argv: parsed.argv }),
    );
    const what = args.retryErrors
      ? `${args.out} is unchanged (answers received are cached)`
      : state.written === null || !resumable
      ? `before any row was written${resumable ? `; ${partial} is as it was` : ""}`
      : `${_count(state.written, "pair trial")} ${
        state.written === 1 ? "is" : "are"
      } in ${partial}`;
    console.error(`memgauge sweep: interrupted (${signal}); ${what}.`);
    console.error(`${resumable ? "Resume" : "Run again"} with: ${again}`);
    lock.release();
    Deno.exit(_SIGNAL_EXIT[signal]);
  };
  const handlers = _SIGNALS.map((s) => [s, onSignal(s)] as const);
  for (const [s, h] of handlers) Deno.addSignalListener(s, h);
  return () => {
    for (const [s, h] of handlers) Deno.removeSignalListener(s, h);
  };
}

/** What an unfinished run left: its complete pair trials and its manifest. */
interface _Unfinished {
  rows: TrialRow[];
  keys: Set<string>;
  manifest: RunManifest | null;
}

const _pairTrials = (rows: readonly TrialRow[]) => new Set(rows.map(trialKey)).size;
const _count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/**
 * The partial file's state, checked before any work: what `--resume` completes (refused when
 * the partial was written with other options), or a refusal to discard a non-empty partial
 * without `--overwrite`. Null: start from nothing.
 */
async function _unfinished(
  args: _Args,
  parsed: _Parsed,
): Promise<_Unfinished | null> {
  const partial = `${args.out}.partial`;
  if (!await _exists(partial)) return null;
  const { rows, keys } = await readRowsFile({
    path: partial,
    counterfactual: args.counterfactual !== "none",
  });
  if (parsed.values.overwrite || (!args.resume && rows.length === 0)) return null;
  if (!args.resume) {
    throw new CliError(
      `--out ${args.out}: ${partial} holds ${rows.length} rows (${
        _count(_pairTrials(rows), "pair trial")
      }) of an unfinished run; add --resume to complete it, or --overwrite to discard it`,
    );
  }
  const manifest = await readManifest(manifestPath(partial));
  if (manifest) {
    // Options first: a refusal before the dataset is loaded. The run id is checked after.
    const here = runManifest({
      command: "sweep",
      options: _rowOptions(parsed),
      runId: manifest.runId,
      instancesHash: manifest.instancesHash,
    });
    _refuseOther(partial, rows, manifestDifferences({ there: manifest, here }));
  }
  return { rows, keys, manifest };
}

function _refuseOther(
  partial: string,
  rows: readonly TrialRow[],
  differences: readonly string[],
): void {
  if (differences.length === 0) return;
  const shown = differences.slice(0, 4).join("; ") +
    (differences.length > 4 ? `; and ${differences.length - 4} more` : "");
  throw new CliError(
    `--resume: ${partial} is from another run (${shown}); resume with its options, or pass ` +
      `--overwrite to discard its ${rows.length} rows`,
  );
}

/** A partial without a manifest (an older kit): its rows' own run id and seed must match. */
function _checkRows(
  args: _Args,
  partial: string,
  rows: readonly TrialRow[],
  runId: string,
): void {
  const other = rows.find((r) => r.runId !== runId);
  if (!other) return;
  const differences = [
    ...(other.seed !== args.seed ? [`--seed ${other.seed} there, ${args.seed} here`] : []),
    ...(other.dataset !== args.dataset
      ? [`--dataset ${other.dataset} there, ${args.dataset} here`]
      : []),
    ...(other.stage !== args.stage ? [`--stage ${other.stage} there, ${args.stage} here`] : []),
  ];
  _refuseOther(
    partial,
    rows,
    differences.length > 0 ? differences : [`run id ${other.runId} there, ${runId} here`],
  );
}

function _instancesHash(options: Pick<SweepOptions, "instances">): string {
  return stableId(options.instances);
}

async function _write(args: _Args, parsed: _Parsed, state: _RunState): Promise<number> {
  const out = args.out;
  const partial = `${out}.partial`;
  const manifestFile = manifestPath(partial);
  let finished: TrialRow[] = [];
  let finishedManifest: RunManifest | null = null;
  let unfinished: _Unfinished | null = null;
  if (args.retryErrors) {
    if (!await _exists(out)) {
      throw new CliError(`--retry-errors: no finished rows file at ${JSON.stringify(out)}`);
    }
    finished = (await readRowsFile({
      path: out,
      counterfactual: args.counterfactual !== "none",
    })).rows;
    if (finished.length === 0) {
      throw new CliError(
        `--retry-errors: ${JSON.stringify(out)} holds no complete trial rows of a sweep`,
      );
    }
    finishedManifest = await readManifest(finishedManifestPath(out));
    if (finishedManifest) {
      // Options first: a refusal before the dataset is loaded. The fingerprint is checked after.
      _refuseRetry(
        out,
        manifestDifferences({
          there: finishedManifest,
          here: runManifest({
            command: "sweep",
            options: _rowOptions(parsed),
            runId: finishedManifest.runId,
            instancesHash: finishedManifest.instancesHash,
          }),
        }),
      );
    }
  } else {
    unfinished = await _unfinished(args, parsed);
    if (args.resume && !unfinished && await _exists(out) && !await _exists(partial)) {
      console.log(`${out} is complete; nothing to resume.`);
      return 0;
    }
  }
  const models = modelSetup(modelSetupOptions({ values: args, judge: rolesOf(args).judge }));
  let rows: QuickSummaryRow[];
  try {
    const planned = await sweepOptionsFrom({ parsed, models });
    const runId = sweepRunId(planned);
    const manifest = _manifest(parsed, planned, models);
    if (args.retryErrors) {
      if (finishedManifest) {
        _refuseRetry(out, manifestDifferences({ there: finishedManifest, here: manifest }));
      }
      _checkRetry(args, finished, runId);
    } else if (unfinished) {
      if (unfinished.manifest) {
        _refuseOther(
          partial,
          unfinished.rows,
          manifestDifferences({ there: unfinished.manifest, here: manifest }),
        );
      }
      _checkRows(args, partial, unfinished.rows, runId);
    }
    try {
      rows = await _run({ args, models, planned, finished, unfinished, manifest, state });
    } catch (e) {
      if (!isSpendCapReached(e)) throw e;
      return _stoppedAtCap(args, parsed, state, models);
    }
    // The finished rows keep their run's manifest: --retry-errors compares it.
    if (!args.retryErrors) {
      await Deno.rename(manifestFile, finishedManifestPath(out)).catch(() => {});
    }
  } finally {
    models.close();
  }
  const fixes = requestFixes({ rows });
  const drop = ["resume", "retry-errors", "allow-errors", "overwrite"];
  return errorRowsExit({
    name: "sweep",
    summary: errorSummary({ rows }),
    retry: _safe(commandLine({ name: "sweep", argv: parsed.argv, drop, add: ["--retry-errors"] })),
    fixes,
    fixCommand: _safe(commandLine({
      name: "sweep",
      argv: parsed.argv,
      drop,
      add: fixes.flatMap((f) => ["--model-option", f.option]),
    })),
    allowErrors: args.allowErrors,
  });
}

/** The end of a run held back by `--max-cost`: what was spent, what is kept, how to go on. */
function _stoppedAtCap(
  args: _Args,
  parsed: _Parsed,
  state: _RunState,
  models: ReturnType<typeof modelSetup>,
): number {
  const spend = models.spend!;
  const kept = args.retryErrors
    ? `${args.out} is unchanged (the answers received are cached)`
    : `${_count(state.written ?? 0, "pair trial")} ${
      state.written === 1 ? "is" : "are"
    } in ${args.out}.partial`;
  console.error(
    `memgauge sweep: stopped before the estimated spend crossed --max-cost ${spend.usd} USD ` +
      `(${spend.spentUsd.toFixed(4)} USD spent on ${spend.requests} requests); ${kept}.`,
  );
  const again = args.retryErrors ? commandLine({ name: "sweep", argv: parsed.argv }) : commandLine({
    name: "sweep",
    argv: parsed.argv,
    drop: ["resume", "overwrite"],
    add: ["--resume"],
  });
  console.error(`Go on with (a new --max-cost caps the next part): ${_safe(again)}`);
  return EXIT.stopped;
}

/** `--retry-errors` on rows of another run: refused in one line naming what differs. */
function _refuseRetry(out: string, differences: readonly string[]): void {
  if (differences.length === 0) return;
  const shown = differences.slice(0, 4).join("; ") +
    (differences.length > 4 ? `; and ${differences.length - 4} more` : "");
  throw new CliError(
    `--retry-errors: ${out} is from another run (${shown}); retry with its options, or run ` +
      "again without --retry-errors (a new run)",
  );
}

function _checkRetry(args: _Args, finished: readonly TrialRow[], runId: string): void {
  const other = finished.find((r) => r.runId !== runId);
  if (!other) return;
  const seed = other.seed !== args.seed ? ` (--seed ${other.seed} there, ${args.seed} here)` : "";
  throw new CliError(
    `--retry-errors: ${args.out} holds rows of another run${seed}; give the options that ` +
      "wrote it",
  );
}

async function _run(context: {
  args: _Args;
  models: ReturnType<typeof modelSetup>;
  planned: Awaited<ReturnType<typeof sweepOptionsFrom>>;
  finished: TrialRow[];
  unfinished: _Unfinished | null;
  /** This run's manifest (a resumed run keeps the partial's). */
  manifest: RunManifest;
  /** Shared with the interrupt handler. */
  state: _RunState;
}): Promise<QuickSummaryRow[]> {
  const { args, models, planned, finished, unfinished, state } = context;
  const agents = planned.agents;
  const out = args.out;
  const tmp = `${out}.partial`;
  const retrying = args.retryErrors;
  // What is already done: resume keeps complete pair trials of the partial file; retry-errors
  // reruns the pair trials of the finished file that have an error row.
  let previous: TrialRow[] = [];
  let select: ((key: string) => boolean) | undefined;
  const sidecar = state.sidecar;
  const sidecarTmp = `${sidecar}.partial`;
  let encoder: SidecarEncoder | undefined;
  if (unfinished) {
    previous = unfinished.rows;
    let done = unfinished.keys;
    if (sidecar) {
      // A pair trial is done when its rows and its sidecar line are both there (the line is
      // written first): keep those, rerun the rest. A partial renamed just before a kill counts.
      const source = await _exists(sidecarTmp) ? sidecarTmp : sidecar;
      const lines = await readSidecar({ path: source, keys: done });
      const without = done.size - lines.length;
      if (without > 0) {
        console.error(
          `memgauge sweep: ${_count(without, "pair trial")} of ${tmp} ${
            without === 1 ? "has" : "have"
          } no line in ${source}; run again so the sidecar stays complete.`,
        );
      }
      done = new Set(lines.map(trajectoryKey));
      previous = previous.filter((r) => done.has(trialKey(r)));
      encoder = await writeSidecar({ path: sidecarTmp, trajectories: lines });
    }
    select = (key) => !done.has(key);
    // Drop a torn last line (and any pair cut in half) before appending.
    await Deno.writeTextFile(tmp, previous.map((r) => JSON.stringify(r) + "\n").join(""), {
      mode: 0o644,
    });
  } else if (retrying) {
    previous = finished;
    const failed = new Set(previous.filter((r) => r.error !== null).map(trialKey));
    select = (key) => failed.has(key);
  }
  if (!retrying) {
    // The manifest is in place before the first row, so a partial always says its run.
    await writeManifest(manifestPath(tmp), unfinished?.manifest ?? context.manifest);
    if (sidecar && !encoder) encoder = await writeSidecar({ path: sidecarTmp, trajectories: [] });
  }
  const textEncoder = new TextEncoder();
  // Opened at the first rows; a fresh run replaces an empty or discarded partial.
  const open = async () => {
    if (state.file) return state.file;
    state.file = await Deno.open(tmp, {
      write: true,
      create: true,
      truncate: !unfinished,
      append: !!unfinished,
      mode: 0o644,
    });
    // 0644 whatever the umask (a container's is often 000).
    await Deno.chmod(tmp, 0o644);
    return state.file;
  };
  // Retry-errors merges whole rows at the end; a run that appends keeps only what its printed
  // summary reads (the rows stream to the file).
  const fresh: TrialRow[] = [];
  const appended: QuickSummaryRow[] = [];
  const freshLines = new Map<string, PairTrajectory>();
  if (!retrying) state.written = new Set(previous.map(trialKey)).size;
  try {
    await sweep({
      ...planned,
      select,
      trajectories: sidecar !== null,
      keepRows: false,
      onRows: async (rows, trajectory) => {
        if (retrying) fresh.push(...rows);
        else appended.push(...rows.map(quickSummaryRow));
        if (retrying && trajectory) freshLines.set(trajectoryKey(trajectory), trajectory);
        // Retry-errors merges at the end; otherwise rows are appended as pairs finish.
        if (!retrying) {
          const text = rows.map((r) => JSON.stringify(r) + "\n").join("");
          const lines = trajectory && encoder ? encoder.encode(trajectory) : "";
          // Counted with the write, so an interrupt that waits for it reports what is on disk.
          state.writing = (async () => {
            // The sidecar line first: rows without their line would be rerun on resume.
            if (lines) {
              state.sidecarFile ??= await Deno.open(sidecarTmp, { append: true });
              await state.sidecarFile.write(textEncoder.encode(lines));
            }
            await (await open()).write(textEncoder.encode(text));
            state.written = (state.written ?? 0) + new Set(rows.map(trialKey)).size;
          })();
          await state.writing;
        }
      },
      progress: args.quiet ? silentProgress : terminalProgress({ label: `sweep ${args.stage}` }),
    });
    if (!retrying) await open();
  } finally {
    // On a crash the rows written so far stay in the .partial file: --resume picks them up.
    state.file?.close();
    state.file = undefined;
    state.sidecarFile?.close();
    state.sidecarFile = undefined;
  }
  let rows: QuickSummaryRow[] = [...previous.map(quickSummaryRow), ...appended];
  if (retrying) {
    const redone = new Map<string, TrialRow[]>();
    for (const r of fresh) redone.set(trialKey(r), [...(redone.get(trialKey(r)) ?? []), r]);
    // A redone pair trial's fresh rows (both conditions and any counterfactual reruns) take
    // the place of all its old rows.
    const placed = new Set<string>();
    const merged = previous.flatMap((r) => {
      const key = trialKey(r);
      const again = redone.get(key);
      if (!again) return [r];
      if (placed.has(key)) return [];
      placed.add(key);
      return again;
    });
    rows = merged;
    if (sidecar) {
      // The sidecar follows the rows: redone pair trials take their fresh lines, the others
      // keep theirs; written whole before the rows, so both change together or neither does.
      const keys = new Set(merged.map(trialKey));
      const old = new Map(
        (await readSidecar({ path: sidecar, keys })).map((t) => [trajectoryKey(t), t]),
      );
      const lines = [...keys].flatMap((k) => freshLines.get(k) ?? old.get(k) ?? []);
      await writeSidecar({ path: sidecar, trajectories: lines });
    }
    // Replaced in one rename; an unfinished run's partial beside it is left alone.
    await writeFileAtomic({ path: out, data: rows.map((r) => JSON.stringify(r) + "\n").join("") });
  } else {
    if (sidecar) await Deno.rename(sidecarTmp, sidecar);
    await Deno.rename(tmp, out);
  }
  if (agents.some((a) => a.simulated && isReferenceSpec(a.id))) {
    console.log(
      "Agent: offline reference agent (a simulator for teaching and smoke runs, not a real model).",
    );
  }
  const line = modelCallsLine(models.stats());
  if (line) console.log(line);
  console.log(formatQuickSummary(quickSummary(rows)));
  console.log(`${rows.length} rows -> ${out}`);
  if (sidecar) {
    console.log(
      `trajectories -> ${sidecar} (see them: deno task explore --in ${out})`,
    );
  }
  return rows;
}

/** `--dry-run`: the plan, with nothing sent and nothing written. */
async function _dryRun(args: _Args, parsed: _Parsed): Promise<number> {
  // With --resume, only what the partial lacks, and only if the partial is this run's.
  const unfinished = args.resume ? await _unfinished(args, parsed) : null;
  const partial = `${args.out}.partial`;
  const plan = await planSweepRun({
    setup: modelSetupOptions({ values: args, judge: rolesOf(args).judge }),
    build: async (models) => {
      const planned = await sweepOptionsFrom({ parsed, models });
      if (unfinished) {
        const runId = sweepRunId(planned);
        if (unfinished.manifest) {
          _refuseOther(
            partial,
            unfinished.rows,
            manifestDifferences({
              there: unfinished.manifest,
              here: _manifest(parsed, planned, models),
            }),
          );
        }
        _checkRows(args, partial, unfinished.rows, runId);
      }
      return {
        ...planned,
        ...(unfinished && { select: (k: string) => !unfinished.keys.has(k) }),
        progress: args.quiet ? silentProgress : terminalProgress({ label: "planning" }),
      };
    },
  });
  console.log(formatRunPlan({
    title: [
      "DRY RUN: nothing was sent and no file was written.",
      `Plan: ${
        sweepShape({
          stage: args.stage,
          rows: plan.rows,
          done: unfinished ? _pairTrials(unfinished.rows) : 0,
        })
      }`,
    ],
    entries: plan.entries,
    costs: plan.costs,
    judgeUpperBound: plan.judgeUpperBound,
  }));
  return 0;
}
