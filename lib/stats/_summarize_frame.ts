/**
 * The summary pipeline: Polars pairs rows, forms instance clusters and counts their types; the
 * intervals are then computed from those counts (score formulas or the count-based bootstrap).
 */
import pl from "nodejs-polars";
import { deriveSeed } from "../random/derive_seed.ts";
import { bootstrapRatios } from "./bootstrap_ratios.ts";
import type { CiChoice, CiMethod, Interval } from "./interval.ts";
import { newcombeInterval } from "./newcombe_interval.ts";
import { DEFAULT_GROUP_COLUMNS, OPERATING_POINT_COLUMNS } from "./summary_groups.ts";
import {
  RERUN_UNITS,
  SUMMARY_METRIC_SPECS,
  type SummaryMetric,
  UNIT_INDICATORS,
  type UnitTable,
} from "./summary_metrics.ts";
import { wilsonInterval } from "./wilson_interval.ts";
import { LAST_INDEX_COLUMN, ROW_INDEX_COLUMN } from "./_scan_rows.ts";

/** Settings of a summary, defaults resolved. */
export interface SummarySettings {
  resamples: number;
  ci: CiChoice;
  seed: number;
  level: number;
}

/** A constant column standing in for "no grouping". */
const ALL = "_all";
const col = pl.col;

/** Counter columns of a summary (integers). */
export const _COUNTERS = [
  "pairs",
  "instances",
  "errors",
  "unpaired",
  "u0Runs",
  "u0Errors",
  "seed",
  ...Object.keys(RERUN_UNITS),
  "rerunErrors",
];

/** Cluster types of one group of one unit table: `w[t]` clusters of size `m[t]` and sums. */
export interface _Types {
  m: number[];
  w: number[];
  /** Per indicator, the per-type sum over the cluster's units. */
  sums: Record<string, number[]>;
}

/** An error row: an error message, or a decision the judge did not give. */
const _bad = col("error").isNotNull().or(col("correct").isNull()).or(
  col("matchesTarget").isNull(),
);

/** The grouping columns pairs share: `by` and every default grouping column present. */
export function pairColumns(by: readonly string[], present: readonly string[]): string[] {
  return [...new Set([...by, ...DEFAULT_GROUP_COLUMNS.filter((c) => present.includes(c))])];
}

/**
 * Reduce rows (every needed column with its declared dtype) to one lazy frame: per pair trial
 * (every grouping column of `full`, from {@link pairColumns}, instanceId, pairId, trial) the
 * counts and sums pairing needs, with `_row` null; and the rows no pair takes (no-memory rows,
 * counterfactual reruns, and rows that fail `invalid`) as they are, `_row` holding their row
 * index (the input's `_row`, added when absent). Sums over blocks of a file add up: a pair whose rows lie in two blocks is summed again
 * by {@link summarizeReduced}. One groupBy does both, so the rows are read once.
 */
export function reduceRows(
  rows: pl.LazyDataFrame,
  full: readonly string[],
  invalid: pl.Expr = pl.lit(false),
): pl.LazyDataFrame {
  const present = rows.columns;
  const trial = present.includes("trial")
    ? col("trial").fillNull(0).cast(pl.Int64)
    : pl.lit(0).cast(pl.Int64);
  // Record-level counterfactual reruns share their trial's pairId: never part of a pair.
  const isRerun = present.includes("counterfactualOf")
    ? col("counterfactualOf").isNotNull()
    : pl.lit(false);
  // The condition compared as it is stored (Categorical), once per row.
  const indexed = present.includes(ROW_INDEX_COLUMN) ? rows : rows.withRowIndex(ROW_INDEX_COLUMN);
  const flagged = indexed.withColumns(
    trial.alias("trial"),
    col("condition").eq(pl.lit("clean")).fillNull(false).alias("_isClean"),
    col("condition").eq(pl.lit("poisoned")).fillNull(false).alias("_isPoisoned"),
  );
  const isClean = col("_isClean"), isPoisoned = col("_isPoisoned");
  const paired = isClean.or(isPoisoned).and(isRerun.not()).and(invalid.fillNull(true).not());
  const keys = [...new Set([...full, "instanceId", "pairId", "trial"])];
  const kept = present.filter((c) => !keys.includes(c) && c !== ROW_INDEX_COLUMN);
  return flagged
    .withColumns(
      col(ROW_INDEX_COLUMN).alias(LAST_INDEX_COLUMN),
      pl.when(paired).then(pl.lit(null)).otherwise(col(ROW_INDEX_COLUMN)).alias(ROW_INDEX_COLUMN),
    )
    .groupBy([...keys, ROW_INDEX_COLUMN])
    .agg(
      isClean.and(paired).cast(pl.Int64).sum().alias("_clean"),
      isPoisoned.and(paired).cast(pl.Int64).sum().alias("_poisoned"),
      _bad.cast(pl.Int64).sum().alias("_bad"),
      col("correct").and(isClean).cast(pl.Int64).sum().alias("cleanCorrect"),
      col("correct").and(isPoisoned).cast(pl.Int64).sum().alias("poisonedCorrect"),
      col("matchesTarget").and(isClean).cast(pl.Int64).sum().alias("cleanTarget"),
      col("matchesTarget").and(isPoisoned).cast(pl.Int64).sum().alias("poisonedTarget"),
      col(LAST_INDEX_COLUMN).max().alias(LAST_INDEX_COLUMN),
      ...kept.map((c) => col(c).first().alias(c)),
    );
}

