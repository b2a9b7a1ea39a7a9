/** The LoCoMo dataset loader (`--dataset locomo`). */
import type { DatasetLoader } from "../dataset.ts";
import { buildLocomo } from "./build_locomo.ts";

/**
 * Load 100 LoCoMo instances, deterministic for a seed (see `buildLocomo`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLocomo } from "./load_locomo.ts";
 * await assert.rejects(loadLocomo({ seed: 1, bankSize: 100, traceLoad: 1, dataDir: "/nonexistent" }));
 * ```
 */
export const loadLocomo: DatasetLoader = async (options) => (await buildLocomo(options)).instances;
