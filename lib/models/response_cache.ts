/**
 * A content-addressed response cache in SQLite (node:sqlite), shared by runs and processes. It
 * holds only replies that were valid when stored; it records its schema version. Writes are
 * queued and stored in batches, one transaction each, off the request path; a write that fails
 * (a full disk) is reported as what it is and never fails the call whose answer it was storing.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { z } from "zod";
import { redact } from "./redact.ts";

/** Version of the cache's tables and values; a file from a newer kit is refused. */
export const CACHE_SCHEMA_VERSION = 2;

/**
 * A stored reply: the message content as the provider sent it (reasoning blocks included, so a
 * better splitter can re-read it), the provider's reasoning field, the finish reason and usage.
 */
export const CachedReply = z.object({
  content: z.string(),
  reasoning: z.string().nullable().default(null),
  stopReason: z.string().nullable().default(null),
  promptTokens: z.number().nullable().default(null),
  completionTokens: z.number().nullable().default(null),
  /** Function calls the reply made (absent when none). */
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }))
    .optional(),
  /** The model's refusal (OpenAI `message.refusal`), absent when it answered. */
  refusal: z.string().optional(),
});
/** A stored reply. */
export type CachedReply = z.infer<typeof CachedReply>;

/**
 * The cache key: a SHA-256 over base URL, model, messages, parameters, seed and trial. Auth
 * headers and keys are never part of it (they do not change the answer and must not be stored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheKey } from "./response_cache.ts";
 * const a = cacheKey({ baseUrl: "u", model: "m", body: { messages: [] }, trial: 0 });
 * assert.notEqual(a, cacheKey({ baseUrl: "u", model: "m", body: { messages: [] }, trial: 1 }));
 * ```
 */
export function cacheKey(options: {
  baseUrl: string;
  model: string;
  /** The request body without the model (messages, temperature, seed, response format, ...). */
  body: Record<string, unknown>;
  /** Independent repeat index: each trial has its own slot. */
  trial: number;
}): string {
  const canonical = JSON.stringify(
    [options.baseUrl.replace(/\/+$/, ""), options.model, _sorted(options.body), options.trial],
  );
  return createHash("sha256").update(canonical).digest("hex");
}

