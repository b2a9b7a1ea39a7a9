/**
 * The paper beside the kit, per operating point: for each metric (clean utility, poisoned
 * utility, ASR) the paper's published value or range, then the kit's median across agents and
 * its interquartile range (P25, P75; quantile type 7, as the figures draw them).
 */
import pl from "nodejs-polars";
import {
  type FrameLike,
  frameRecords,
  METRIC_STYLE,
  METRICS,
  quantileType7,
} from "./_metric_panels.ts";
import { fixed } from "./labels.ts";
import { compareKeys } from "./compact_summary.ts";
import type { PaperValue } from "./paper_values.ts";

/** Options of {@link besidePaper}. */
export interface BesidePaperOptions {
  /** Per-agent summary records (one row per agent and operating point). */
  summary: FrameLike;
  /** The varied column. */
  x: string;
  /** Its header in the table. */
  xLabel: string;
  /** Categorical x in order (policies); default numeric order. */
  categories?: readonly string[];
  /** Grouping columns shown before x, each with its header: `[["attack", "attack"], ...]`. */
  keys: readonly (readonly [column: string, header: string])[];
  /** How a key value is shown; default as is. */
  format?: (column: string, value: unknown) => string;
  /** The facet a record belongs to, as the paper values' `panel` names it. */
  panelOf: (record: Record<string, unknown>) => string;
  /** The paper's values of this figure. */
  paper: readonly PaperValue[];
  /** Order of a key column's values (a figure's facet order); default numeric, else sorted. */
  orders?: Readonly<Record<string, readonly string[]>>;
}

function _applies(panel: string, facet: string): boolean {
  if (panel === "") return true;
  const p = panel.toLowerCase();
  return facet.toLowerCase() === p || facet.toLowerCase().split(" · ").includes(p);
}

/**
 * Build the table: one row per key and operating point; columns interleave paper and kit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { besidePaper } from "./beside_paper.ts";
 * const summary = [0.2, 0.4, 0.6].map((asr, i) => ({ agent: `a${i}`, attack: "minja", thetaW: 1, cleanUtility: 0.5, poisonedUtility: 0.3, asr }));
 * const paper = [{ figure: "figure3", stage: "writing", panel: "", x: "1", metric: "asr", lo: 0.37, hi: 0.64, note: "" }];
 * const t = besidePaper({ summary, x: "thetaW", xLabel: "θw", keys: [["attack", "attack"]], panelOf: () => "", paper });
 * const row = t.toRecords()[0];
 * assert.equal(row["ASR: paper"], "0.370–0.640");
 * assert.equal(row["ASR: kit"], 0.4);
 * assert.equal(row["ASR: P25"], 0.3);
 * ```
 */
export function besidePaper(options: BesidePaperOptions): pl.DataFrame {
  const records = frameRecords(options.summary);
  const format = options.format ?? ((_c: string, v: unknown) => String(v));
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of records) {
    const key = JSON.stringify([...options.keys.map(([c]) => r[c]), r[options.x]]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const order = (r: Record<string, unknown>) =>
    options.categories ? options.categories.indexOf(String(r[options.x])) : Number(r[options.x]);
  const rows = [...groups.values()].map((members) => {
    const first = members[0];
    const panel = options.panelOf(first);
    const out: Record<string, unknown> = {};
    for (const [column, header] of options.keys) out[header] = format(column, first[column]);
    out[options.xLabel] = String(first[options.x]);
    for (const metric of METRICS) {
      const label = METRIC_STYLE[metric].label;
      const stated = options.paper.filter((p) =>
        p.metric === metric && _applies(p.panel, panel) &&
        (options.categories
          ? p.x === String(first[options.x])
          : Number(p.x) === Number(first[options.x]))
      );
      out[`${label}: paper`] = stated.map((p) =>
        p.lo === p.hi ? fixed(p.lo) : `${fixed(p.lo)}–${fixed(p.hi)}`
      ).join("; ");
      const values = members.map((m) => m[metric]).filter((v) => v !== null && v !== undefined)
        .map(Number).filter(Number.isFinite).toSorted((a, b) => a - b);
      const q = (p: number) => values.length ? Number(quantileType7(values, p).toFixed(3)) : null;
      out[`${label}: kit`] = q(0.5);
      out[`${label}: P25`] = q(0.25);
      out[`${label}: P75`] = q(0.75);
    }
    out.agents = new Set(members.map((m) => m.agent)).size;
    out.backend = [...new Set(members.map((m) => m.backend).filter((b) => b !== undefined))]
      .join(", ");
    return { out, first };
  });
  const columns = options.keys.map(([c]) => c);
  rows.sort((a, b) =>
    compareKeys(columns, a.first, b.first, options.orders ?? {}) || order(a.first) - order(b.first)
  );
  return _frame(rows.map((r) => r.out));
}

/** A frame with float metric columns even when a column holds only nulls. */
function _frame(rows: Record<string, unknown>[]): pl.DataFrame {
  if (rows.length === 0) return pl.DataFrame({});
  const columns = Object.keys(rows[0]);
  return pl.DataFrame(Object.fromEntries(columns.map((c) => {
    const values = rows.map((r) => r[c] ?? null);
    const numeric = /: (kit|P25|P75)$/.test(c);
    if (c === "agents") return [c, pl.Series(c, values as number[], pl.Int32)];
    return [c, numeric ? pl.Series(c, values as (number | null)[], pl.Float64) : values];
  })));
}

/**
 * The kit's median across agents of one metric at the rows matching `where` (the number a
 * figure draws there), or null when no row matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kitMedian } from "./beside_paper.ts";
 * const summary = [0.2, 0.4, 0.9].map((asr, i) => ({ agent: `a${i}`, attack: "minja", thetaW: 1, asr }));
 * assert.equal(kitMedian({ summary, metric: "asr", where: { attack: "minja", thetaW: 1 } }), 0.4);
 * assert.equal(kitMedian({ summary, metric: "asr", where: { thetaW: 0 } }), null);
 * ```
 */
export function kitMedian(options: {
  /** Per-agent summary. */
  summary: FrameLike;
  /** Metric column. */
  metric: string;
  /** Column values the rows must have (numbers compared as numbers). */
  where: Readonly<Record<string, string | number>>;
}): number | null {
  const values = frameRecords(options.summary).filter((r) =>
    Object.entries(options.where).every(([c, v]) =>
      typeof v === "number" ? Number(r[c]) === v : String(r[c]) === v
    )
  ).map((r) => r[options.metric]).filter((v) => v !== null && v !== undefined).map(Number)
    .toSorted((a, b) => a - b);
  return values.length ? Number(quantileType7(values, 0.5).toFixed(3)) : null;
}
