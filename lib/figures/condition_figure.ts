/**
 * Figures 4-7 as the paper draws them: one panel per metric (clean utility, poisoned utility,
 * ASR), one line per condition (trace load, ranker, budget and fill, policy), the operating point
 * or |B| on the x-axis, and the paper's values on the same axes.
 */
import * as Plot from "@observablehq/plot";
import { composeFigure, type LegendEntry } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import {
  FONT_SIZE,
  frameRecords,
  METRIC_STYLE,
  METRICS,
  quantileType7,
  RATE_AXIS,
} from "./_metric_panels.ts";
import type { PaperValue } from "./paper_values.ts";

/** Line colours of the conditions, in condition order (Observable's categorical palette). */
export const CONDITION_COLORS: readonly string[] = [
  "#4269d0",
  "#efb118",
  "#ff725c",
  "#6cc5b0",
  "#a463f2",
  "#9c6b4e",
  "#97bbf5",
  "#3ca951",
];

/** Colour of a paper value stated for every condition at once. */
export const EVERY_CONDITION_COLOR = "#aaa";

/** Options of {@link conditionFigure}. */
export interface ConditionFigureOptions {
  /** Per-agent summary frame or records (one row per agent, condition and x). */
  summary: FrameLike;
  /** Column on the x-axis. */
  x: string;
  /** Axis label of x. */
  xLabel: string;
  /**
   * Ordinal x values in order (e.g. |B| = 50, 100, 300, 500), drawn evenly spaced; default none
   * (x is numeric). Include values only the paper has, so its values share the axis.
   */
  categories?: readonly string[];
  /** Column whose values are the lines. */
  condition: string;
  /** Conditions in order; default numeric order when every value is a number, else first seen. */
  conditions?: readonly string[];
  /** Legend text of a condition; default `${condition} = value`. */
  conditionLabel?: (value: string) => string;
  /** What the lines are, for the caption ("trace load"); default the condition column's name. */
  conditionName?: string;
  /** Line colours in condition order; default {@link CONDITION_COLORS}. */
  colors?: readonly string[];
  /** Title. */
  title: string;
  /** Caption text after the standard sentences; default none. */
  note?: string;
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /**
   * The paper's values: `panel` names the condition a value belongs to ("" = every condition),
   * `x` its operating point; drawn as diamonds (a bar for a range) in the metric's panel.
   */
  paper?: readonly PaperValue[];
  /** Who produced the paper's values, for the caption; default "the paper's published value or range". */
  paperSource?: string;
  /** Metrics, one panel each; default clean utility, poisoned utility, ASR. */
  metrics?: readonly string[];
  /** Chart width; default 1000. */
  width?: number;
  /** Chart height; default 330. */
  height?: number;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

function _order(values: readonly string[]): string[] {
  const distinct = [...new Set(values)];
  return distinct.every((v) => v !== "" && Number.isFinite(Number(v)))
    ? distinct.toSorted((a, b) => Number(a) - Number(b))
    : distinct;
}

/**
 * Build the figure: per metric panel, per condition, the median across agents joined by a line,
 * its interquartile range as a bar at each point (conditions dodged sideways so bars never hide
 * each other), and the paper's values as diamonds coloured as their condition (grey when the
 * paper states one value for every condition). Rates run 0-100% with room above and below, so
 * nothing sits on a panel's edge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { conditionFigure } from "./condition_figure.ts";
 * const summary = [0.75, 1].flatMap((traceLoad) => [0, 1].map((thetaW) => ({ agent: "a", traceLoad, thetaW, cleanUtility: 0.5, poisonedUtility: 0.2, asr: thetaW / 2 })));
 * const figure = conditionFigure({ summary, x: "thetaW", xLabel: "θw", condition: "traceLoad", title: "Figure 4" });
 * assert.match(figure.textContent ?? "", /clean utility[\s\S]*poisoned utility[\s\S]*ASR/);
 * assert.equal(figure.querySelectorAll(".memgauge-swatch").length, 2); // one line per condition
 * ```
 */
export function conditionFigure(options: ConditionFigureOptions): Element {
  const document = options.document ?? createDocument();
  const records = frameRecords(options.summary);
  const metrics = options.metrics ?? METRICS;
  const conditions = options.conditions
    ? options.conditions.filter((c) => records.some((r) => String(r[options.condition]) === c))
    : _order(records.map((r) => String(r[options.condition])));
  const colors = options.colors ?? CONDITION_COLORS;
  // Colours follow the order given, so a condition keeps its colour when another is missing.
  const palette = options.conditions ?? conditions;
  const colorOf = (c: string) => colors[Math.max(0, palette.indexOf(c)) % colors.length];
  const label = options.conditionLabel ?? ((v: string) => `${options.condition} = ${v}`);
  const categories = options.categories;
  const xPos = (v: unknown) => categories ? categories.indexOf(String(v)) : Number(v);

  const groups = new Map<string, { condition: string; x: number; metric: string; v: number[] }>();
  for (const r of records) {
    const condition = String(r[options.condition]);
    if (!conditions.includes(condition)) continue;
    const x = xPos(r[options.x]);
    if (!Number.isFinite(x) || (categories !== undefined && x < 0)) continue;
    for (const metric of metrics) {
      const value = r[metric];
      if (value === null || value === undefined || !Number.isFinite(Number(value))) continue;
      const key = JSON.stringify([condition, x, metric]);
      const g = groups.get(key) ?? { condition, x, metric, v: [] };
      g.v.push(Number(value));
      groups.set(key, g);
    }
  }
  const positions = [...new Set([...groups.values()].map((g) => g.x))].sort((a, b) => a - b);
  const step = categories
    ? 1
    : positions.length > 1
    ? Math.min(...positions.slice(1).map((p, i) => p - positions[i]))
    : 0.1;
  // Conditions sit side by side around each x, so their bars and diamonds never overlap.
  const dodge = (condition: string) =>
    conditions.length < 2
      ? 0
      : (conditions.indexOf(condition) - (conditions.length - 1) / 2) * step *
        Math.min(0.25, 0.8 / conditions.length);
  const panelOf = (metric: string) => METRIC_STYLE[metric]?.label ?? metric;
  const stats = [...groups.values()].map(({ condition, x, metric, v }) => {
    const s = v.toSorted((a, b) => a - b);
    return {
      condition,
      metric: panelOf(metric),
      x: x + dodge(condition),
      median: quantileType7(s, 0.5),
      p25: quantileType7(s, 0.25),
      p75: quantileType7(s, 0.75),
    };
  }).sort((a, b) => a.x - b.x);

  const paper = (options.paper ?? []).filter((p) =>
    metrics.includes(p.metric) && (p.panel === "" || conditions.includes(p.panel)) &&
    Number.isFinite(xPos(p.x)) && !(categories && xPos(p.x) < 0)
  ).map((p) => ({
    panel: p.panel,
    metric: panelOf(p.metric),
    x: xPos(p.x) + (p.panel === "" ? 0 : dodge(p.panel)),
    lo: p.lo,
    hi: p.hi,
    color: p.panel === "" ? EVERY_CONDITION_COLOR : colorOf(p.panel),
  }));

  const stroke = (d: { condition: string }) => colorOf(d.condition);
  const facet = { fx: "metric" };
  const chart = Plot.plot({
    document,
    width: options.width ?? 1000,
    height: options.height ?? 330,
    marginLeft: 52,
    marginRight: 16,
    marginBottom: 46,
    marginTop: 34,
    style: { fontSize: `${FONT_SIZE}px` },
    fx: { label: null, domain: metrics.map(panelOf), padding: 0.12 },
    x: {
      label: options.xLabel,
      labelAnchor: "center",
      labelArrow: "none" as const,
      ...(categories
        ? {
          domain: [-0.5, categories.length - 0.5],
          ticks: categories.map((_, i) => i),
          tickFormat: (i: number) => categories[i] ?? "",
        }
        : { ticks: 5, tickFormat: "~f", inset: 12 }),
    },
    y: RATE_AXIS,
    marks: [
      Plot.frame({ stroke: "#ccc" }),
      Plot.ruleX(stats, {
        x: "x",
        y1: "p25",
        y2: "p75",
        stroke,
        strokeWidth: 1.5,
        strokeOpacity: 0.75,
        ...facet,
      }),
      Plot.lineY(stats, {
        x: "x",
        y: "median",
        z: "condition",
        stroke,
        strokeWidth: 2,
        ...facet,
      }),
      Plot.dot(stats, { x: "x", y: "median", fill: stroke, r: 3, ...facet }),
      Plot.ruleX(paper.filter((p) => p.lo !== p.hi), {
        x: "x",
        y1: "lo",
        y2: "hi",
        stroke: (d: { color: string }) => d.color,
        strokeWidth: 5,
        strokeOpacity: 0.45,
        ...facet,
      }),
      Plot.dot(
        paper.flatMap((p) =>
          p.lo === p.hi ? [{ ...p, y: p.lo }] : [{ ...p, y: p.lo }, { ...p, y: p.hi }]
        ),
        {
          x: "x",
          y: "y",
          symbol: "diamond",
          r: 5.5,
          stroke: "#222",
          strokeWidth: 1,
          fill: (d: { color: string }) => d.color,
          ...facet,
        },
      ),
    ],
  });

  const legend: LegendEntry[] = conditions.map((c) => ({
    label: label(c),
    color: colorOf(c),
    shape: "line" as const,
  }));
  const perLine = paper.some((p) => p.panel !== "");
  const everyLine = paper.some((p) => p.panel === "");
  if (perLine) legend.push({ label: "paper (its line's colour)", color: "#222", shape: "diamond" });
  if (everyLine) {
    legend.push({ label: "paper: every line", color: EVERY_CONDITION_COLOR, shape: "diamond" });
  }
  const agents = new Set(records.map((r) => r.agent)).size;
  return composeFigure({
    document,
    charts: [chart],
    title: options.title,
    legend,
    caption:
      `Agent backend: ${options.agentLabel ?? "offline reference agent"} (${agents} agent${
        agents === 1 ? "" : "s"
      }). One panel per metric, one line per ${
        options.conditionName ?? options.condition
      }: the median across agents, with a bar spanning the interquartile range at each point.` +
      (paper.length > 0
        ? ` Diamonds: ${options.paperSource ?? "the paper's published value or range"}, ${
          perLine && everyLine
            ? "coloured as the line it belongs to (grey: stated for every line)"
            : perLine
            ? "coloured as the line it belongs to"
            : "in grey: the paper states it for every line"
        }${paper.some((p) => p.lo !== p.hi) ? "; a bar joins the ends of a range" : ""}.`
        : "") +
      (options.note ? ` ${options.note}` : ""),
  });
}
