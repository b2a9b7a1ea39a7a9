/** Shared drawing for the paper's metric figures: median line, IQR band and a box per point. */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import type { LegendEntry } from "./compose_figure.ts";
import type { PaperValue } from "./paper_values.ts";

/** Metric colours and labels, the same in every figure. */
export const METRIC_STYLE: Record<string, { label: string; color: string }> = {
  cleanUtility: { label: "clean utility", color: "#4269d0" },
  poisonedUtility: { label: "poisoned utility", color: "#3ca951" },
  asr: { label: "ASR", color: "#e8463a" },
  midAsr: { label: "MID (ASR)", color: "#e8463a" },
  midUtility: { label: "MID (utility)", color: "#4269d0" },
};

/** The paper's three metrics, in the order every figure and table shows them. */
export const METRICS = ["cleanUtility", "poisonedUtility", "asr"] as const;

/** Type size of every chart's ticks and labels (px). */
export const FONT_SIZE = 13;

/**
 * The rate axis every metric panel shares: 0-100%, five ticks, a grid, and room above 100% and
 * below 0% so a box, bar or diamond at either end stays inside the panel.
 */
export const RATE_AXIS = {
  label: "rate (%)",
  labelArrow: "none" as const,
  domain: [0, 100],
  percent: true,
  grid: true,
  ticks: 5,
  insetTop: 8,
  insetBottom: 8,
};

/** Frame or records, as every builder accepts. */
export type FrameLike = pl.DataFrame | readonly Record<string, unknown>[];

export function frameRecords(frame: FrameLike): Record<string, unknown>[] {
  return Array.isArray(frame) ? [...frame] : (frame as pl.DataFrame).toRecords();
}

/** Quantile type 7 (linear), as R's default and numpy's, of sorted values. */
export function quantileType7(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)]) - sorted[lo]);
}

/** Legend: the metrics, then one diamond per metric the paper states a value of. */
export function metricLegend(
  metrics: readonly string[],
  paper: readonly PaperValue[],
): LegendEntry[] {
  const stated = metrics.filter((m) => paper.some((p) => p.metric === m));
  return [
    ...metrics.map((m) => ({ label: METRIC_STYLE[m].label, color: METRIC_STYLE[m].color })),
    ...stated.map((m) => ({
      label: `paper: ${METRIC_STYLE[m].label}`,
      color: METRIC_STYLE[m].color,
      shape: "diamond" as const,
    })),
  ];
}

/** Options of {@link metricPanels}. */
export interface _MetricPanelsOptions {
  document: Document;
  /** Per-agent summary records (one row per agent and operating point). */
  records: readonly Record<string, unknown>[];
  /** Column on the x axis. */
  x: string;
  xLabel: string;
  /** Categorical x: its values in order (drawn at 0, 1, ...). */
  categories?: readonly string[];
  /** Column faceted into columns; its values are compared as strings. */
  fx?: string;
  /** Column facets in order; default numeric order when every value is a number, else first seen. */
  fxDomain?: readonly string[];
  /** Header of a column facet; default `${fx} = value`. */
  fxFormat?: (value: string) => string;
  fy?: string;
  /** Header of a row facet; default the value. */
  fyFormat?: (value: string) => string;
  metrics: readonly string[];
  paper: readonly PaperValue[];
  width: number;
  height: number;
  /** Join medians with a line and an IQR band (false for unordered policies). */
  connect: boolean;
}

function _order(values: readonly string[]): string[] {
  const distinct = [...new Set(values)];
  return distinct.every((v) => v !== "" && Number.isFinite(Number(v)))
    ? distinct.toSorted((a, b) => Number(a) - Number(b))
    : distinct;
}

/** Whether a paper value's `panel` applies to a facet (a facet "demo · sleeper" has panel "sleeper"). */
function _applies(panel: string, facet: unknown): boolean {
  if (panel === "") return true;
  if (facet === undefined) return false;
  const p = panel.toLowerCase();
  return String(facet).toLowerCase() === p ||
    String(facet).toLowerCase().split(" · ").includes(p);
}

