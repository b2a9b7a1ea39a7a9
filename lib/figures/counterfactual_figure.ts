/**
 * The record-level counterfactual figure: per operating point, the share of decisions undone by
 * replacing one retrieved record, by the record's role, with intervals (the kit's addition).
 */
import * as Plot from "@observablehq/plot";
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import { FONT_SIZE, type FrameLike, frameRecords } from "./_metric_panels.ts";
import { AXIS_LABEL, orderPolicies, withPanel } from "./labels.ts";

/** The flip rates drawn, in legend order, with their colour and meaning. */
export const FLIP_STYLE = {
  flipRisk: {
    label: "risk record removed: attack successes undone",
    color: "#e8463a",
  },
  flipHelpful: {
    label: "helpful record removed: correct answers lost",
    color: "#4269d0",
  },
  flipBackground: {
    label: "background record removed: decisions changed",
    color: "#8a8a8a",
  },
} as const;

/** The x column of each stage. */
const STAGES = { writing: "thetaW", management: "policy", retrieval: "thetaR" } as const;

/** How the caption names the interval methods a summary records in `<metric>CiMethod`. */
const _METHOD_TEXT: Record<string, string> = {
  wilson: "Wilson score",
  "wilson-instances": "Wilson score (per instance)",
  bca: "BCa cluster-bootstrap",
  percentile: "percentile bootstrap",
};

/** Options of {@link counterfactualFigure}. */
export interface CounterfactualFigureOptions {
  /**
   * Summaries with the flip-rate columns (`summarize(rows, { by: ["dataset", "attack", X] })` of
   * a sweep run with `--counterfactual loo`), per stage; give the stages that were run.
   */
  summaries: Partial<Record<keyof typeof STAGES, FrameLike>>;
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /** Confidence level the summaries used, for the caption; default 0.95. */
  level?: number;
  /** Extra caption text; default none. */
  note?: string;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

function _chart(
  document: Document,
  records: Record<string, unknown>[],
  x: string,
  xLabel: string,
  categories: readonly string[] | undefined,
): Element {
  const pos = (v: unknown) => categories ? categories.indexOf(String(v)) : Number(v);
  const xs = [...new Set(records.map((r) => pos(r[x])))].sort((a, b) => a - b);
  const step = xs.length > 1 ? Math.min(...xs.slice(1).map((p, i) => p - xs[i])) : 1;
  const metrics = Object.keys(FLIP_STYLE) as (keyof typeof FLIP_STYLE)[];
  // A missing rate (no reruns of that role at that point, e.g. no attack success) is no mark.
  const value = (v: unknown) => (v === null || v === undefined ? NaN : Number(v) * 100);
  const points = records.flatMap((r) =>
    metrics.map((metric, i) => ({
      panel: r.panel,
      metric,
      x: pos(r[x]) + (i - 1) * step * 0.18,
      y: value(r[metric]),
      lo: value(r[`${metric}Lo`]),
      hi: value(r[`${metric}Hi`]),
    }))
  ).filter((p) => Number.isFinite(p.y));
  const color = (d: { metric: keyof typeof FLIP_STYLE }) => FLIP_STYLE[d.metric].color;
  return Plot.plot({
    document,
    width: categories ? 400 : 440,
    height: 70 + 190 * (new Set(records.map((r) => r.panel)).size || 1),
    marginLeft: 52,
    marginRight: 150,
    marginBottom: 46,
    style: { fontSize: `${FONT_SIZE}px` },
    x: categories
      ? {
        label: xLabel,
        domain: [-0.5, categories.length - 0.5],
        ticks: categories.map((_, i) => i),
        tickFormat: (i: number) => categories[i] ?? "",
        labelArrow: "none",
        labelAnchor: "center",
      }
      : { label: xLabel, ticks: 5, inset: 10, labelArrow: "none", labelAnchor: "center" },
    y: { label: "flip rate (%)", labelArrow: "none", domain: [0, 100], grid: true, ticks: 5 },
    fy: { label: null },
    marks: [
      Plot.frame({ stroke: "#ccc" }),
      Plot.ruleX(points, { x: "x", y1: "lo", y2: "hi", fy: "panel", stroke: color }),
      Plot.dot(points, { x: "x", y: "y", fy: "panel", fill: color, r: 3.5 }),
    ],
  });
}

/**
 * Build the counterfactual figure: for each stage given, one chart with a panel per dataset and
 * attack; at each operating point a dot per role (the flip rate) and a bar (its interval).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counterfactualFigure } from "./counterfactual_figure.ts";
 * const r = { dataset: "demo", attack: "minja", thetaR: 0.8, flipRisk: 0.6, flipRiskLo: 0.4, flipRiskHi: 0.8,
 *   flipHelpful: 0.5, flipHelpfulLo: 0.3, flipHelpfulHi: 0.7, flipBackground: 0.05, flipBackgroundLo: 0.01, flipBackgroundHi: 0.1 };
 * const figure = counterfactualFigure({ summaries: { retrieval: [r] } });
 * assert.equal([...figure.querySelectorAll("svg")].filter((s) => s.hasAttribute("viewBox")).length, 1);
 * assert.throws(() => counterfactualFigure({ summaries: {} }), /no summary/);
 * ```
 */
export function counterfactualFigure(options: CounterfactualFigureOptions): Element {
  const document = options.document ?? createDocument();
  const methods = new Set<string>();
  const charts = (Object.keys(STAGES) as (keyof typeof STAGES)[]).flatMap((stage) => {
    const summary = options.summaries[stage];
    if (summary === undefined) return [];
    const records = withPanel(frameRecords(summary));
    for (const r of records) {
      for (const metric of Object.keys(FLIP_STYLE)) {
        const m = r[`${metric}CiMethod`];
        if (typeof m === "string") methods.add(_METHOD_TEXT[m] ?? m);
      }
    }
    const x = STAGES[stage];
    const categories = stage === "management"
      ? orderPolicies(records.map((r) => String(r.policy)))
      : undefined;
    return [_chart(document, records, x, AXIS_LABEL[x], categories)];
  });
  if (charts.length === 0) {
    throw new RangeError(
      "Cannot draw the counterfactual figure: no summary given (expected writing, management or retrieval)",
    );
  }
  const level = Math.round((options.level ?? 0.95) * 100);
  return composeFigure({
    document,
    charts,
    title: "Record-level counterfactual per operating point",
    subtitle: "Each retrieved record replaced in turn by the next background record (K unchanged).",
    legend: Object.values(FLIP_STYLE).map(({ label, color }) => ({ label, color })),
    caption: `Agent backend: ${
      options.agentLabel ?? "offline reference agent"
    }; agents pooled, instances resampled as clusters. Risk: share of attack successes (poisoned runs matching y_adv) that no longer match it; helpful: share of correct clean runs no longer correct; background: either, for a background record. Dots: flip rate; bars: ${level}% ${
      methods.size > 0 ? `${[...methods].join(" / ")} interval` : "interval"
    }. The kit's addition: the paper does not run it.${options.note ? ` ${options.note}` : ""}`,
  });
}
