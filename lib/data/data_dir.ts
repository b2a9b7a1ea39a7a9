/** Where the raw benchmark files live: env `MEMGAUGE_DATA`, else `data/raw/` (git-ignored). */

/** Options for {@link dataDir}. */
export interface DataDirOptions {
  /** Environment lookup; default reads `Deno.env` (returns undefined without env permission). */
  env?: (name: string) => string | undefined;
}

function _denoEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * The data directory: `MEMGAUGE_DATA` when set and non-empty, otherwise `data/raw/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dataDir } from "./data_dir.ts";
 * assert.deepEqual(dataDir({ env: () => undefined }), "data/raw/");
 * assert.deepEqual(dataDir({ env: () => "/srv/data" }), "/srv/data");
 * ```
 */
export function dataDir(options: DataDirOptions = {}): string {
  const value = (options.env ?? _denoEnv)("MEMGAUGE_DATA");
  return value !== undefined && value.trim() !== "" ? value : "data/raw/";
}
