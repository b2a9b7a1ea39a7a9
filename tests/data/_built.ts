/** Shared fixture: build both datasets once from MEMGAUGE_DATA, or report that the data is absent. */
import { dataDir } from "../../lib/data/data_dir.ts";
import { DATA_FILES } from "../../lib/data/data_files.ts";

/** The data directory the tests read. */
export const DATA_DIR = dataDir();

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

if (!HAVE_DATA) {
  console.log(
    `SKIP: benchmark data not found in ${DATA_DIR} (set MEMGAUGE_DATA or run \`deno task data\`); ` +
      "data-dependent tests are ignored.",
  );
}
