/**
 * Write a file so that it is either absent or complete: the bytes go to a temporary name in
 * the same directory, which is renamed over the target only once they are all written. A kill
 * mid-write leaves the old file (or none) and a hidden temporary, never a valid-looking prefix.
 * The file is 0644, whatever the umask.
 */
import { basename, dirname, join } from "node:path";

/** The temporary name beside `path`: hidden, unique per call, recognisable by its suffix. */
function _temporary(path: string): string {
  const tag = crypto.randomUUID().slice(0, 8);
  return join(dirname(path), `.${basename(path)}.${tag}.tmp`);
}

async function _discard(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
}

/**
 * Run `write` on a temporary path beside `options.path`, then rename it to `options.path`.
 * For writers that take a path of their own (Polars' `writeCSV`, `writeParquet`); on any error
 * the temporary file is removed and the target is left as it was. Returns what `write` returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withAtomicPath } from "./atomic_write.ts";
 * const dir = await Deno.makeTempDir();
 * await withAtomicPath({ path: `${dir}/a.txt` }, (tmp) => Deno.writeTextFile(tmp, "done"));
 * assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "done");
 * await assert.rejects(withAtomicPath({ path: `${dir}/a.txt` }, () => { throw new Error("boom"); }));
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.txt"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function withAtomicPath<T>(
  options: {
    /** The file to create or replace. */
    path: string;
  },
  write: (temporaryPath: string) => T | Promise<T>,
): Promise<T> {
  const tmp = _temporary(options.path);
  try {
    const result = await write(tmp);
    // 0644 whatever the umask or the writer's own default (a container's umask is often 000).
    await Deno.chmod(tmp, 0o644);
    await Deno.rename(tmp, options.path);
    return result;
  } catch (error) {
    await _discard(tmp);
    throw error;
  }
}

/**
 * Write text or bytes to `path` atomically (temporary name, then rename).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeFileAtomic } from "./atomic_write.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic({ path: `${dir}/rows.csv`, data: "a,b\n1,2\n" });
 * assert.equal(await Deno.readTextFile(`${dir}/rows.csv`), "a,b\n1,2\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(options: {
  /** The file to create or replace. */
  path: string;
  /** Its whole content. */
  data: string | Uint8Array;
}): Promise<void> {
  const { data } = options;
  await withAtomicPath(
    options,
    (tmp) => typeof data === "string" ? Deno.writeTextFile(tmp, data) : Deno.writeFile(tmp, data),
  );
}
