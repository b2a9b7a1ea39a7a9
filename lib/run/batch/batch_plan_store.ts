/**
 * What batch export wrote, remembered in the response cache file (table `batch_exports`), so
 * import can tell a `custom_id` of this plan from one that belongs to no export of this cache
 * (another cache's batch, an old round of a changed sweep).
 */
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { PlannedRequest } from "../plan/request_plan.ts";

const _TABLE = "CREATE TABLE IF NOT EXISTS batch_exports (custom_id TEXT PRIMARY KEY, " +
  "phase TEXT NOT NULL, model TEXT NOT NULL, round INTEGER NOT NULL, exported TEXT NOT NULL)";

function _open(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 10000");
  return db;
}

/**
 * Remember the requests of an export (a request exported twice keeps its first record).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportedBatchIds, recordBatchExport } from "./batch_plan_store.ts";
 * const dir = await Deno.makeTempDir();
 * const cachePath = `${dir}/cache.sqlite`;
 * assert.equal(exportedBatchIds({ cachePath }), null);
 * recordBatchExport({ cachePath, round: 1, requests: [{ customId: "k", phase: "ranking", body: { model: "m" } }] });
 * assert.deepEqual([...exportedBatchIds({ cachePath })!], ["k"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function recordBatchExport(options: {
  /** The response cache file (`--cache`); `:memory:` records nothing. */
  cachePath: string;
  /** The batch round. */
  round: number;
  /** The exported requests. */
  requests: readonly PlannedRequest[];
}): void {
  if (options.cachePath === ":memory:") return;
  const db = _open(options.cachePath);
  try {
    db.exec(_TABLE);
    const insert = db.prepare(
      "INSERT OR IGNORE INTO batch_exports (custom_id, phase, model, round, exported) " +
        "VALUES (?, ?, ?, ?, ?)",
    );
    const now = new Date().toISOString();
    db.exec("BEGIN");
    for (const r of options.requests) {
      insert.run(r.customId, r.phase, String(r.body.model), options.round, now);
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** Every `custom_id` exported with this cache; null when no export was recorded in it. */
export function exportedBatchIds(options: {
  /** The response cache file (`--cache`). */
  cachePath: string;
}): Set<string> | null {
  if (options.cachePath === ":memory:" || !existsSync(options.cachePath)) return null;
  const db = _open(options.cachePath);
  try {
    const table = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'batch_exports'",
    ).get();
    if (!table) return null;
    const rows = db.prepare("SELECT custom_id FROM batch_exports").all() as {
      custom_id: string;
    }[];
    return new Set(rows.map((r) => r.custom_id));
  } finally {
    db.close();
  }
}
