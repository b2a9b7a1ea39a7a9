/**
 * Built instances kept on disk, so a benchmark is built once per setting rather than on every
 * run and test. A cache file is keyed by the hash of the dataset's raw files, the builder's
 * version (a hash of the code that builds), the seed and the build options; it holds its own
 * checksum, and a file that fails it is rebuilt with a warning.
 */
import { createHash } from "node:crypto";
import type { Instance } from "../schema/instance.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";

/** Where and how instances are cached. */
export interface InstanceCacheOptions {
  /** Folder of the cache files; default `.memgauge/instances` (beside the response cache). */
  dir?: string;
  /** Build again and overwrite the cache file, whatever it holds; default false. */
  rebuild?: boolean;
  /** Where a warning line goes (a corrupt or unwritable cache); default `console.error`. */
  warn?: (line: string) => void;
}

/** What one build depends on; two builds with equal keys give the same instances. */
export interface InstanceCacheKey {
  /** Registry name of the dataset. */
  dataset: string;
  /** sha256 over the names and bytes of the dataset's raw files. */
  sources: string;
  /** sha256 over the source of the code that builds ({@link builderVersion}). */
  builder: string;
  seed: number;
  bankSize: number;
  traceLoad: number;
  /** Instances sampled; null when the builder's default. */
  count: number | null;
}

/** The default cache folder, relative to the working directory (git-ignored). */
export const INSTANCE_CACHE_DIR = ".memgauge/instances";

/** Bump to drop every cache file of an older layout. */
const _FORMAT = 1;

/**
 * The folders under `lib/` whose code a dataset build runs (its whole import graph; a test holds
 * this list against `deno info`).
 */
export const BUILDER_FOLDERS = ["data", "text", "schema", "random"] as const;

function _sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

async function _filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await _filesUnder(dir, rel));
    else if (entry.isFile) out.push(rel);
  }
  return out.sort();
}

/** sha256 over every regular file under `dir`, names and bytes, in name order. */
async function _treeHash(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const rel of await _filesUnder(dir)) {
    hash.update(`${rel}\0`).update(await Deno.readFile(`${dir}/${rel}`)).update("\0");
  }
  return hash.digest("hex");
}

let _builder: Promise<string | null> | undefined;

/**
 * The builder's version: sha256 over the source files of {@link BUILDER_FOLDERS} and the pinned
 * npm imports of `deno.json`, so any change to the code that builds starts a new cache entry
 * without anyone remembering to bump a number. Null when the kit is not read from local files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { builderVersion } from "./instance_cache.ts";
 * assert.match((await builderVersion())!, /^[0-9a-f]{64}$/);
 * ```
 */
export function builderVersion(): Promise<string | null> {
  _builder ??= (async () => {
    const lib = new URL("../", import.meta.url);
    if (lib.protocol !== "file:") return null;
    try {
      const parts = [];
      for (const folder of BUILDER_FOLDERS) {
        parts.push(`${folder}:${await _treeHash(new URL(folder, lib).pathname)}`);
      }
      const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", lib)));
      parts.push(JSON.stringify(config.imports ?? {}));
      return _sha256(parts.join("\n"));
    } catch {
      return null;
    }
  })();
  return _builder;
}

/**
 * The cache key of one build, or null when it cannot be cached (a raw folder missing or
 * unreadable: the builder then says what is missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { instanceCacheKey } from "./instance_cache.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/raw`);
 * await Deno.writeTextFile(`${dir}/raw/a.json`, "[]");
 * const key = await instanceCacheKey({ dataset: "x", sourceDirs: [`${dir}/raw`], seed: 0, bankSize: 100, traceLoad: 1 });
 * assert.equal(key?.seed, 0);
 * assert.equal(await instanceCacheKey({ dataset: "x", sourceDirs: [`${dir}/none`], seed: 0, bankSize: 100, traceLoad: 1 }), null);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function instanceCacheKey(options: {
  /** Registry name of the dataset. */
  dataset: string;
  /** Folders holding the dataset's raw files (every file in them counts). */
  sourceDirs: readonly string[];
  seed: number;
  bankSize: number;
  traceLoad: number;
  /** Instances sampled; default the builder's. */
  count?: number;
}): Promise<InstanceCacheKey | null> {
  const builder = await builderVersion();
  if (builder === null) return null;
  const hashes: string[] = [];
  for (const dir of options.sourceDirs) {
    try {
      hashes.push(await _treeHash(dir));
    } catch {
      return null;
    }
  }
  return {
    dataset: options.dataset,
    sources: _sha256(hashes.join("\n")),
    builder,
    seed: options.seed,
    bankSize: options.bankSize,
    traceLoad: options.traceLoad,
    count: options.count ?? null,
  };
}

