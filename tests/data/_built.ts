/**
 * Where the builder tests read benchmark files: the committed fixture (invented text in the
 * official layouts) always, and the real benchmarks too when MEMGAUGE_DATA holds them.
 */
import { dataDir } from "../../lib/data/data_dir.ts";
import { DATA_FILES } from "../../lib/data/data_files.ts";
import { FAST_TIER } from "../support/tiers.ts";

/** The data directory the real-data tests read. */
export const DATA_DIR = dataDir();

/**
 * A data directory laid out as the official one, holding the committed fixtures (invented text,
 * named so that nobody takes them for the benchmark files) under the official file names.
 */
export const FIXTURE_DIR: string = _fixtureDir();

function _fixtureDir(): string {
  const committed = new URL("../fixtures/", import.meta.url).pathname;
  const dir = Deno.makeTempDirSync({ prefix: "memgauge-fixture-data-" });
  for (
    const [name, file] of [
      ["invented_locomo10_layout.json", DATA_FILES.locomo.path],
      ["invented_longmemeval_oracle_layout.json", DATA_FILES.longmemevalOracle.path],
    ]
  ) {
    Deno.mkdirSync(`${dir}/${file.split("/")[0]}`, { recursive: true });
    Deno.copyFileSync(committed + name, `${dir}/${file}`);
  }
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already gone */ }
  });
  return dir;
}

function _present(path: string): boolean {
  try {
    Deno.statSync(DATA_DIR.replace(/\/+$/, "") + "/" + path);
    return true;
  } catch {
    return false;
  }
}

/** True when both required benchmark files are present. */
export const HAVE_DATA = _present(DATA_FILES.locomo.path) &&
  _present(DATA_FILES.longmemevalOracle.path);

/** A place to build from: the fixture (a few instances, small banks) or the real files. */
export interface DataSource {
  name: "fixture" | "benchmark";
  dataDir: string;
  /** Instances per dataset: LoCoMo, LongMemEval. */
  count: { locomo: number; longmemeval: number };
  bankSize: number;
}

/** True when the tests build the real benchmarks: present, and not the fast tier (it takes minutes). */
export const BENCHMARK_TESTS = HAVE_DATA && !FAST_TIER;

/**
 * The fixture, then the real benchmarks when they are built (registered only then: never
 * ignored).
 */
export const SOURCES: DataSource[] = [
  { name: "fixture", dataDir: FIXTURE_DIR, count: { locomo: 8, longmemeval: 5 }, bankSize: 10 },
  ...(BENCHMARK_TESTS
    ? [{
      name: "benchmark" as const,
      dataDir: DATA_DIR,
      count: { locomo: 100, longmemeval: 100 },
      bankSize: 100,
    }]
    : []),
];

if (!HAVE_DATA && !FAST_TIER) {
  console.log(
    `note: benchmark data not found in ${DATA_DIR} (set MEMGAUGE_DATA or run \`deno task data\`); ` +
      "the builder tests run on the committed fixture only.",
  );
}
