/**
 * The trajectory sidecar on disk: where it sits beside a rows file, reading it (a missing file
 * is no trajectories, a torn last line is dropped) and writing it whole, atomically.
 */
import { writeFileAtomic } from "../io/atomic_write.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { decodeSidecar, SidecarEncoder } from "../schema/trajectory_sidecar.ts";

/**
 * The sidecar's default path beside a rows file: `rows.jsonl` -> `rows.trajectories.jsonl`
 * (any other name gets `.trajectories.jsonl` appended).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sidecarPath } from "./sidecar_file.ts";
 * assert.equal(sidecarPath({ rows: "runs/w.jsonl" }), "runs/w.trajectories.jsonl");
 * assert.equal(sidecarPath({ rows: "w.out" }), "w.out.trajectories.jsonl");
 * ```
 */
export function sidecarPath(options: {
  /** The rows file. */
  rows: string;
}): string {
  return `${options.rows.replace(/\.jsonl$/, "")}.trajectories.jsonl`;
}

/**
 * Read a sidecar file into pair trajectories, in file order; `[]` when the file does not exist.
 * With `keys`, only those pair trials (`pairId#trial`), each once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSidecar } from "./sidecar_file.ts";
 * assert.deepEqual(await readSidecar({ path: "/nonexistent/x.trajectories.jsonl" }), []);
 * ```
 */
export async function readSidecar(options: {
  /** The sidecar file. */
  path: string;
  /** Keep only these pair trials; default all. */
  keys?: ReadonlySet<string>;
}): Promise<PairTrajectory[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(options.path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return decodeSidecar({ text, keys: options.keys }).trajectories;
}

/**
 * Write pair trajectories as a whole sidecar file (temporary name, then rename). Returns the
 * encoder, which remembers what the file defines, for appending more.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSidecar, writeSidecar } from "./sidecar_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeSidecar({ path: `${dir}/t.jsonl`, trajectories: [] });
 * assert.deepEqual(await readSidecar({ path: `${dir}/t.jsonl` }), []);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeSidecar(options: {
  /** The sidecar file. */
  path: string;
  /** Its pair trajectories, in the rows' order. */
  trajectories: readonly PairTrajectory[];
}): Promise<SidecarEncoder> {
  const encoder = new SidecarEncoder();
  await writeFileAtomic({
    path: options.path,
    data: options.trajectories.map((t) => encoder.encode(t)).join(""),
  });
  return encoder;
}
