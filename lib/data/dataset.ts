/** The dataset interface: a named source of instances built deterministically from a seed. */
import type { Instance } from "../schema/instance.ts";

/** Options every dataset loader receives. */
export interface DatasetOptions {
  /** Seed for any sampling the builder does. */
  seed: number;
  /** Background bank size |B| each instance must provide. */
  bankSize: number;
  /** Trace load multiplier (0.75, 1, 1.25). */
  traceLoad: number;
  /** Directory holding the raw benchmark files (env `MEMGAUGE_DATA`, default `data/raw/`). */
  dataDir: string;
  /** Instances a benchmark builder samples; default 100 (the paper's). */
  count?: number;
}

/** A dataset loader. It throws a clear error naming the file and field on bad input. */
export type DatasetLoader = (options: DatasetOptions) => Promise<Instance[]>;
