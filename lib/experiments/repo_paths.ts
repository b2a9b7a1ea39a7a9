/**
 * Paths that resolve from the repository root, wherever the process runs: a Jupyter kernel runs
 * in `notebooks/`, a CLI in the root, a test anywhere. Relative paths a user gives are read
 * from the root too, so `data/raw/` means the same folder everywhere.
 */
import { isAbsolute, resolve } from "node:path";

/** The repository root (the folder that holds `lib/`), with a trailing slash. */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname;

/**
 * A path as given, made absolute against the repository root when it is relative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REPO_ROOT, repoPath } from "./repo_paths.ts";
 * assert.equal(repoPath({ path: "data/raw/" }), `${REPO_ROOT}data/raw`);
 * assert.equal(repoPath({ path: "/srv/data" }), "/srv/data");
 * ```
 */
export function repoPath(options: {
  /** A path, absolute or relative to the repository root. */
  path: string;
}): string {
  return isAbsolute(options.path) ? options.path : resolve(REPO_ROOT, options.path);
}

function _env(name: string): string | undefined {
  try {
    const value = Deno.env.get(name);
    return value === undefined || value.trim() === "" ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * The raw benchmark folder: `MEMGAUGE_DATA` (relative paths from the repository root), else
 * the root's `data/raw/`, where `deno task data` downloads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoDataDir } from "./repo_paths.ts";
 * assert.ok(repoDataDir().startsWith("/"));
 * ```
 */
export function repoDataDir(): string {
  return `${repoPath({ path: _env("MEMGAUGE_DATA") ?? "data/raw" })}/`;
}

/**
 * The response cache: `MEMGAUGE_CACHE` (relative paths from the repository root), else the
 * root's `.memgauge/cache.sqlite`, the CLIs' default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoCachePath } from "./repo_paths.ts";
 * assert.ok(repoCachePath().endsWith(".sqlite"));
 * ```
 */
export function repoCachePath(): string {
  const value = _env("MEMGAUGE_CACHE");
  if (value === ":memory:") return value;
  return repoPath({ path: value ?? ".memgauge/cache.sqlite" });
}
