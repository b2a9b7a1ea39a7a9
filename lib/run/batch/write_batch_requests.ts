/** Write recorded requests as OpenAI Batch API input files (one model per file). */
import { writeFileAtomic } from "../../io/atomic_write.ts";
import type { PlannedRequest as BatchRequest } from "../plan/request_plan.ts";

/** One written Batch API input file. */
export interface BatchFile {
  path: string;
  model: string;
  count: number;
}

// The Batch API input line of one request: POST /v1/chat/completions with the exact body.
function _line(request: BatchRequest): string {
  return JSON.stringify({
    custom_id: request.customId,
    method: "POST",
    url: "/v1/chat/completions",
    body: request.body,
  });
}

function _pathFor(path: string, model: string): string {
  const safe = model.replace(/[^A-Za-z0-9._-]+/g, "_");
  const dot = path.lastIndexOf(".");
  const slash = path.lastIndexOf("/");
  return dot > slash + 1 ? `${path.slice(0, dot)}.${safe}${path.slice(dot)}` : `${path}.${safe}`;
}

/**
 * Write `requests` as Batch API JSONL. The Batch API takes one model per input file, so with one
 * model the file is `path`; with several, one file per model beside it (`requests.MODEL.jsonl`).
 * No file is written when there are no requests. Bodies carry no key (keys live only in the
 * client and are never part of a body).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeBatchRequests } from "./write_batch_requests.ts";
 * const dir = await Deno.makeTempDir();
 * const files = await writeBatchRequests({
 *   path: `${dir}/requests.jsonl`,
 *   requests: [{ customId: "k", phase: "agent", body: { model: "m", messages: [] } }],
 * });
 * assert.deepEqual(files, [{ path: `${dir}/requests.jsonl`, model: "m", count: 1 }]);
 * assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/requests.jsonl`)).url, "/v1/chat/completions");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeBatchRequests(options: {
  /** Output path (`--batch-out`). */
  path: string;
  /** Requests from a `BatchRecorder`. */
  requests: readonly BatchRequest[];
}): Promise<BatchFile[]> {
  const byModel = new Map<string, BatchRequest[]>();
  for (const r of options.requests) {
    const model = String(r.body.model);
    byModel.set(model, [...(byModel.get(model) ?? []), r]);
  }
  const files: BatchFile[] = [];
  for (const [model, requests] of byModel) {
    const path = byModel.size === 1 ? options.path : _pathFor(options.path, model);
    await writeFileAtomic({ path, data: requests.map((r) => _line(r) + "\n").join("") });
    files.push({ path, model, count: requests.length });
  }
  return files;
}
