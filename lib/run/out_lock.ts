/**
 * One writer per output: a lock file beside `--out` (`OUT.lock`), created exclusively, holding
 * the writer's process id. A second writer is refused while that process lives; a lock left by
 * a killed process (`kill -9`) is taken over.
 */
import process from "node:process";
import { hostname } from "node:os";

/** The lock file of an output path. */
export function lockPath(out: string): string {
  return `${out}.lock`;
}

/** What a lock file says about its holder. */
interface _Holder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** A held lock; `release` is synchronous, so a signal handler can call it right before exit. */
export interface OutLock {
  readonly path: string;
  release(): void;
}

/** Another live process holds the output. */
export class OutLockedError extends RangeError {
  override name = "OutLockedError";
}

function _alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as { code?: string }).code === "EPERM";
  }
}

function _host(): string {
  try {
    return hostname();
  } catch {
    return "";
  }
}

function _young(path: string): boolean {
  try {
    const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
    return Date.now() - mtime < 5000;
  } catch {
    return false;
  }
}

function _read(path: string): _Holder | null {
  try {
    const holder = JSON.parse(Deno.readTextFileSync(path));
    return typeof holder?.pid === "number" ? holder : null;
  } catch {
    return null;
  }
}

/**
 * Take the lock of `out`, or throw an {@link OutLockedError} naming the process that holds it.
 * A lock whose process is gone (on this host), or that cannot be read, is replaced.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockOut } from "./out_lock.ts";
 * const dir = await Deno.makeTempDir();
 * const lock = lockOut({ out: `${dir}/rows.jsonl`, command: "sweep" });
 * assert.throws(() => lockOut({ out: `${dir}/rows.jsonl`, command: "sweep" }), /--out .*rows\.jsonl: another sweep \(process \d+/);
 * lock.release();
 * lockOut({ out: `${dir}/rows.jsonl`, command: "sweep" }).release();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function lockOut(options: {
  /** The output path (`--out`). */
  out: string;
  /** Who writes it, for the message a second writer gets (`sweep`). */
  command: string;
}): OutLock {
  const path = lockPath(options.out);
  const me: _Holder = {
    pid: Deno.pid,
    host: _host(),
    command: options.command,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = Deno.openSync(path, { write: true, createNew: true });
      try {
        file.writeSync(new TextEncoder().encode(JSON.stringify(me) + "\n"));
      } finally {
        file.close();
      }
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          // Only our own lock: never remove one another process took over.
          if (_read(path)?.pid === me.pid) {
            try {
              Deno.removeSync(path);
            } catch { /* already gone */ }
          }
        },
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    const holder = _read(path);
    if (holder === null && _young(path)) {
      // Just created by another writer that has not written its pid yet.
      throw new OutLockedError(
        `--out ${options.out}: another process is taking the lock ${path}; give another --out`,
      );
    }
    // Our own pid counts as live: a second writer in this process is refused too.
    const live = holder !== null && (holder.host !== me.host || _alive(holder.pid));
    if (live) {
      throw new OutLockedError(
        `--out ${options.out}: another ${holder.command} (process ${holder.pid}${
          holder.host !== me.host ? ` on ${holder.host}` : ""
        }, since ${holder.since}) is writing it; wait for it to end, or give another --out ` +
          `(remove ${path} only if that process is gone)`,
      );
    }
    // A stale lock (its process is gone) or a torn one: replace it. If two processes race
    // here, only one `createNew` succeeds.
    try {
      Deno.removeSync(path);
    } catch { /* removed by the other racer */ }
  }
  throw new OutLockedError(`--out ${options.out}: could not take the lock ${path}`);
}
