/** A content-addressed response cache in SQLite (node:sqlite), shared by runs and processes. */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";

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

/**
 * A key-value store of responses. WAL mode and a busy timeout make concurrent writers (several
 * processes on one file) wait rather than fail; `INSERT OR IGNORE` makes a duplicate write of
 * the same key harmless (same key, same request).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponseCache } from "./response_cache.ts";
 * const cache = new ResponseCache({ path: ":memory:" });
 * cache.set("k", { content: "hi" });
 * assert.deepEqual(cache.get("k"), { content: "hi" });
 * cache.close();
 * ```
 */
export class ResponseCache {
  #db: DatabaseSync;

  constructor(options: {
    /** SQLite file, created with its directory; `:memory:` for a throwaway cache. */
    path: string;
  }) {
    if (options.path !== ":memory:") mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new DatabaseSync(options.path);
    this.#db.exec("PRAGMA busy_timeout = 10000");
    if (options.path !== ":memory:") this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec(
      "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created TEXT NOT NULL)",
    );
  }

  /** The stored value, or undefined. */
  get(key: string): unknown {
    const row = this.#db.prepare("SELECT value FROM responses WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row === undefined ? undefined : JSON.parse(row.value);
  }

  /** Store a value (first write wins). */
  set(key: string, value: unknown): void {
    this.#db.prepare("INSERT OR IGNORE INTO responses (key, value, created) VALUES (?, ?, ?)")
      .run(key, JSON.stringify(value), new Date().toISOString());
  }

  /** Number of stored responses. */
  get size(): number {
    return (this.#db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n;
  }

  close(): void {
    this.#db.close();
  }
}
