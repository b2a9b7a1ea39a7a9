/**
 * One writer per output: an exclusive lock held by the operating system on a file beside `--out`
 * (`OUT.lock`, `Deno.FsFile.tryLock`). The kernel releases it when the writer's process dies, by
 * any means (kill -9 included), even while the dead process waits unreaped as a zombie; the file
 * says who holds it, for the message a second writer gets.
 */
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

function _host(): string {
  try {
    return hostname();
  } catch {
    return "";
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

function _sameFile(file: Deno.FsFile, path: string): boolean {
  try {
    const a = file.statSync(), b = Deno.statSync(path);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/**
 * Take the lock of `out`, or throw an {@link OutLockedError} naming the process that holds it.
 * The lock is the operating system's (an exclusive `flock` on `OUT.lock`), so a lock whose
 * process has died is free at once, whatever the file still says; a second writer in this same
 * process is refused too. `release` removes the file and unlocks it.
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
  for (let attempt = 0; attempt < 5; attempt++) {
    const file = Deno.openSync(path, { read: true, write: true, create: true, mode: 0o644 });
    let locked = false;
    try {
      locked = file.tryLockSync(true);
    } catch (e) {
      file.close();
      throw e;
    }
    if (!locked) {
      file.close();
      const holder = _read(path);
      throw new OutLockedError(
        holder
          ? `--out ${options.out}: another ${holder.command} (process ${holder.pid}${
            holder.host !== me.host ? ` on ${holder.host}` : ""
          }, since ${holder.since}) is writing it; wait for it to end, or give another --out`
          : `--out ${options.out}: another process holds the lock ${path}; wait for it to end, ` +
            `or give another --out`,
      );
    }
    // A writer releasing its lock removes the file: if that happened between our open and our
    // lock, we hold a lock on a file nobody else will open. Take the one the path names now.
    if (!_sameFile(file, path)) {
      file.close();
      continue;
    }
    file.truncateSync(0);
    file.writeSync(new TextEncoder().encode(JSON.stringify(me) + "\n"));
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        // Removed while still locked, so no one can lock this file after us.
        try {
          Deno.removeSync(path);
        } catch { /* already gone */ }
        try {
          file.unlockSync();
        } catch { /* closing unlocks too */ }
        file.close();
      },
    };
  }
  throw new OutLockedError(`--out ${options.out}: could not take the lock ${path}`);
}