/** The sums of a pair trial's rows (see {@link reduceRows}). */
const _PAIR_SUMS = [
  "_clean",
  "_poisoned",
  "_bad",
  "cleanCorrect",
  "poisonedCorrect",
  "cleanTarget",
  "poisonedTarget",
];

/**
 * Summarise validated rows (every needed column present with its declared dtype) per `by`
 * group; see {@link summarize} for the rules.
 */
export function summarizeFrame(df: pl.DataFrame, by: readonly string[], s: SummarySettings) {
  const reduced = reduceRows(df.lazy(), pairColumns(by, df.columns)).collectSync();
  return summarizeReduced(reduced, df.columns, by, s);
}

/**
 * Summarise rows reduced by {@link reduceRows} (the blocks of a file concatenated) per `by`
 * group; `present` are the columns of the rows. See {@link summarize} for the rules.
 */
export function summarizeReduced(
  reduced: pl.DataFrame,
  present: readonly string[],
  by: readonly string[],
  s: SummarySettings,
) {
  const others = reduced.filter(col(ROW_INDEX_COLUMN).isNotNull()).select(...present);
  const partial = reduced.filter(col(ROW_INDEX_COLUMN).isNull());
  const full = pairColumns(by, present);
  const u0Keys = by.filter((c) => !(OPERATING_POINT_COLUMNS as readonly string[]).includes(c));
  // A column with one value in every row cannot split a group: Polars groups on the others
  // (a sweep file varies 3 or 4 of its 13 grouping columns), and the value is put back after.
  const constant = _constantColumns([partial, others], full);
  const varies = (c: string) => !constant.has(c);
  // Group keys carry a constant column so that no grouping (`by: []`) is one group.
  const G = [ALL, ...by.filter(varies)], U = [ALL, ...u0Keys.filter(varies)];
  const all = pl.lit(0).cast(pl.Int64).alias(ALL);
  const lf = others.lazy().withColumns(all);
  const flagged = lf.withColumns(
    col("condition").eq(pl.lit("clean")).alias("_isClean"),
    col("condition").eq(pl.lit("poisoned")).alias("_isPoisoned"),
  );
  const isPoisoned = col("_isPoisoned"), isClean = col("_isClean");
  const bad = _bad;
  const isRerun = present.includes("counterfactualOf")
    ? col("counterfactualOf").isNotNull()
    : pl.lit(false);
  const hasReruns = present.includes("counterfactualOf") && present.includes("ablatedRole") &&
    others.getColumn("counterfactualOf").nullCount() < others.height;

  // One row per (every grouping column, instanceId, pairId, trial): a pair trial and its twins.
  const pairs = partial.lazy().withColumns(all)
    .groupBy([...new Set([ALL, ...full.filter(varies), "instanceId", "pairId", "trial"])])
    .agg(..._PAIR_SUMS.map((c) => col(c).sum().alias(c)))
    .collectSync();
  _checkRepeats(pairs);
  const joined = col("_clean").eq(1).and(col("_poisoned").eq(1));
  // Units carry their indicators and, for each paired difference, the joint indicator (both
  // 1), so the 2x2 table of a difference is known for clusters of any size.
  const complete = pairs.lazy().filter(joined.and(col("_bad").eq(0))).withColumns(
    ..._joints("pairs").map(([a, b, joint]) => col(a).mul(col(b)).alias(joint)),
  );

  const groups = _sortedKeys(
    pairs.lazy().groupBy(G).agg(
      col("_clean").add(col("_poisoned")).sum().alias("_rows"),
      col("_bad").sum().alias("errors"),
      joined.sum().alias("_joined"),
    ),
    G,
  ).withRowIndex("_g");
  const pairTypes = _types(complete, G, _sums("pairs"), groups, "_g");

  // U0: error-free no-memory rows, matched on the grouping columns that are not operating-point
  // columns (a run without memory does not depend on them).
  const nomemory = lf.filter(col("condition").eq(pl.lit("nomemory")))
    .withColumns(col("error").isNotNull().or(col("correct").isNull()).alias("_bad"));
  const u0Groups = _sortedKeys(
    nomemory.groupBy(U).agg(
      col("_bad").not().sum().alias("u0Runs"),
      col("_bad").sum().alias("u0Errors"),
    ),
    U,
  ).withRowIndex("_u");
  const u0Units = nomemory.filter(col("_bad").not()).select(
    ...new Set([...U, "instanceId"]),
    col("correct").cast(pl.Int64).alias("correct"),
  );
  const u0Types = _types(u0Units, U, _sums("nomemory"), u0Groups, "_u");

  // Flip rates: each error-free rerun is a unit of its removed record's role; `flipped` when
  // the decision its trial was selected for (target matched, or correct) is undone.
  const rerunTypes = new Map<UnitTable, Map<number, _Types>>();
  let rerunErrors = new Map<number, number>();
  if (hasReruns) {
    const reruns = flagged.filter(isRerun).withColumns(
      pl.when(isPoisoned).then(col("matchesTarget").not()).otherwise(col("correct").not())
        .cast(pl.Int64).alias("flipped"),
    );
    for (const [units, role] of Object.entries(RERUN_UNITS) as [UnitTable, string][]) {
      let these = reruns.filter(bad.not().and(col("ablatedRole").eq(pl.lit(role))));
      // Correct answers lost: the helpful record of correct clean trials.
      if (role === "helpful") these = these.filter(isClean);
      const unitRows = these.select(...new Set([...G, "instanceId"]), col("flipped"));
      rerunTypes.set(units, _types(unitRows, G, ["flipped"], groups, "_g"));
    }
    const errorsByGroup = _utf8(
      reruns.filter(bad).groupBy(G).agg(pl.len().alias("_n")).collectSync(),
      G,
    ).join(groups.select(...G, "_g"), { on: [...G], nullsEqual: true } as never);
    rerunErrors = new Map(
      errorsByGroup.toRecords().map((r) => [Number(r._g), Number(r._n)] as [number, number]),
    );
  }
  const metrics = SUMMARY_METRIC_SPECS.filter((m) => hasReruns || !(m.units in RERUN_UNITS));
  const rows = groups.join(u0Groups, { on: U, how: "left", nullsEqual: true } as never)
    .sort("_g")
    .withColumns(...[...constant].map(([c, value]) => value.alias(c)));

  const out: Record<string, (number | string | null)[]> = {};
  const push = (name: string, v: number | string | null) =>
    (out[name] ??= []).push(typeof v === "number" && Number.isNaN(v) ? null : v);
  // The seed key of a group: its grouping values (as in earlier kit versions, [0] for none).
  const keyValues = (r: Record<string, unknown>, cols: readonly string[]) =>
    JSON.stringify(cols.length > 0 ? cols.map((c) => r[c] ?? null) : [0]);
  const label = (r: Record<string, unknown>, cols: readonly string[]) =>
    cols.length > 0 ? cols.map((c) => `${c}=${r[c] ?? null}`).join(", ") : "(all rows)";
  const u0Cache = new Map<number, Map<string, [Interval, CiMethod | null]>>();
  const empty: _Types = { m: [], w: [], sums: {} };
  for (const r of rows.toRecords()) {
    const g = Number(r._g);
    const pairResult = groupIntervals(
      pairTypes.get(g) ?? empty,
      SUMMARY_METRIC_SPECS.filter((m) => m.units === "pairs"),
      s,
      deriveSeed(s.seed, "summarize", keyValues(r, by)),
      label(r, by),
    );
    const u = r._u === null || r._u === undefined ? null : Number(r._u);
    let u0Result = u === null ? null : u0Cache.get(u);
    if (u !== null && !u0Result) {
      u0Result = groupIntervals(
        u0Types.get(u) ?? empty,
        SUMMARY_METRIC_SPECS.filter((m) => m.units === "nomemory"),
        s,
        deriveSeed(s.seed, "summarize-u0", keyValues(r, u0Keys)),
        label(r, u0Keys),
      );
      u0Cache.set(u, u0Result);
    }
    const rerunResults = new Map<string, [Interval, CiMethod | null]>();
    for (const [units, byGroup] of rerunTypes) {
      const m = metrics.filter((spec) => spec.units === units);
      const result = groupIntervals(
        byGroup.get(g) ?? empty,
        m,
        s,
        deriveSeed(s.seed, "summarize-flip", units, keyValues(r, by)),
        label(r, by),
      );
      for (const [name, value] of result) rerunResults.set(name, value);
      const types = byGroup.get(g) ?? empty;
      push(units, types.m.reduce((a, size, i) => a + size * types.w[i], 0));
    }
    const t = pairTypes.get(g) ?? empty;
    push("pairs", t.m.reduce((a, m, i) => a + m * t.w[i], 0));
    push("instances", t.w.reduce((a, w) => a + w, 0));
    for (const m of metrics) {
      const source = m.units === "pairs"
        ? pairResult
        : m.units === "nomemory"
        ? u0Result
        : rerunResults;
      const [interval, method] = source?.get(m.name) ??
        [{ estimate: NaN, lo: NaN, hi: NaN }, null];
      push(m.name, interval.estimate);
      push(`${m.name}Lo`, interval.lo);
      push(`${m.name}Hi`, interval.hi);
      push(`${m.name}CiMethod`, Number.isNaN(interval.estimate) ? null : method);
    }
    push("errors", Number(r.errors));
    push("unpaired", Number(r._rows) - 2 * Number(r._joined));
    push("u0Runs", Number(r.u0Runs ?? 0));
    push("u0Errors", Number(r.u0Errors ?? 0));
    if (hasReruns) push("rerunErrors", rerunErrors.get(g) ?? 0);
    push("seed", s.seed);
  }
  const names = [
    "pairs",
    "instances",
    ...metrics.flatMap((m) => [m.name, `${m.name}Lo`, `${m.name}Hi`, `${m.name}CiMethod`]),
    "errors",
    "unpaired",
    "u0Runs",
    "u0Errors",
    ...(hasReruns ? [...Object.keys(RERUN_UNITS), "rerunErrors"] : []),
    "seed",
  ];
  const series = names.map((name) =>
    pl.Series(
      name,
      out[name] ?? [],
      _COUNTERS.includes(name) ? pl.Int64 : name.endsWith("CiMethod") ? pl.Utf8 : pl.Float64,
    )
  );
  const keys = by.length > 0 ? rows.select(...by).getColumns() : [];
  return pl.DataFrame([...keys, ...series]);
}

