/** Median and interquartile range of summary metrics across agents, as the paper's figures. */
import pl from "nodejs-polars";
import { SUMMARY_METRICS } from "./summarize.ts";

/** Options of {@link acrossAgents}. */
export interface AcrossAgentsOptions {
  /** Metrics to aggregate. Default: every summary metric present in the frame. */
  metrics?: readonly string[];
  /** Column that names the agent. Default "agent". */
  agentColumn?: string;
}

const _COUNTERS = ["pairs", "instances", "errors", "unpaired", "u0Runs", "u0Errors", "seed"];

/**
 * Across agents, per remaining grouping: `<metric>Median`, `<metric>P25`, `<metric>P75` of the
 * point estimates, and `agents` (how many were aggregated). Quantiles are type 7 (linear
 * interpolation between order statistics, numpy's and R's default), so P25 and P75 of
 * [1, 2, 3, 4] are 1.75 and 3.25; nulls (empty groups) are ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { acrossAgents } from "./across_agents.ts";
 * const s = pl.DataFrame({ agent: ["a", "b", "c", "d"], stage: ["writing", "writing",
 *   "writing", "writing"], asr: [0.25, 0.5, 0.75, 1] });
 * const m = acrossAgents(s, {});
 * assert.equal(m.getColumn("asrMedian").get(0), 0.625);
 * assert.equal(m.getColumn("asrP25").get(0), 0.4375);
 * ```
 */
export function acrossAgents(summary: pl.DataFrame, options: AcrossAgentsOptions): pl.DataFrame {
  const agent = options.agentColumn ?? "agent";
  if (!summary.columns.includes(agent)) {
    throw new RangeError(`Cannot aggregate across agents: no column "${agent}" in the summary`);
  }
  const metrics = options.metrics ?? SUMMARY_METRICS.filter((m) => summary.columns.includes(m));
  for (const m of metrics) {
    if (!summary.columns.includes(m)) {
      throw new RangeError(`Cannot aggregate across agents: no metric column "${m}"`);
    }
  }
  const derived = new Set(
    SUMMARY_METRICS.flatMap((m) => [m, `${m}Lo`, `${m}Hi`, `${m}CiMethod`]),
  );
  const keys = summary.columns.filter((c) =>
    c !== agent && !derived.has(c) && !_COUNTERS.includes(c)
  );
  const aggs = [
    pl.col(agent).nUnique().alias("agents"),
    ...metrics.flatMap((m) => [
      pl.col(m).median().alias(`${m}Median`),
      pl.col(m).quantile(0.25, "linear").alias(`${m}P25`),
      pl.col(m).quantile(0.75, "linear").alias(`${m}P75`),
    ]),
  ];
  if (keys.length === 0) return summary.select(...aggs);
  return summary.groupBy(keys).agg(...aggs).sort(keys);
}
