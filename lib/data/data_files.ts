/** The official benchmark files the loaders read: where they go, where to get them, checksums. */

/** One raw benchmark file. */
export interface DataFile {
  /** Path relative to the data directory. */
  path: string;
  /** Official download URL. */
  url: string;
  /** Pinned sha256 of the official file, or null when none is pinned. */
  sha256: string | null;
  /** License of the benchmark. */
  license: string;
  /** True when the loaders cannot work without it. */
  required: boolean;
}

/**
 * The files `deno task data` fetches. LoCoMo is pinned to the commit and checksum in the shared
 * data's SOURCE.md; the LongMemEval files have no published checksum, so none is pinned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DATA_FILES } from "./data_files.ts";
 * assert.deepEqual(DATA_FILES.locomo.path, "locomo/locomo10.json");
 * ```
 */
export const DATA_FILES = {
  locomo: {
    path: "locomo/locomo10.json",
    url: "https://raw.githubusercontent.com/snap-research/locomo/" +
      "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json",
    sha256: "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
    license: "CC BY-NC 4.0",
    required: true,
  },
  longmemevalOracle: {
    path: "longmemeval/longmemeval_oracle.json",
    url:
      "https://huggingface.co/datasets/xiaowu0162/longmemeval/resolve/main/longmemeval_oracle.json",
    sha256: null,
    license: "MIT",
    required: true,
  },
  longmemevalS: {
    path: "longmemeval/longmemeval_s.json",
    url: "https://huggingface.co/datasets/xiaowu0162/longmemeval/resolve/main/longmemeval_s.json",
    sha256: null,
    license: "MIT",
    required: false,
  },
} as const satisfies Record<string, DataFile>;