/** `[first, second, joint column]` of every paired difference over `units`. */
function _joints(units: UnitTable): [string, string, string][] {
  return SUMMARY_METRIC_SPECS.filter((m) => m.units === units && m.kind === "difference")
    .map((m) => [m.indicators[0], m.indicators[1], _joint(m)]);
}

function _joint(m: SummaryMetric): string {
  return `_both_${m.indicators[0]}_${m.indicators[1]}`;
}

/** The per-cluster sums a unit table's types carry: its indicators and joint indicators. */
function _sums(units: UnitTable): string[] {
  return [...new Set([...UNIT_INDICATORS[units], ..._joints(units).map(([, , j]) => j)])];
}

/** Columns of `cols` with a single value (null included) in every row of `frames`, as literals. */
function _constantColumns(
  frames: readonly pl.DataFrame[],
  cols: readonly string[],
): Map<string, pl.Expr> {
  const out = new Map<string, pl.Expr>();
  const these = frames.filter((f) => f.height > 0).map((f) => f.select(...cols));
  if (these.length === 0 || cols.length === 0) return out;
  const df = these.length === 1 ? these[0] : pl.concat(these, { how: "vertical", rechunk: false });
  const counts = df.select(...cols.map((c) => col(c).nUnique().alias(c))).toRecords()[0];
  const single = cols.filter((c) => Number(counts[c]) === 1);
  if (single.length === 0) return out;
  const first = _utf8(df.select(...single).head(1), single);
  for (const c of single) {
    const series = first.getColumn(c);
    out.set(c, pl.lit(series.toArray()[0] ?? null).cast(series.dtype));
  }
  return out;
}