/** The cache file of a key: `<dir>/<dataset>-<first 24 hex of the key's sha256>.json`. */
export function instanceCachePath(options: { dir: string; key: InstanceCacheKey }): string {
  const { dir, key } = options;
  const id = _sha256(JSON.stringify({ format: _FORMAT, ...key })).slice(0, 24);
  return `${dir.replace(/\/+$/, "")}/${key.dataset}-${id}.json`;
}

/**
 * Read a cache file: its first line is a header (format, key, sha256 of the rest), the rest the
 * instances as JSON. Returns the instances, or the reason the file cannot be used.
 */
async function _read(
  path: string,
  key: InstanceCacheKey,
): Promise<{ instances: Instance[] } | { problem: string } | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    // Absent or unreadable: built, then written (which warns when it cannot be).
    return null;
  }
  const cut = text.indexOf("\n");
  if (cut < 0) return { problem: "no header line" };
  let header: { format?: unknown; key?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(text.slice(0, cut));
  } catch {
    return { problem: "the header is not JSON" };
  }
  if (header.format !== _FORMAT) return { problem: `format ${header.format}, expected ${_FORMAT}` };
  if (JSON.stringify(header.key) !== JSON.stringify(key)) {
    return { problem: "it holds another build's key" };
  }
  const body = text.slice(cut + 1);
  if (header.sha256 !== _sha256(body)) return { problem: "its checksum does not match" };
  try {
    const instances = JSON.parse(body);
    if (!Array.isArray(instances)) return { problem: "it holds no instance list" };
    return { instances };
  } catch {
    return { problem: "the instances are not JSON" };
  }
}

/**
 * Instances from the cache file of `key`, or built by `build` and written there (atomically).
 * A file that fails its checksum or does not parse is rebuilt with one warning line; a folder that
 * cannot be written leaves the build uncached, with one warning line. `key` null builds uncached.
 * Either way the instances returned are the JSON that the file holds (JSON is their file format,
 * as `--dataset FILE.json`): the first run sees what every later run reads back.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cachedInstances } from "./instance_cache.ts";
 * const dir = await Deno.makeTempDir();
 * const key = { dataset: "x", sources: "s", builder: "b", seed: 0, bankSize: 1, traceLoad: 1, count: null };
 * let builds = 0;
 * const build = () => Promise.resolve((builds++, [] as never[]));
 * await cachedInstances({ key, build, cache: { dir } });
 * await cachedInstances({ key, build, cache: { dir } });
 * assert.equal(builds, 1);
 * await cachedInstances({ key, build, cache: { dir, rebuild: true } });
 * assert.equal(builds, 2);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function cachedInstances(options: {
  /** The build's key; null when it cannot be cached. */
  key: InstanceCacheKey | null;
  /** Builds the instances. */
  build: () => Promise<Instance[]>;
  /** Cache options; default {@link InstanceCacheOptions}'s defaults. */
  cache?: InstanceCacheOptions;
}): Promise<Instance[]> {
  const { key, build } = options;
  if (key === null) return await build();
  const cache = options.cache ?? {};
  const dir = cache.dir ?? INSTANCE_CACHE_DIR;
  const warn = cache.warn ?? ((line: string) => console.error(line));
  const path = instanceCachePath({ dir, key });
  if (!cache.rebuild) {
    const found = await _read(path, key);
    if (found && "instances" in found) return found.instances;
    if (found) {
      warn(`memgauge: instance cache ${path} is unusable (${found.problem}); rebuilding it`);
    }
  }
  const body = JSON.stringify(await build());
  const header = JSON.stringify({ format: _FORMAT, key, sha256: _sha256(body) });
  try {
    await Deno.mkdir(dir, { recursive: true });
    await writeFileAtomic({ path, data: `${header}\n${body}` });
  } catch (e) {
    warn(`memgauge: instance cache ${dir} cannot be written (${(e as Error).message}); not cached`);
  }
  // What a later run reads back, so the first run and every later one see the same objects.
  return JSON.parse(body);
}
