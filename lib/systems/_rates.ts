/** Shared helpers of the system tables: error-free shares of row flags. */
import type { SystemRow } from "../schema/system_row.ts";

/** Share of error-free rows where `pick` is true; NaN when none. */
export function errorFreeShare(
  rows: readonly SystemRow[],
  pick: (r: SystemRow) => boolean | null,
): number {
  const ok = rows.filter((r) => r.error === null && pick(r) !== null);
  return ok.length === 0 ? NaN : ok.filter((r) => pick(r)).length / ok.length;
}

/**
 * Mean over instances of each instance's share of error-free rows where `pick` is true (rows of
 * one instance, its attacks and trials, weigh as one); NaN when no instance has such a row.
 */
export function instanceShare(
  rows: readonly SystemRow[],
  pick: (r: SystemRow) => boolean | null,
): number {
  const by = new Map<string, { hit: number; n: number }>();
  for (const r of rows) {
    if (r.error !== null || pick(r) === null) continue;
    const c = by.get(r.instanceId) ?? { hit: 0, n: 0 };
    c.n++;
    if (pick(r)) c.hit++;
    by.set(r.instanceId, c);
  }
  if (by.size === 0) return NaN;
  let sum = 0;
  for (const c of by.values()) sum += c.hit / c.n;
  return sum / by.size;
}

/**
 * The table label of each row: the system's display name, with its version when rows hold two
 * versions of one system (Mem0 through mem0ai 3.x and 2.4.6).
 */
export function systemLabeller(rows: readonly SystemRow[]): (r: SystemRow) => string {
  const versions = new Map<string, Set<string>>();
  for (const r of rows) {
    versions.set(r.system, (versions.get(r.system) ?? new Set()).add(r.systemVersion));
  }
  return (r) =>
    versions.get(r.system)!.size > 1 ? `${r.system} (${r.systemVersion.split(" ")[0]})` : r.system;
}