/** Throw if a clean or poisoned row repeats a pair trial (pairId, trial) within a group. */
function _checkRepeats(pairs: pl.DataFrame): void {
  const repeated = pairs.lazy().filter(col("_clean").gt(1).or(col("_poisoned").gt(1)));
  for (const name of ["clean", "poisoned"]) {
    const these = repeated.filter(col(`_${name}`).gt(1));
    const n = Number(
      these.select(col(`_${name}`).sub(1).sum().alias("n")).collectSync().getColumn("n").get(0) ??
        0,
    );
    if (n === 0) continue;
    const example = these.sort(["pairId", "trial"]).head(1).collectSync().toRecords()[0];
    throw new RangeError(
      `Cannot summarize: ${n} ${name} rows repeat a (pairId, trial) within a group, e.g. ` +
        `pairId ${JSON.stringify(example.pairId)} trial ${example.trial}; rows of one pair ` +
        `trial share pairId, trial, instanceId and every grouping column`,
    );
  }
}

/** Collect a small keyed frame with string keys as Utf8, sorted by its keys (nulls first). */
function _sortedKeys(lf: pl.LazyDataFrame, keys: readonly string[]): pl.DataFrame {
  const df = lf.collectSync();
  return _utf8(df, keys).sort([...keys], false, false);
}

