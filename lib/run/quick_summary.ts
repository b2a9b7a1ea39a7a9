/**
 * A dependency-light printed summary of a sweep: per attack and operating point, the median
 * across agents of clean utility, poisoned utility and ASR. Full statistics with intervals live
 * in lib/stats.
 */
import type { TrialRow } from "../schema/trial_row.ts";

/** The columns {@link quickSummary} reads. */
export type QuickSummaryRow = Pick<
  TrialRow,
  | "stage"
  | "thetaW"
  | "policy"
  | "thetaR"
  | "thetaRRisk"
  | "attack"
  | "agent"
  | "counterfactualOf"
  | "condition"
  | "correct"
  | "matchesTarget"
  | "error"
>;

/**
 * The columns of a row {@link quickSummary} reads, for a run that streams its rows to disk
 * and keeps only these (about a tenth of a row).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quickSummaryRow } from "./quick_summary.ts";
 * const row = { stage: "writing", thetaW: 0.5, output: "long text" } as never;
 * assert.equal("output" in quickSummaryRow(row), false);
 * ```
 */
export function quickSummaryRow(row: TrialRow): QuickSummaryRow {
  const { stage, thetaW, policy, thetaR, thetaRRisk, attack, agent } = row;
  const { counterfactualOf, condition, correct, matchesTarget, error } = row;
  return {
    stage,
    thetaW,
    policy,
    thetaR,
    thetaRRisk,
    attack,
    agent,
    counterfactualOf,
    condition,
    correct,
    matchesTarget,
    error,
  };
}

/** The column that varies in a stage's sweep. */
export function varyingValue(row: QuickSummaryRow): string {
  switch (row.stage) {
    case "writing":
      return `thetaW=${row.thetaW}`;
    case "management":
      return `policy=${row.policy}`;
    case "retrieval":
      return row.thetaR === row.thetaRRisk ? `thetaR=${row.thetaR}` : `thetaR-=${row.thetaRRisk}`;
  }
}

function _median(xs: number[]): number {
  const s = xs.toSorted((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One printed line per attack and operating point. */
export interface QuickSummaryLine {
  attack: string;
  point: string;
  agents: number;
  pairs: number;
  cleanUtility: number;
  poisonedUtility: number;
  asr: number;
  errors: number;
}

/**
 * Summarise rows; error rows are counted and left out of the rates, counterfactual reruns
 * (`counterfactualOf`) are left out altogether.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quickSummary } from "./quick_summary.ts";
 * assert.deepEqual(quickSummary([]), []);
 * ```
 */
export function quickSummary(rows: readonly QuickSummaryRow[]): QuickSummaryLine[] {
  const groups = new Map<string, Map<string, QuickSummaryRow[]>>();
  for (const row of rows) {
    if ((row.counterfactualOf ?? null) !== null) continue;
    const key = JSON.stringify([row.attack, varyingValue(row)]);
    const byAgent = groups.get(key) ?? new Map<string, QuickSummaryRow[]>();
    // Pushed, not spread: a copy per row made a large sweep's summary quadratic.
    const these = byAgent.get(row.agent) ?? [];
    these.push(row);
    byAgent.set(row.agent, these);
    groups.set(key, byAgent);
  }
  return [...groups.entries()].map(([key, byAgent]) => {
    const [attack, point] = JSON.parse(key) as [string, string];
    const rate = (
      rows: QuickSummaryRow[],
      condition: string,
      field: "correct" | "matchesTarget",
    ) => {
      const ok = rows.filter((r) => r.condition === condition && r.error === null);
      return ok.length === 0 ? NaN : ok.filter((r) => r[field]).length / ok.length;
    };
    const agents = [...byAgent.values()];
    return {
      attack,
      point,
      agents: agents.length,
      pairs: agents.reduce((n, rs) => n + rs.filter((r) => r.condition === "clean").length, 0),
      cleanUtility: _median(agents.map((rs) => rate(rs, "clean", "correct"))),
      poisonedUtility: _median(agents.map((rs) => rate(rs, "poisoned", "correct"))),
      asr: _median(agents.map((rs) => rate(rs, "poisoned", "matchesTarget"))),
      errors: agents.reduce((n, rs) => n + rs.filter((r) => r.error !== null).length, 0),
    };
  });
}

/** Format summary lines as a fixed-width text table. */
export function formatQuickSummary(lines: readonly QuickSummaryLine[]): string {
  const header = [
    "attack",
    "operating point",
    "agents",
    "pairs",
    "clean U",
    "poisoned U",
    "ASR",
    "errors",
  ];
  const body = lines.map((l) => [
    l.attack,
    l.point,
    String(l.agents),
    String(l.pairs),
    l.cleanUtility.toFixed(3),
    l.poisonedUtility.toFixed(3),
    l.asr.toFixed(3),
    String(l.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}
