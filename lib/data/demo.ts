/** The demo dataset: the kit's invented teaching set in `data/demo/instances.json`. */
import type { DatasetLoader } from "./dataset.ts";
import { loadInstanceFile } from "./load_instance_file.ts";

// Resolved from this module, not the working directory, so notebooks and CLIs anywhere work.
const _DEMO_FILE = new URL("../../data/demo/instances.json", import.meta.url);

/**
 * Load the demo instances with each background bank cut to its first `bankSize` records.
 *
 * The file fixes each instance's background order, so `seed` and `dataDir` are not used. The
 * demo has no trace-load variants: `traceLoad` must be 1. Throws a RangeError when `bankSize`
 * is not a positive integer or exceeds the records an instance provides (128 in the shipped file).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadDemo } from "./demo.ts";
 * const instances = await loadDemo({ seed: 0, bankSize: 100, traceLoad: 1, dataDir: "data/raw/" });
 * strictEqual(instances[0].background.length, 100);
 * ```
 */
export const loadDemo: DatasetLoader = async ({ bankSize, traceLoad }) => {
  if (traceLoad !== 1) {
    throw new RangeError(
      `Cannot load demo: trace-load must be 1 because the demo set has no load variants, got ${traceLoad}`,
    );
  }
  if (!Number.isInteger(bankSize) || bankSize < 1) {
    throw new RangeError(`Cannot load demo: bank-size must be a positive integer, got ${bankSize}`);
  }
  const file = await loadInstanceFile(_DEMO_FILE);
  return file.instances.map((instance) => {
    if (instance.background.length < bankSize) {
      throw new RangeError(
        `Cannot load demo: bank-size ${bankSize} exceeds the ${instance.background.length} background records available for instance ${instance.id}`,
      );
    }
    return { ...instance, background: instance.background.slice(0, bankSize) };
  });
};
