/**
 * Why a path cannot serve as an output file, an input file, an output or input directory or a
 * SQLite database, checked before any work starts, so a run never fails at its end (or leaves a
 * partial file) because its output directory is missing, a directory or read-only.
 */
import { dirname } from "node:path";

/** What a path is for. */
export type PathUse = "output-file" | "input-file" | "output-dir" | "input-dir" | "database";

const _SQLITE_HEADER = "SQLite format 3\u0000";

function _stat(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

function _reason(e: unknown): string {
  return (e as Error).message.split(/ \(os error|\n/)[0];
}

/** Root ignores mode bits, so only an attempt tells whether a directory takes new files. */
function _unwritableDir(dir: string): string | null {
  try {
    const probe = Deno.makeTempFileSync({ dir, prefix: ".memgauge-probe-" });
    Deno.removeSync(probe);
    return null;
  } catch (e) {
    return `directory ${JSON.stringify(dir)} is not writable (${_reason(e)})`;
  }
}

/** Opening for writing without create or truncate changes nothing but tells the truth. */
function _unwritableFile(path: string): string | null {
  try {
    Deno.openSync(path, { write: true }).close();
    return null;
  } catch (e) {
    return `${JSON.stringify(path)} is read-only (${_reason(e)})`;
  }
}

function _parentProblem(path: string): string | null {
  const dir = dirname(path);
  const info = _stat(dir);
  if (!info) return `directory ${JSON.stringify(dir)} does not exist`;
  if (!info.isDirectory) return `${JSON.stringify(dir)} is not a directory`;
  return _unwritableDir(dir);
}

function _nearestAncestorProblem(path: string): string | null {
  let dir = dirname(path);
  while (!_stat(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const info = _stat(dir);
  if (!info) return `directory ${JSON.stringify(dir)} does not exist`;
  if (!info.isDirectory) return `${JSON.stringify(dir)} is not a directory`;
  return _unwritableDir(dir);
}

function _notRegular(quoted: string): string {
  return `${quoted} is not a regular file (a FIFO, socket or device)`;
}

/**
 * Offset of the first byte of `path` that is not UTF-8, or null. Read in 64 KiB blocks (a file
 * of any size, in bounded memory: one string of a whole file would exceed V8's 512 MiB limit).
 */
function _firstBadUtf8(path: string): number | null {
  const file = Deno.openSync(path, { read: true });
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const buf = new Uint8Array(64 << 10);
    let base = 0, tail: Uint8Array = new Uint8Array(0);
    for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
      const block = buf.subarray(0, n);
      try {
        decoder.decode(block, { stream: true });
      } catch {
        // The decoder may hold an unfinished character from the block before: search from it.
        const window = new Uint8Array(tail.length + n);
        window.set(tail), window.set(block, tail.length);
        return base - tail.length + _badByte(window);
      }
      tail = _unfinished(tail, block);
      base += n;
    }
    try {
      decoder.decode();
    } catch {
      return base - tail.length;
    }
    return null;
  } finally {
    file.close();
  }
}

/** The bytes of an unfinished character at the end of `before` + `block` (0 to 3 bytes). */
function _unfinished(before: Uint8Array, block: Uint8Array): Uint8Array {
  const joined = block.length >= 3 ? block : new Uint8Array([...before, ...block]);
  const end = joined.length;
  for (let i = end - 1; i >= Math.max(0, end - 3); i--) {
    const b = joined[i];
    if ((b & 0xc0) === 0x80) continue;
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return end - i < size ? joined.slice(i) : new Uint8Array(0);
  }
  return new Uint8Array(0);
}

/** Offset of the first byte where UTF-8 decoding fails. */
function _badByte(bytes: Uint8Array): number {
  let lo = 0, hi = bytes.length;
  const ok = (n: number) => {
    try {
      // A prefix ending inside a character is fine when only the end is cut.
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The reason `path` cannot be used as `use`, or null when it can. Nothing is created or
 * changed (a probe file made to test a directory is removed at once).
 * - output-file: not a directory; its directory exists and is writable; an existing file is
 *   writable.
 * - input-file: exists, is a regular file (a FIFO, socket or device would block or never end),
 *   is readable, is not empty when `nonEmpty`, and is valid UTF-8 when `utf8`.
 * - output-dir: an existing directory that is writable, or a missing one whose parent is.
 * - input-dir: an existing directory.
 * - database: an existing file must be a regular file, a SQLite database (or empty) and
 *   writable; a missing one needs a writable ancestor directory (its directories are created).
 * An existing output file must be a regular file too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathProblem } from "./path_problem.ts";
 * const dir = await Deno.makeTempDir();
 * assert.equal(pathProblem({ path: `${dir}/out.csv`, use: "output-file" }), null);
 * assert.match(pathProblem({ path: `${dir}/no/out.csv`, use: "output-file" })!, /does not exist/);
 * assert.match(pathProblem({ path: dir, use: "output-file" })!, /is a directory/);
 * await Deno.writeTextFile(`${dir}/c.sqlite`, "not a database");
 * assert.match(pathProblem({ path: `${dir}/c.sqlite`, use: "database" })!, /not a SQLite database/);
 * await Deno.writeFile(`${dir}/i.json`, new Uint8Array([0x7b, 0xff, 0x7d]));
 * assert.match(pathProblem({ path: `${dir}/i.json`, use: "input-file", utf8: true })!, /not UTF-8 text \(the first bad byte is at offset 1\)/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function pathProblem(options: {
  /** The path as the user gave it. */
  path: string;
  /** What it is for. */
  use: PathUse;
  /** Input files only: an empty file is a problem; default false. */
  nonEmpty?: boolean;
  /** Input files only: bytes that are not UTF-8 are a problem (read once); default false. */
  utf8?: boolean;
}): string | null {
  const { path, use } = options;
  if (path === "") return "the path is empty";
  const info = _stat(path);
  const quoted = JSON.stringify(path);
  switch (use) {
    case "output-file":
      if (info?.isDirectory) return `${quoted} is a directory, not a file`;
      if (info && !info.isFile) return _notRegular(quoted);
      return _parentProblem(path) ?? (info ? _unwritableFile(path) : null);
    case "input-file": {
      if (!info) return `${quoted} does not exist`;
      if (info.isDirectory) return `${quoted} is a directory, not a file`;
      if (!info.isFile) return _notRegular(quoted);
      let bad: number | null = null;
      try {
        if (options.utf8) bad = _firstBadUtf8(path);
        else Deno.openSync(path, { read: true }).close();
      } catch (e) {
        return `${quoted} cannot be read (${_reason(e)})`;
      }
      if (options.nonEmpty && info.size === 0) return `${quoted} is empty`;
      if (bad !== null) {
        return `${quoted} is not UTF-8 text (the first bad byte is at offset ${bad})`;
      }
      return null;
    }
    case "output-dir":
      if (!info) return _parentProblem(path);
      if (!info.isDirectory) return `${quoted} is not a directory`;
      return _unwritableDir(path);
    case "input-dir":
      if (!info) return `directory ${quoted} does not exist`;
      return info.isDirectory ? null : `${quoted} is not a directory`;
    case "database": {
      if (path === ":memory:") return null;
      if (!info) return _nearestAncestorProblem(path);
      if (info.isDirectory) return `${quoted} is a directory, not a database file`;
      if (!info.isFile) return _notRegular(quoted);
      if (info.size > 0) {
        const head = new Uint8Array(16);
        const file = Deno.openSync(path, { read: true });
        const n = file.readSync(head) ?? 0;
        file.close();
        if (n < 16 || new TextDecoder().decode(head) !== _SQLITE_HEADER) {
          return `${quoted} is not a SQLite database (delete it, or pass another path)`;
        }
      }
      // WAL mode writes -wal and -shm files beside the database.
      return _unwritableFile(path) ?? _unwritableDir(dirname(path));
    }
  }
}
