/**
 * A content-addressed response cache in SQLite (node:sqlite), shared by runs and processes. It
 * holds only replies that were valid when stored; it records its schema version.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
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

/**
 * A key-value store of replies. WAL mode and a busy timeout make concurrent writers (several
 * processes on one file) wait rather than fail; `INSERT OR IGNORE` makes a duplicate write of
 * the same key harmless (same key, same request). A missing file is created on the first write
 * only, so a run that fails before asking anything leaves no file. An existing file that is not
 * a cache (or is damaged) throws a {@link CacheFileError} when opened; a stored value that does
 * not parse is a miss (and is removed, so the next answer can take its place).
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

  constructor(options: {
    /** SQLite file, created (with its directory) on the first write; `:memory:` for a throwaway cache. */
    path: string;
  }) {
    this.path = options.path;
    if (this.path === ":memory:" || existsSync(this.path)) this.#open();
  }

  #fail(what: string): never {
    throw new CacheFileError(
      `--cache ${this.path}: ${what}; move the file away or pass another --cache path`,
    );
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
      if (this.path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
      db.exec(
        "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created TEXT NOT NULL)",
      );
      db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
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
      this.#fail(`is not a memgauge response cache (SQLite: ${(e as Error).message})`);
    }
    this.#db = db;
    return db;
  }

  /** The schema version the file records. */
  get schemaVersion(): number {
    return CACHE_SCHEMA_VERSION;
  }

  /** The stored reply, or undefined (also for a value that does not parse, which is removed). */
  get(key: string): CachedReply | undefined {
    if (!this.#db) return undefined;
    const row = this.#db.prepare("SELECT value FROM responses WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    if (row === undefined) return undefined;
    let parsed;
    try {
      parsed = CachedReply.safeParse(JSON.parse(row.value));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      this.delete(key);
      return undefined;
    }
    return parsed.data;
  }

  /** Store a reply (first write wins); its text passes through the redaction layer. */
  set(key: string, value: z.input<typeof CachedReply>): void {
    const json = redact({ text: JSON.stringify(CachedReply.parse(value)) });
    this.#open().prepare(
      "INSERT OR IGNORE INTO responses (key, value, created) VALUES (?, ?, ?)",
    ).run(key, json, new Date().toISOString());
  }

  /** Remove a reply (one that turned out invalid), so the next answer is stored in its place. */
  delete(key: string): void {
    this.#db?.prepare("DELETE FROM responses WHERE key = ?").run(key);
  }

  /** Number of stored responses. */
  get size(): number {
    if (!this.#db) return 0;
    return (this.#db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n;
  }

  close(): void {
    this.#db?.close();
    this.#db = undefined;
  }
}