/** Categorical key columns as Utf8, so small frames sort by value and join across sources. */
function _utf8(df: pl.DataFrame, keys: readonly string[]): pl.DataFrame {
  const cats = keys.filter((c) =>
    (df.getColumn(c).dtype as { variant?: string }).variant ===
      "Categorical"
  );
  return cats.length === 0 ? df : df.withColumns(...cats.map((c) => col(c).cast(pl.Utf8)));
}

/**
 * Cluster types per group: units are summed per (group, instance) into a cluster of size m,
 * clusters with equal (m, sums) form a type counted `w` times (the bootstrap's unit).
 */
function _types(
  units: pl.LazyDataFrame,
  keys: readonly string[],
  indicators: readonly string[],
  groups: pl.DataFrame,
  index: string,
): Map<number, _Types> {
  const clusters = units.groupBy([...new Set([...keys, "instanceId"])]).agg(
    pl.len().alias("_m"),
    ...indicators.map((i) => col(i).sum().cast(pl.Int64).alias(i)),
  );
  const counted = clusters.groupBy([...keys, "_m", ...indicators]).agg(pl.len().alias("_w"))
    .collectSync();
  const typed = _utf8(counted, keys)
    .join(groups.select(...keys, index), { on: [...keys], nullsEqual: true } as never)
    .sort([index, "_m", ...indicators]);
  const g = typed.getColumn(index).toArray() as number[];
  const m = typed.getColumn("_m").toArray() as number[];
  const w = typed.getColumn("_w").toArray() as number[];
  const sums = Object.fromEntries(
    indicators.map((i) => [i, typed.getColumn(i).toArray() as number[]]),
  );
  const out = new Map<number, _Types>();
  for (let k = 0; k < g.length; k++) {
    let t = out.get(Number(g[k]));
    if (!t) {
      out.set(
        Number(g[k]),
        t = { m: [], w: [], sums: Object.fromEntries(indicators.map((i) => [i, []])) },
      );
    }
    t.m.push(Number(m[k]));
    t.w.push(Number(w[k]));
    for (const i of indicators) t.sums[i].push(Number(sums[i][k]));
  }
  return out;
}

/**
 * Intervals of one group's metrics over one unit table, with the method each used (exported
 * for tests/bench/interval_coverage.ts, which measures this rule's coverage).
 */
