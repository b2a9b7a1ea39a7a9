/** Shared helpers of the system tables: error-free shares of row flags. */
import type { SystemRow } from "../model/system_row.ts";

/** Share of error-free rows where `pick` is true; NaN when none. */
export function _share(rows: readonly SystemRow[], pick: (r: SystemRow) => boolean | null): number {
  const ok = rows.filter((r) => r.error === null && pick(r) !== null);
  return ok.length === 0 ? NaN : ok.filter((r) => pick(r)).length / ok.length;
}

/**
 * The table label of each row: the system's display name, with its version when rows hold two
 * versions of one system (Mem0 through mem0ai 3.x and 2.4.6).
 */
export function _labeller(rows: readonly SystemRow[]): (r: SystemRow) => string {
  const versions = new Map<string, Set<string>>();
  for (const r of rows) {
    versions.set(r.system, (versions.get(r.system) ?? new Set()).add(r.systemVersion));
  }
  return (r) =>
    versions.get(r.system)!.size > 1 ? `${r.system} (${r.systemVersion.split(" ")[0]})` : r.system;
}
