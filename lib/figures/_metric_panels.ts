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

/** Frame or records, as every builder accepts. */
export type FrameLike = pl.DataFrame | readonly Record<string, unknown>[];

export function _records(frame: FrameLike): Record<string, unknown>[] {
  return Array.isArray(frame) ? [...frame] : (frame as pl.DataFrame).toRecords();
}

function _quantile(sorted: number[], p: number): number {
  // Type 7 (linear), as R's default and numpy's.
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)]) - sorted[lo]);
}

/** Legend for the three paper metrics plus the paper overlay. */
export function _metricLegend(metrics: readonly string[], paper: boolean): LegendEntry[] {
  return [
    ...metrics.map((m) => ({ label: METRIC_STYLE[m].label, color: METRIC_STYLE[m].color })),
    ...(paper
      ? [{ label: "paper (published range)", color: "#222", shape: "diamond" as const }]
      : []),
  ];
}

/** Options of {@link _metricPanels}. */
export interface _MetricPanelsOptions {
  document: Document;
  /** Per-agent summary records (one row per agent and operating point). */
  records: readonly Record<string, unknown>[];
  /** Column on the x axis. */
  x: string;
  xLabel: string;
  /** Categorical x: its values in order (drawn at 0, 1, ...). */
  categories?: readonly string[];
  fx?: string;
  fy?: string;
  fxLabel?: string;
  metrics: readonly string[];
  paper: readonly PaperValue[];
  width: number;
  height: number;
  /** Join medians with a line and an IQR band (false for unordered policies). */
  connect: boolean;
}

/** One chart: per facet, x and metric, the median across agents, IQR band and a box. */
export function _metricPanels(o: _MetricPanelsOptions): Element {
  const groups = new Map<string, { row: Record<string, unknown>; metric: string; v: number[] }>();
  const xPos = (v: unknown) => o.categories ? o.categories.indexOf(String(v)) : Number(v);
  for (const r of o.records) {
    for (const metric of o.metrics) {
      const value = r[metric];
      if (value === null || value === undefined || Number.isNaN(Number(value))) continue;
      const key = JSON.stringify([o.fx ? r[o.fx] : 0, o.fy ? r[o.fy] : 0, r[o.x], metric]);
      const g = groups.get(key) ?? { row: r, metric, v: [] };
      g.v.push(Number(value));
      groups.set(key, g);
    }
  }
  const positions = [...new Set([...groups.values()].map((g) => xPos(g.row[o.x])))].sort((a, b) =>
    a - b
  );
  const step = positions.length > 1
    ? Math.min(...positions.slice(1).map((p, i) => p - positions[i]))
    : 1;
  const stats = [...groups.values()].map(({ row, metric, v }) => {
    const s = v.toSorted((a, b) => a - b);
    const offset = (o.metrics.indexOf(metric) - (o.metrics.length - 1) / 2) * step * 0.16;
    const x = xPos(row[o.x]) + offset;
    return {
      fx: o.fx ? row[o.fx] : undefined,
      fy: o.fy ? row[o.fy] : undefined,
      metric,
      xMid: xPos(row[o.x]),
      x,
      x1: x - step * 0.06,
      x2: x + step * 0.06,
      median: _quantile(s, 0.5),
      p25: _quantile(s, 0.25),
      p75: _quantile(s, 0.75),
      min: s[0],
      max: s[s.length - 1],
    };
  }).sort((a, b) => a.xMid - b.xMid);
  const paperMarks = o.paper.flatMap((p) => {
    const all = [...new Set(stats.map((s) => JSON.stringify([s.fx, s.fy])))].map((k) =>
      JSON.parse(k) as [unknown, unknown]
    );
    const panels = p.panel === ""
      ? all
      : all.filter(([fx, fy]) => String(fx) === p.panel || String(fy) === p.panel);
    const x = xPos(p.x) + (o.metrics.indexOf(p.metric) - (o.metrics.length - 1) / 2) * step * 0.16;
    return panels.map(([fx, fy]) => ({ fx, fy, x, lo: p.lo, hi: p.hi, metric: p.metric }));
  }).filter((p) => Number.isFinite(p.x) && o.metrics.includes(p.metric));
  const facet = { fx: o.fx ? "fx" : undefined, fy: o.fy ? "fy" : undefined };
  const color = (d: { metric: string }) => METRIC_STYLE[d.metric].color;
  const line = o.connect
    ? [
      Plot.areaY(stats, {
        x: "xMid",
        y1: "p25",
        y2: "p75",
        z: "metric",
        fill: color,
        fillOpacity: 0.14,
        ...facet,
      }),
      Plot.lineY(stats, {
        x: "xMid",
        y: "median",
        z: "metric",
        stroke: color,
        strokeWidth: 1.8,
        ...facet,
      }),
    ]
    : [];
  return Plot.plot({
    document: o.document,
    width: o.width,
    height: o.height,
    marginLeft: 48,
    marginRight: o.fy ? 105 : 16,
    marginBottom: 40,
    style: { fontSize: "11px" },
    x: {
      label: o.xLabel,
      ...(o.categories
        ? {
          domain: [-0.5, o.categories.length - 0.5],
          ticks: o.categories.map((_, i) => i),
          tickFormat: (i: number) => o.categories?.[i] ?? "",
          labelArrow: "none" as const,
        }
        : { ticks: 5, inset: 8 }),
    },
    y: { label: "rate (%)", domain: [0, 100], percent: true, grid: true, ticks: 5 },
    fx: o.fx
      ? { label: null, tickFormat: (v: unknown) => `${o.fxLabel ?? o.fx} = ${v}` }
      : undefined,
    fy: o.fy ? { label: null } : undefined,
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
        ...facet,
      }),
      Plot.ruleY(stats, {
        x1: "x1",
        x2: "x2",
        y: "median",
        stroke: color,
        strokeWidth: 2,
        ...facet,
      }),
      Plot.ruleX(paperMarks, {
        x: "x",
        y1: "lo",
        y2: "hi",
        stroke: color,
        strokeWidth: 4,
        strokeOpacity: 0.5,
        ...facet,
      }),
      Plot.dot(paperMarks.flatMap((p) => [{ ...p, y: p.lo }, { ...p, y: p.hi }]), {
        x: "x",
        y: "y",
        symbol: "diamond",
        r: 3.5,
        stroke: "#222",
        fill: "white",
        ...facet,
      }),
    ],
  });
}
