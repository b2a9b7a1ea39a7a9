/**
 * The manifest of a run: which kit, which options, which run and what shapes its requests (the
 * run's fingerprint) wrote a rows file. An unfinished run keeps it beside its partial rows
 * (`OUT.partial.json`), a finished one beside its rows (`OUT.manifest.json`), so `--resume` and
 * `--retry-errors` add rows only of the same run and refuse, naming what differs, to mix two.
 */
import { z } from "zod";
import denoConfig from "../../deno.json" with { type: "json" };
import { writeFileAtomic } from "../io/atomic_write.ts";
import { stableId } from "../schema/stable_id.ts";
import { redact } from "../models/redact.ts";
import { fingerprintDifferences, type RunFingerprint } from "./run_fingerprint.ts";

/** The kit's version (deno.json): rows of two versions are never mixed in one file. */
export const KIT_VERSION: string = (denoConfig as { version?: string }).version ?? "0.0.0";

/** The manifest of a partial rows file. */
export const RunManifest = z.object({
  /** Kit version that wrote it. */
  kit: z.string(),
  /** The task (`sweep`). */
  command: z.string(),
  /** Every option that determines the rows, by its flag name, with its value. */
  options: z.record(z.string(), z.unknown()),
  /** Hash of `options`. */
  optionsHash: z.string(),
  /** The run id every row carries. */
  runId: z.string(),
  /** Hash of the instances the rows are about (a changed instance file changes it). */
  instancesHash: z.string(),
  /** When the run started (ISO time). */
  started: z.string(),
  /**
   * Everything that shapes the run's requests (`runFingerprint`): each model's endpoint and
   * options, judge, writer, ranker, seed, prompts. Absent in manifests of older kits.
   */
  fingerprint: z.record(z.string(), z.unknown()).optional(),
  /** Hash of `fingerprint`. */
  fingerprintHash: z.string().optional(),
});
/** The manifest of a partial rows file. */
export type RunManifest = z.infer<typeof RunManifest>;

/** The manifest path of a partial rows file. */
export function manifestPath(partial: string): string {
  return `${partial}.json`;
}

/** The manifest path of a finished rows file (`--retry-errors` reads it). */
export function finishedManifestPath(out: string): string {
  return `${out}.manifest.json`;
}

/**
 * A manifest for a run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runManifest } from "./run_manifest.ts";
 * const a = runManifest({ command: "sweep", options: { seed: 0 }, runId: "r", instancesHash: "h" });
 * assert.equal(a.optionsHash, runManifest({ command: "sweep", options: { seed: 0 }, runId: "r", instancesHash: "h" }).optionsHash);
 * ```
 */
export function runManifest(options: {
  command: string;
  /** The row-determining options by flag name. */
  options: Record<string, unknown>;
  runId: string;
  instancesHash: string;
  /** What shapes the run's requests (`runFingerprint`); default none. */
  fingerprint?: RunFingerprint;
}): RunManifest {
  // Through the redaction layer: a key pasted into an option (a `--base-url` with a key in it)
  // never reaches the file; both sides of a comparison are redacted alike.
  const values = JSON.parse(redact({ text: JSON.stringify(options.options), secrets: [] }));
  const fingerprint = options.fingerprint &&
    JSON.parse(redact({ text: JSON.stringify(options.fingerprint), secrets: [] }));
  return {
    kit: KIT_VERSION,
    command: options.command,
    options: values,
    optionsHash: stableId(values),
    runId: options.runId,
    instancesHash: options.instancesHash,
    started: new Date().toISOString(),
    ...(fingerprint && { fingerprint, fingerprintHash: stableId(fingerprint) }),
  };
}

function _show(value: unknown): string {
  if (value === undefined || value === null) return "unset";
  if (value === true) return "given";
  if (value === false) return "not given";
  if (Array.isArray(value)) return value.length === 0 ? "unset" : value.join(",");
  return String(value);
}

/**
 * What differs between the run that wrote a rows file (`there`) and this one (`here`), one
 * phrase per difference: kit version, options, then the fingerprint (what shapes requests:
 * a catalog entry or a prompt that changed), the instances, the run id; empty when they are
 * the same run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestDifferences, runManifest } from "./run_manifest.ts";
 * const there = runManifest({ command: "sweep", options: { seed: 0, trials: 1 }, runId: "a", instancesHash: "h" });
 * const here = runManifest({ command: "sweep", options: { seed: 1, trials: 1 }, runId: "b", instancesHash: "h" });
 * assert.deepEqual(manifestDifferences({ there, here }), ["--seed 0 there, 1 here"]);
 * ```
 */
export function manifestDifferences(options: {
  /** The partial's manifest. */
  there: RunManifest;
  /** This run's. */
  here: RunManifest;
}): string[] {
  const { there, here } = options;
  const out: string[] = [];
  if (there.kit !== here.kit) out.push(`memgauge ${there.kit} there, ${here.kit} here`);
  if (there.command !== here.command) out.push(`written by ${there.command}, not ${here.command}`);
  const names = [...new Set([...Object.keys(there.options), ...Object.keys(here.options)])];
  for (const name of names) {
    const a = there.options[name], b = here.options[name];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push(`--${name} ${_show(a)} there, ${_show(b)} here`);
    }
  }
  if (out.length === 0 && there.fingerprint && here.fingerprint) {
    out.push(...fingerprintDifferences({ there: there.fingerprint, here: here.fingerprint }));
  }
  if (out.length === 0 && there.instancesHash !== here.instancesHash) {
    out.push("the instances differ (the dataset or instance file changed)");
  }
  if (out.length === 0 && there.runId !== here.runId) {
    out.push(`run id ${there.runId} there, ${here.runId} here`);
  }
  return out;
}

/** Read a manifest; null when there is none. A damaged one throws, naming the file. */
export async function readManifest(path: string): Promise<RunManifest | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    return RunManifest.parse(JSON.parse(text));
  } catch {
    throw new RangeError(
      `${path}: not a run manifest; it belongs to the unfinished run beside it (pass ` +
        "--overwrite to discard that run)",
    );
  }
}

/** Write a manifest atomically. */
export async function writeManifest(path: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic({ path, data: JSON.stringify(manifest, null, 2) + "\n" });
}
