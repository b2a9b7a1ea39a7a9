/** The dataset registry: names the sweep CLI accepts, plus any instance file by path. */
import type { Instance } from "../schema/instance.ts";
import { createRegistry, type Registry } from "../schema/registry.ts";
import type { DatasetLoader, DatasetOptions } from "./dataset.ts";
import { dataDir } from "./data_dir.ts";
import { DATA_FILES } from "./data_files.ts";
import { loadDemo } from "./demo.ts";
import { cachedInstances, instanceCacheKey, type InstanceCacheOptions } from "./instance_cache.ts";
import { loadInstanceFile } from "./load_instance_file.ts";

/**
 * Every registered dataset by name (`--dataset` validation and help, reproduce read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DATASETS } from "./datasets.ts";
 * assert.deepEqual(DATASETS.ids().slice(0, 3), ["demo", "locomo", "longmemeval"]);
 * ```
 */
export const DATASETS: Registry<DatasetLoader> = createRegistry({ kind: "dataset" });

// The built-ins; a new dataset is its loader's folder, its test and one line here. The benchmark
// builders (and their NLP dependencies) load when a benchmark is first used, so `--help` and
// the demo set do not pay for them.
DATASETS.register({
  id: "demo",
  description: "The committed demo set (invented text), offline.",
  value: loadDemo,
});
DATASETS.register({
  id: "locomo",
  description: "LoCoMo instances built from MEMGAUGE_DATA.",
  value: async (o) => (await import("./locomo/load_locomo.ts")).loadLocomo(o),
});
DATASETS.register({
  id: "longmemeval",
  description: "LongMemEval instances built from MEMGAUGE_DATA.",
  value: async (o) => (await import("./longmemeval/load_longmemeval.ts")).loadLongMemEval(o),
});

/**
 * The raw-data folders (under the data directory) each benchmark builder reads: their files key
 * the instance cache. A dataset not listed here (the committed demo, a plugin) is not cached.
 */
const _CACHED_SOURCES: Readonly<Record<string, readonly string[]>> = {
  locomo: [_folder(DATA_FILES.locomo.path)],
  longmemeval: [_folder(DATA_FILES.longmemevalOracle.path)],
};

function _folder(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/**
 * Load a dataset by registry name, or an instance file when the name ends in `.json`. Every
 * instance must hold at least `bankSize` background records; the bank is cut to that size.
 * Benchmark builds (LoCoMo, LongMemEval) are cached on disk (`instanceCache`, see
 * `instance_cache.ts`): a second load of the same setting reads the file instead of building.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDataset } from "./datasets.ts";
 * const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
 * assert.ok(instances.length >= 20);
 * assert.ok(instances.every((i) => i.background.length === 100)); // each bank cut to bankSize
 * await assert.rejects(loadDataset({ name: "nope", seed: 0, bankSize: 1, traceLoad: 1 }), /unknown dataset "nope"/);
 * ```
 */
export async function loadDataset(
  options: Omit<DatasetOptions, "dataDir"> & {
    /** Registry name (`demo`, `locomo`, `longmemeval`) or a path to an instance file. */
    name: string;
    /** Raw data directory; default `dataDir()`. */
    dataDir?: string;
    /**
     * The on-disk cache of benchmark builds (`dir`, `rebuild`), or false to build without it;
     * default `{}` (`.memgauge/instances`, read when current).
     */
    instanceCache?: InstanceCacheOptions | false;
  },
): Promise<Instance[]> {
  const { name, instanceCache, ...rest } = options;
  const full = { ...rest, dataDir: options.dataDir ?? dataDir() };
  if (name.endsWith(".json")) {
    const file = await loadInstanceFile(name);
    return file.instances.map((instance) => {
      if (instance.background.length < full.bankSize) {
        throw new RangeError(
          `--bank-size: ${full.bankSize} exceeds the ${instance.background.length} background records of instance ${instance.id} in ${name}`,
        );
      }
      return { ...instance, background: instance.background.slice(0, full.bankSize) };
    });
  }
  const loader = DATASETS.get(name);
  if (!loader) {
    throw new RangeError(
      `--dataset: unknown dataset ${JSON.stringify(name)} (expected one of ${
        DATASETS.ids().join(", ")
      }, or a path ending in .json)`,
    );
  }
  const sources = _CACHED_SOURCES[name];
  if (!sources || instanceCache === false) return await loader(full);
  const key = await instanceCacheKey({
    dataset: name,
    sourceDirs: sources.map((s) => `${full.dataDir.replace(/\/+$/, "")}/${s}`),
    seed: full.seed,
    bankSize: full.bankSize,
    traceLoad: full.traceLoad,
    count: full.count,
  });
  return await cachedInstances({ key, build: () => loader(full), cache: instanceCache });
}
