/**
 * What batch export wrote, remembered beside the response cache (`CACHE.batch-exports.jsonl`,
 * one line per exported request), so import can tell a `custom_id` of this plan from one that
 * belongs to no export made with this cache (another cache's batch, an old round of a sweep
 * whose options changed).
 */
import { appendFileSync, chmodSync, existsSync, readFileSync } from "node:fs";
import type { PlannedRequest } from "../plan/request_plan.ts";

/** The file beside a cache that lists the requests exported with it. */
export function batchExportsPath(cachePath: string): string {
  return `${cachePath}.batch-exports.jsonl`;
}

/**
 * Remember the requests of an export (appended: every round of every export adds its lines).
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
  if (options.cachePath === ":memory:" || options.requests.length === 0) return;
  const exported = new Date().toISOString();
  const lines = options.requests.map((r) =>
    JSON.stringify({
      customId: r.customId,
      phase: r.phase,
      model: String(r.body.model),
      round: options.round,
      exported,
    }) + "\n"
  );
  // 0644 whatever the umask (node's default mode is 0666).
  appendFileSync(batchExportsPath(options.cachePath), lines.join(""), { mode: 0o644 });
  chmodSync(batchExportsPath(options.cachePath), 0o644);
}

/** Every `custom_id` exported with this cache; null when no export was recorded for it. */
export function exportedBatchIds(options: {
  /** The response cache file (`--cache`). */
  cachePath: string;
}): Set<string> | null {
  const path = batchExportsPath(options.cachePath);
  if (options.cachePath === ":memory:" || !existsSync(path)) return null;
  const ids = new Set<string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      const id = JSON.parse(line)?.customId;
      if (typeof id === "string") ids.add(id);
    } catch {
      // A line cut short by a killed export: its requests are exported again next time.
    }
  }
  return ids;
}