/** One chart: per facet, x and metric, the median across agents, IQR band and a box. */
export function metricPanels(o: _MetricPanelsOptions): Element {
  const groups = new Map<string, { row: Record<string, unknown>; metric: string; v: number[] }>();
  const xPos = (v: unknown) => o.categories ? o.categories.indexOf(String(v)) : Number(v);
  for (const r of o.records) {
    for (const metric of o.metrics) {
      const value = r[metric];
      if (value === null || value === undefined || Number.isNaN(Number(value))) continue;
      const key = JSON.stringify([o.fx ? String(r[o.fx]) : 0, o.fy ? r[o.fy] : 0, r[o.x], metric]);
      const g = groups.get(key) ?? { row: r, metric, v: [] };
      g.v.push(Number(value));
      groups.set(key, g);
    }
  }
  const positions = [...new Set([...groups.values()].map((g) => xPos(g.row[o.x])))].sort((a, b) =>
    a - b
  );
  const step = o.categories
    ? 1
    : positions.length > 1
    ? Math.min(...positions.slice(1).map((p, i) => p - positions[i]))
    : 0.1;
  const offsetOf = (metric: string) =>
    (o.metrics.indexOf(metric) - (o.metrics.length - 1) / 2) * step * (o.categories ? 0.24 : 0.16);
  const stats = [...groups.values()].map(({ row, metric, v }) => {
    const s = v.toSorted((a, b) => a - b);
    const x = xPos(row[o.x]) + offsetOf(metric);
    const half = step * (o.categories ? 0.09 : 0.06);
    return {
      fx: o.fx ? String(row[o.fx]) : undefined,
      fy: o.fy ? row[o.fy] : undefined,
      metric,
      xMid: xPos(row[o.x]),
      x,
      x1: x - half,
      x2: x + half,
      median: quantileType7(s, 0.5),
      p25: quantileType7(s, 0.25),
      p75: quantileType7(s, 0.75),
      min: s[0],
      max: s[s.length - 1],
    };
  }).sort((a, b) => a.x - b.x);
  const fxValues = o.fxDomain ? [...o.fxDomain] : _order(stats.map((s) => s.fx ?? ""));
  const fyValues = [...new Set(stats.map((s) => s.fy))];
  const paperMarks = o.paper.filter((p) => o.metrics.includes(p.metric)).flatMap((p) => {
    const x = xPos(p.x) + offsetOf(p.metric);
    if (!Number.isFinite(x) || x < -0.5) return [];
    const cells: { fx: string | undefined; fy: unknown }[] = [];
    for (const fx of o.fx ? fxValues : [undefined]) {
      for (const fy of o.fy ? fyValues : [undefined]) {
        // A panel names a column facet, a row facet or part of one ("sleeper").
        const ok = p.panel === "" || _applies(p.panel, fx) || _applies(p.panel, fy);
        if (ok) cells.push({ fx, fy });
      }
    }
    return cells.map((c) => ({ ...c, x, lo: p.lo, hi: p.hi, metric: p.metric }));
  });
  const facet = { fx: o.fx ? "fx" : undefined, fy: o.fy ? "fy" : undefined };
  const color = (d: { metric: string }) => METRIC_STYLE[d.metric].color;
  const line = o.connect
    ? [
      // Each metric's line and band pass through its own boxes (offset beside the others).
      Plot.areaY(stats, {
        x: "x",
        y1: "p25",
        y2: "p75",
        z: "metric",
        fill: color,
        fillOpacity: 0.14,
        ...facet,
      }),
      Plot.lineY(stats, {
        x: "x",
        y: "median",
        z: "metric",
        stroke: color,
        strokeWidth: 2,
        ...facet,
      }),
    ]
    : [];
  const fxFormat = o.fxFormat ?? ((v: string) => `${o.fx} = ${v}`);
  const fyFormat = o.fyFormat ?? ((v: string) => v);
  return Plot.plot({
    document: o.document,
    width: o.width,
    height: o.height,
    marginLeft: 52,
    marginRight: o.fy ? 150 : 16,
    marginBottom: 46,
    marginTop: o.fx ? 34 : 24,
    style: { fontSize: `${FONT_SIZE}px` },
    x: {
      label: o.xLabel,
      labelAnchor: "center",
      labelArrow: "none" as const,
      ...(o.categories
        ? {
          domain: [-0.5, o.categories.length - 0.5],
          ticks: o.categories.map((_, i) => i),
          tickFormat: (i: number) => o.categories?.[i] ?? "",
        }
        : { ticks: 5, tickFormat: "~f", inset: 10 }),
    },
    y: RATE_AXIS,
    fx: o.fx ? { label: null, domain: fxValues, tickFormat: fxFormat } : undefined,
    fy: o.fy ? { label: null, tickFormat: (v: string) => fyFormat(String(v)) } : undefined,
    marks: [
      Plot.frame({ stroke: "#ccc" }),
      ...line,
      Plot.ruleX(stats, { x: "x", y1: "min", y2: "max", stroke: color, strokeWidth: 1, ...facet }),
      Plot.rect(stats, {
        x1: "x1",
        x2: "x2",
        y1: "p25",
        y2: "p75",
        fill: "white",
        stroke: color,
        strokeWidth: 1.2,
        ...facet,
      }),
      Plot.ruleY(stats, {
        x1: "x1",
        x2: "x2",
        y: "median",
        stroke: color,
        strokeWidth: 2.5,
        ...facet,
      }),
      Plot.ruleX(paperMarks, {
        x: "x",
        y1: "lo",
        y2: "hi",
        stroke: color,
        strokeWidth: 5,
        strokeOpacity: 0.45,
        ...facet,
      }),
      Plot.dot(
        paperMarks.flatMap((p) =>
          p.lo === p.hi ? [{ ...p, y: p.lo }] : [
            { ...p, y: p.lo },
            { ...p, y: p.hi },
          ]
        ),
        {
          x: "x",
          y: "y",
          symbol: "diamond",
          r: 5,
          stroke: "#222",
          strokeWidth: 1,
          fill: color,
          ...facet,
        },
      ),
    ],
  });
}
