/**
 * The compact summary of a figure that `deno task reproduce` prints: one line per facet and
 * metric, one column per operating point, the median across agents in each cell.
 */
import pl from "nodejs-polars";
import {
  type FrameLike,
  frameRecords,
  METRIC_STYLE,
  METRICS,
  quantileType7,
} from "./_metric_panels.ts";

/**
 * Build the compact summary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactSummary } from "./compact_summary.ts";
 * const summary = [0, 1].flatMap((thetaW) => ["a", "b"].map((agent, i) => ({ agent, attack: "minja", thetaW, cleanUtility: 0.5 + 0.1 * i, poisonedUtility: 0.2, asr: thetaW / 2 })));
 * const t = compactSummary({ summary, x: "thetaW", keys: [["attack", "attack"]] });
 * assert.deepEqual(t.columns, ["attack", "metric", "0", "1"]);
 * assert.equal(t.toRecords()[0]["0"], 0.55);
 * ```
 */
export function compactSummary(options: {
  /** Per-agent summary. */
  summary: FrameLike;
  /** The varied column: one table column per value. */
  x: string;
  /** Categorical x in order; default numeric order. */
  categories?: readonly string[];
  /** Facet columns, each with its header. */
  keys: readonly (readonly [column: string, header: string])[];
  /** How a key value is shown; default as is. */
  format?: (column: string, value: unknown) => string;
  /** Metrics; default clean utility, poisoned utility, ASR. */
  metrics?: readonly string[];
  /** Order of a key column's values (a figure's facet order); default numeric, else sorted. */
  orders?: Readonly<Record<string, readonly string[]>>;
}): pl.DataFrame {
  const records = frameRecords(options.summary);
  const format = options.format ?? ((_c: string, v: unknown) => String(v));
  const xs = options.categories
    ? options.categories.filter((c) => records.some((r) => String(r[options.x]) === c))
    : [...new Set(records.map((r) => Number(r[options.x])))].sort((a, b) => a - b).map(String);
  const facets = new Map<string, Record<string, unknown>>();
  for (const r of records) {
    facets.set(JSON.stringify(options.keys.map(([c]) => r[c])), r);
  }
  const keyed = [...facets.entries()].sort(([, a], [, b]) =>
    compareKeys(options.keys.map(([c]) => c), a, b, options.orders ?? {})
  );
  const rows: Record<string, unknown>[] = [];
  for (const [key, first] of keyed) {
    for (const metric of options.metrics ?? METRICS) {
      const row: Record<string, unknown> = {};
      for (const [column, header] of options.keys) row[header] = format(column, first[column]);
      row.metric = METRIC_STYLE[metric]?.label ?? metric;
      for (const x of xs) {
        const values = records.filter((r) =>
          JSON.stringify(options.keys.map(([c]) => r[c])) === key &&
          (options.categories ? String(r[options.x]) === x : Number(r[options.x]) === Number(x))
        ).map((r) => r[metric]).filter((v) => v !== null && v !== undefined).map(Number)
          .toSorted((a, b) => a - b);
        row[x] = values.length ? Number(quantileType7(values, 0.5).toFixed(3)) : null;
      }
      const backends = records.filter((r) =>
        JSON.stringify(options.keys.map(([c]) => r[c])) === key && r.backend !== undefined
      ).map((r) => String(r.backend));
      if (backends.length) row.backend = [...new Set(backends)].join(", ");
      rows.push(row);
    }
  }
  if (rows.length === 0) return pl.DataFrame({});
  // Columns in this order: an object would put integer-like names ("0", "1") first.
  const columns = [
    ...options.keys.map(([, h]) => h),
    "metric",
    ...xs,
    ...(rows.some((r) => r.backend !== undefined) ? ["backend"] : []),
  ];
  return pl.DataFrame(columns.map((c) => {
    const values = rows.map((r) => r[c] ?? null);
    return xs.includes(c)
      ? pl.Series(c, values as (number | null)[], pl.Float64)
      : pl.Series(c, values.map(String), pl.Utf8);
  }));
}

/** Compare two records by key columns: a given order, else numbers, else strings. */
export function compareKeys(
  columns: readonly string[],
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  orders: Readonly<Record<string, readonly string[]>>,
): number {
  for (const c of columns) {
    const x = a[c], y = b[c];
    if (x === y) continue;
    const order = orders[c];
    if (order) {
      const d = order.indexOf(String(x)) - order.indexOf(String(y));
      if (d !== 0) return d;
    }
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (String(x) !== String(y)) return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}