function _sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(_sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, _sorted((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A cache file that cannot be used; the message names the file and what to do. */
export class CacheFileError extends TypeError {
  override name = "CacheFileError";
}

/** Replies the cache could not store, as the run's report says it. */
export interface CacheWriteProblem {
  /** Replies received but not stored (they were used; a rerun asks for them again). */
  unstored: number;
  /** What SQLite said the first time, in one line. */
  message: string;
}

// SQLite result codes that mean the file (or disk) cannot take the write, not a foreign file.
const _IO_CODES = new Set([3, 5, 6, 8, 10, 13, 14, 15]); // PERM BUSY LOCKED READONLY IOERR FULL CANTOPEN PROTOCOL

function _sqlite(e: unknown): string {
  const err = e as { errstr?: string; message?: string };
  return err.errstr ?? err.message ?? String(e);
}

// node:sqlite gives `errcode` for statements but not always for `exec`: read the text too.
const _IO_TEXT =
  /disk is full|disk I\/O error|readonly database|read-only|unable to open|database is locked|permission denied/i;

function _isIo(e: unknown): boolean {
  const code = (e as { errcode?: number }).errcode;
  return (code !== undefined && _IO_CODES.has(code & 0xff)) || _IO_TEXT.test(_sqlite(e));
}

/** Default report of a cache write failure: one line on stderr, once per cache. */
function _warn(path: string, problem: CacheWriteProblem): void {
  console.error(
    `memgauge: warning: --cache ${path}: replies cannot be stored (SQLite: ${problem.message}); ` +
      "the answers received are used for this run's rows, but a rerun asks for them again",
  );
}

interface _Pending {
  json: string;
  /** The run that asked for it (claims), or null. */
  run: string | null;
}

/**
 * A key-value store of replies. WAL mode and a busy timeout make concurrent writers (several
 * processes on one file) wait rather than fail; `INSERT OR IGNORE` makes a duplicate write of
 * the same key harmless (same key, same request). A missing file is created on the first stored
 * write only, so a run that fails before asking anything leaves no file. An existing file that is
 * not a cache (or is damaged) throws a {@link CacheFileError} when opened; a stored value that
 * does not parse is a miss (and is removed, so the next answer can take its place).
 *
 * `set` queues: values are visible to `get` at once and stored in one transaction per batch
 * (every 20 ms, every 256 values, on `flush()` and on `close()`), so storing costs a request
 * nothing. A batch that cannot be stored (disk full, file read-only) keeps its values in memory
 * for this process, counts them in `writeProblem`, and calls `onWriteFailure` once; the calls
 * whose answers they are never fail because of it.
 *
 * The `claims` table remembers, per run, which row of the run first asked for a reply (see
 * `claim`), so a row's `cacheHit` does not depend on timing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponseCache } from "./response_cache.ts";
 * const cache = new ResponseCache({ path: ":memory:" });
 * cache.set("k", { content: "hi" });
 * assert.deepEqual(cache.get("k"), { content: "hi", reasoning: null, stopReason: null, promptTokens: null, completionTokens: null });
 * assert.equal(cache.schemaVersion, 2);
 * cache.close();
 * ```
 */
export class ResponseCache {
  readonly path: string;
  #db: DatabaseSync | undefined;
  #statements = new Map<string, StatementSync>();
  #pending = new Map<string, _Pending>();
  /** Values that could not be stored: still served to this process. */
  #unstored = new Map<string, _Pending>();
  #claimsDirty = new Map<string, number>();
  #claims = new Map<string, number | null>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #problem: CacheWriteProblem | null = null;
  #onWriteFailure: (problem: CacheWriteProblem) => void;
  #maxPages: number | undefined;

  constructor(options: {
    /** SQLite file, created (with its directory) on the first write; `:memory:` for a throwaway cache. */
    path: string;
    /**
     * Called once, at the first batch that cannot be stored; default a warning line on stderr.
     */
    onWriteFailure?: (problem: CacheWriteProblem) => void;
    /**
     * Most pages the file may grow to (SQLite `max_page_count`): a full disk in tests; default
     * none.
     */
    maxPages?: number;
  }) {
    this.path = options.path;
    this.#onWriteFailure = options.onWriteFailure ?? ((p) => _warn(this.path, p));
    this.#maxPages = options.maxPages;
    if (this.path === ":memory:" || existsSync(this.path)) this.#open();
  }

  #fail(what: string): never {
    throw new CacheFileError(
      `--cache ${this.path}: ${what}; move the file away or pass another --cache path`,
    );
  }

  #statement(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) this.#statements.set(sql, s = this.#open().prepare(sql));
    return s;
  }

  #open(): DatabaseSync {
    if (this.#db) return this.#db;
    if (this.path !== ":memory:") mkdirSync(dirname(this.path), { recursive: true });
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(this.path);
    } catch (e) {
      this.#fail(`cannot be opened (${(e as Error).message})`);
    }
    try {
      db.exec("PRAGMA busy_timeout = 10000");
      if (this.#maxPages !== undefined) db.exec(`PRAGMA max_page_count = ${this.#maxPages}`);
      // Another program's database is not ours to add tables to.
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[]).map((t) => t.name);
      if (tables.length > 0 && !tables.includes("responses")) {
        db.close();
        this.#fail(
          `is a SQLite database but not a memgauge response cache (tables ${tables.join(", ")})`,
        );
      }
      if (this.path !== ":memory:") {
        db.exec("PRAGMA journal_mode = WAL");
        // A cache may lose its last batch on a power cut, never its consistency.
        db.exec("PRAGMA synchronous = NORMAL");
      }
      db.exec(
        "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created TEXT NOT NULL)",
      );
      db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      // Which row of a run first asked for a reply (older kits ignore this table).
      db.exec(
        "CREATE TABLE IF NOT EXISTS claims (key TEXT NOT NULL, run TEXT NOT NULL, ord INTEGER, PRIMARY KEY (key, run))",
      );
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
        | { value: string }
        | undefined;
      const version = row === undefined ? undefined : Number(row.value);
      if (version !== undefined && !(version <= CACHE_SCHEMA_VERSION)) {
        db.close();
        this.#fail(
          `written by a newer memgauge (cache schema ${
            row!.value
          }, this kit reads ${CACHE_SCHEMA_VERSION})`,
        );
      }
      // Version 1 files hold the same values without reasoning and stop reason: read as they are.
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)")
        .run(String(CACHE_SCHEMA_VERSION));
    } catch (e) {
      if (e instanceof CacheFileError) throw e;
      try {
        db.close();
      } catch { /* already unusable */ }
      // A full disk or a read-only file is a cache that cannot be written, not a foreign file.
      if (_isIo(e)) this.#fail(`cannot be written (SQLite: ${_sqlite(e)})`);
      this.#fail(`is not a memgauge response cache (SQLite: ${_sqlite(e)})`);
    }
    this.#db = db;
    return db;
  }

  /** The schema version the file records. */
  get schemaVersion(): number {
    return CACHE_SCHEMA_VERSION;
  }

  /** Replies received but not stored, or null when every write succeeded. */
  get writeProblem(): CacheWriteProblem | null {
    return this.#problem && { ...this.#problem, unstored: this.#unstored.size };
  }

  /** The stored reply, or undefined (also for a value that does not parse, which is removed). */
  get(key: string): CachedReply | undefined {
    let value = this.#pending.get(key)?.json ?? this.#unstored.get(key)?.json;
    if (value === undefined) {
      if (!this.#db) return undefined;
      const row = this.#statement("SELECT value FROM responses WHERE key = ?").get(key) as
        | { value: string }
        | undefined;
      if (row === undefined) return undefined;
      value = row.value;
    }
    let parsed;
    try {
      parsed = CachedReply.safeParse(JSON.parse(value));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      this.delete(key);
      return undefined;
    }
    return parsed.data;
  }

  /**
   * Queue a reply for storing (first write wins); its text passes through the redaction layer.
   * `run` records that this run asked for it (see `claim`).
   */
  set(key: string, value: z.input<typeof CachedReply>, options: { run?: string } = {}): void {
    if (this.#pending.has(key) || this.#unstored.has(key)) return;
    const json = redact({ text: JSON.stringify(CachedReply.parse(value)) });
    const run = options.run ?? null;
    this.#pending.set(key, { json, run });
    if (this.#pending.size >= 256) this.flush();
    else if (this.#timer === undefined) {
      const timer = setTimeout(() => {
        this.#timer = undefined;
        this.flush();
      }, 20);
      Deno.unrefTimer(timer as unknown as number);
      this.#timer = timer;
    }
  }

  /**
   * Whether the reply under `key` was there for row `ord` of `run` without that row asking for
   * it: true when another run (or no run) put it in the cache, or an earlier row (lower `ord`)
   * of this run asked for it first. Otherwise the row claims it (false). Rows must be settled in
   * plan order; the answer then does not depend on which request finished first, on the
   * concurrency, or on where a run was interrupted and resumed.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ResponseCache } from "./response_cache.ts";
   * const cache = new ResponseCache({ path: ":memory:" });
   * cache.set("k", { content: "hi" }, { run: "r" });
   * assert.equal(cache.claim({ key: "k", run: "r", ord: 5 }), false); // row 5 asked for it
   * assert.equal(cache.claim({ key: "k", run: "r", ord: 9 }), true); // row 9 reuses it
   * assert.equal(cache.claim({ key: "k", run: "other", ord: 0 }), true); // another run's reply
   * cache.close();
   * ```
   */
  claim(options: { key: string; run: string; ord: number }): boolean {
    const { key, run, ord } = options;
    const id = _claimKey(key, run);
    let claimed = this.#claims.get(id);
    if (claimed === undefined) {
      const row = this.#db
        ? this.#statement("SELECT ord FROM claims WHERE key = ? AND run = ?").get(key, run) as
          | { ord: number | null }
          | undefined
        : undefined;
      const queued = this.#pending.get(key) ?? this.#unstored.get(key);
      if (row !== undefined) claimed = row.ord;
      else if (queued?.run === run) claimed = null;
      // No claim: this run never stored it, so it was in the cache before (another run's).
      else return true;
      this.#claims.set(id, claimed);
    }
    if (claimed !== null && claimed < ord) return true;
    if (claimed !== ord) {
      this.#claims.set(id, ord);
      this.#claimsDirty.set(id, ord);
    }
    return false;
  }

  /** Store every queued reply and claim now, in one transaction. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#pending.size === 0 && this.#claimsDirty.size === 0) return;
    const pending = [...this.#pending];
    const claims = [...this.#claimsDirty];
    this.#pending.clear();
    this.#claimsDirty.clear();
    if (this.#problem) {
      // The disk said no once: keep what comes in memory rather than failing again per batch.
      for (const [key, p] of pending) this.#unstored.set(key, p);
      return;
    }
    let db: DatabaseSync;
    try {
      db = this.#open();
    } catch (e) {
      // "cannot be written (SQLite: database or disk is full)": what SQLite said.
      const said = /\(SQLite: (.*)\)/.exec((e as Error).message)?.[1];
      this.#failedWrite(pending, said ?? _sqlite(e));
      return;
    }
    const created = new Date().toISOString();
    try {
      db.exec("BEGIN IMMEDIATE");
      const insert = this.#statement(
        "INSERT OR IGNORE INTO responses (key, value, created) VALUES (?, ?, ?)",
      );
      const own = this.#statement(
        "INSERT OR IGNORE INTO claims (key, run, ord) VALUES (?, ?, NULL)",
      );
      for (const [key, p] of pending) {
        insert.run(key, p.json, created);
        if (p.run !== null) own.run(key, p.run);
      }
      const set = this.#statement(
        "INSERT INTO claims (key, run, ord) VALUES (?, ?, ?) ON CONFLICT (key, run) DO UPDATE SET ord = excluded.ord",
      );
      for (const [id, ord] of claims) {
        const [key, run] = _splitClaim(id);
        set.run(key, run, ord);
      }
      db.exec("COMMIT");
    } catch (e) {
      try {
        db.exec("ROLLBACK");
      } catch { /* no transaction left */ }
      this.#failedWrite(pending, _sqlite(e));
    }
  }

  #failedWrite(pending: [string, _Pending][], message: string): void {
    for (const [key, p] of pending) this.#unstored.set(key, p);
    const first = this.#problem === null;
    this.#problem = { unstored: this.#unstored.size, message: message.replace(/\s+/g, " ") };
    if (first) this.#onWriteFailure(this.writeProblem!);
  }

  /** Remove a reply (one that turned out invalid), so the next answer is stored in its place. */
  delete(key: string): void {
    this.#pending.delete(key);
    this.#unstored.delete(key);
    if (this.#db) this.#statement("DELETE FROM responses WHERE key = ?").run(key);
  }

  /** Number of stored responses (queued ones are stored first). */
  get size(): number {
    this.flush();
    if (!this.#db) return this.#unstored.size;
    return (this.#statement("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n +
      this.#unstored.size;
  }

  /** Store what is queued and close the file. */
  close(): void {
    this.flush();
    this.#statements.clear();
    this.#db?.close();
    this.#db = undefined;
  }
}

const _claimKey = (key: string, run: string) => `${key}\0${run}`;
const _splitClaim = (id: string) => id.split("\0") as [string, string];
