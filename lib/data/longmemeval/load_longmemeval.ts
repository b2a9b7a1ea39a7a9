/** The LongMemEval dataset loader (`--dataset longmemeval`). */
import type { DatasetLoader } from "../dataset.ts";
import { buildLongMemEval } from "./build_longmemeval.ts";

/**
 * Load 100 LongMemEval instances, deterministic for a seed (see `buildLongMemEval`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLongMemEval } from "./load_longmemeval.ts";
 * await assert.rejects(loadLongMemEval({ seed: 1, bankSize: 100, traceLoad: 1, dataDir: "/nonexistent" }));
 * ```
 */
export const loadLongMemEval: DatasetLoader = async (options) =>
  (await buildLongMemEval(options)).instances;
