/** Shared helpers of the system tables: error-free shares of row flags. */
import type { SystemRow } from "../model/system_row.ts";

/** Share of error-free rows where `pick` is true; NaN when none. */
export function _share(rows: readonly SystemRow[], pick: (r: SystemRow) => boolean | null): number {
  const ok = rows.filter((r) => r.error === null && pick(r) !== null);
  return ok.length === 0 ? NaN : ok.filter((r) => pick(r)).length / ok.length;
}