export function groupIntervals(
  t: _Types,
  metrics: readonly SummaryMetric[],
  s: SummarySettings,
  seed: number,
  groupKey: string,
): Map<string, [Interval, CiMethod | null]> {
  const result = new Map<string, [Interval, CiMethod | null]>();
  const units = t.m.reduce((a, m, i) => a + m * t.w[i], 0);
  const instances = t.w.reduce((a, w) => a + w, 0);
  if (units === 0) {
    for (const m of metrics) result.set(m.name, [{ estimate: NaN, lo: NaN, hi: NaN }, null]);
    return result;
  }
  const clustered = t.m.some((m) => m > 1);
  const numerator = (m: SummaryMetric) => {
    const [a, b] = m.indicators;
    return t.sums[a].map((x, i) => (m.kind === "difference" ? x - t.sums[b][i] : x));
  };
  const boot: { metric: SummaryMetric; method: "percentile" | "bca" }[] = [];
  for (const m of metrics) {
    const method = _method(m, s.ci, clustered, groupKey);
    const num = numerator(m);
    if (method === "wilson") {
      const x = num.reduce((a, v, i) => a + v * t.w[i], 0);
      result.set(m.name, [wilsonInterval({ successes: x, trials: units, level: s.level }), method]);
    } else if (method === "newcombe") {
      result.set(m.name, [_newcombe(t, m, s.level, 1), method]);
    } else if (s.ci === "auto" && num.every((v, i) => v * t.m[0] === num[0] * t.m[i])) {
      // Every instance has the same value: the bootstrap has no spread and would give a
      // zero-width interval. Score interval with one observation per instance instead.
      result.set(m.name, _perInstance(t, m, instances, units, s.level));
    } else {
      boot.push({ metric: m, method });
    }
  }
  for (const method of ["percentile", "bca"] as const) {
    const these = boot.filter((b) => b.method === method);
    if (these.length === 0) continue;
    const intervals = bootstrapRatios({
      counts: t.w,
      sizes: t.m,
      numerators: these.map((b) => numerator(b.metric)),
      resamples: s.resamples,
      ci: method,
      level: s.level,
      seed,
    });
    these.forEach((b, i) => result.set(b.metric.name, [intervals[i], method]));
  }
  return result;
}

/** The interval method of one metric in one group. */
function _method(
  m: SummaryMetric,
  ci: CiChoice,
  clustered: boolean,
  groupKey: string,
): "wilson" | "newcombe" | "percentile" | "bca" {
  if (ci === "percentile" || ci === "bca") return ci;
  if (ci === "auto") return clustered ? m.clusteredCi : m.ci;
  if (clustered) {
    throw new RangeError(
      `Cannot summarize with --ci ${ci}: score intervals need one pair per instance, but ` +
        `instances hold several in group ${groupKey} (repeated trials, or operating points ` +
        `pooled by --by); use --ci auto or bca, which resample instances as clusters`,
    );
  }
  return m.ci;
}

/**
 * Newcombe's method 10 from the paired 2x2 table of a difference, summed over clusters and
 * scaled by `scale` (1, or instances / units for one observation per instance).
 */
function _newcombe(t: _Types, m: SummaryMetric, level: number, scale: number): Interval {
  const [a, b] = m.indicators, joint = _joint(m);
  let first = 0, second = 0, both = 0, units = 0;
  for (let i = 0; i < t.w.length; i++) {
    first += t.w[i] * t.sums[a][i];
    second += t.w[i] * t.sums[b][i];
    both += t.w[i] * t.sums[joint][i];
    units += t.w[i] * t.m[i];
  }
  return newcombeInterval({
    both: both * scale,
    firstOnly: (first - both) * scale,
    secondOnly: (second - both) * scale,
    neither: (units - first - second + both) * scale,
    level,
  });
}

/**
 * The score interval with the instances as sample size, when every instance has the same value
 * (so the cluster bootstrap has no spread): the counts are scaled by instances / units, the
 * largest design effect trials can have (identical trials), so 0 of 3 trials in each of 100
 * instances gets the interval of 0 of 100, and identical trials the one-trial interval.
 */
function _perInstance(
  t: _Types,
  m: SummaryMetric,
  instances: number,
  units: number,
  level: number,
): [Interval, CiMethod] {
  const scale = instances / units;
  if (m.kind === "difference") {
    return [_newcombe(t, m, level, scale), "newcombe-instances"];
  }
  const x = t.sums[m.indicators[0]].reduce((a, v, i) => a + v * t.w[i], 0);
  const r = wilsonInterval({ successes: Math.min(instances, x * scale), trials: instances, level });
  return [{ ...r, estimate: x / units }, "wilson-instances"];
}
