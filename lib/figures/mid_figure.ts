/** The kit's MID figure: paired effect of the risk trace per operating point, with intervals. */
import * as Plot from "@observablehq/plot";
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import { FONT_SIZE, frameRecords, METRIC_STYLE } from "./_metric_panels.ts";
import { AXIS_LABEL, orderPolicies, withPanel } from "./labels.ts";

/** Options of {@link midFigure}. */
export interface MidFigureOptions {
  /** Summaries pooled over agents (`summarize(rows, { by: ["dataset", "attack", X] })`) of the
   * writing (X = thetaW), management (X = policy) and retrieval (X = thetaR) sweeps. */
  summaries: { writing: FrameLike; management: FrameLike; retrieval: FrameLike };
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
  width: number,
  domain: readonly [number, number],
): Element {
  const pos = (v: unknown) => categories ? categories.indexOf(String(v)) : Number(v);
  const xs = [...new Set(records.map((r) => pos(r[x])))].sort((a, b) => a - b);
  const step = xs.length > 1 ? Math.min(...xs.slice(1).map((p, i) => p - xs[i])) : 1;
  const points = records.flatMap((r) =>
    (["midAsr", "midUtility"] as const).map((metric, i) => ({
      panel: r.panel,
      metric,
      x: pos(r[x]) + (i - 0.5) * step * 0.2,
      y: Number(r[metric]) * 100,
      lo: Number(r[`${metric}Lo`]) * 100,
      hi: Number(r[`${metric}Hi`]) * 100,
    }))
  ).filter((p) => Number.isFinite(p.y));
  const color = (d: { metric: string }) => METRIC_STYLE[d.metric].color;
  return Plot.plot({
    document,
    width,
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
      : {
        label: xLabel,
        ticks: 5,
        tickFormat: "~f",
        inset: 10,
        labelArrow: "none",
        labelAnchor: "center",
      },
    // One domain for the three charts, padded beyond the widest interval: no bar ends on an edge.
    y: { label: "MID (percentage points)", labelArrow: "none", grid: true, ticks: 6, domain },
    fy: { label: null },
    marks: [
      Plot.frame({ stroke: "#ccc" }),
      Plot.ruleY([0], { stroke: "#888" }),
      Plot.ruleX(points, { x: "x", y1: "lo", y2: "hi", fy: "panel", stroke: color }),
      Plot.dot(points, { x: "x", y: "y", fy: "panel", fill: color, r: 3.5 }),
    ],
  });
}

/**
 * The y domain of the MID charts in percentage points: 0 and every interval end inside, with a
 * margin of 6% of the span, rounded out to a multiple of 10.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { midDomain } from "./mid_figure.ts";
 * assert.deepEqual(midDomain({ records: [{ midAsr: 0.4, midAsrLo: -0.126, midAsrHi: 0.593 }] }), [-20, 70]);
 * assert.deepEqual(midDomain({ records: [] }), [-10, 10]);
 * ```
 */
export function midDomain(options: {
  /** Summary records with `midAsrLo`/`Hi` and `midUtilityLo`/`Hi` (fractions). */
  records: readonly Record<string, unknown>[];
}): [number, number] {
  const ends = options.records.flatMap((r) =>
    ["midAsr", "midAsrLo", "midAsrHi", "midUtility", "midUtilityLo", "midUtilityHi"].map((c) =>
      Number(r[c]) * 100
    )
  ).filter(Number.isFinite);
  const lo = Math.min(0, ...ends);
  const hi = Math.max(0, ...ends);
  const pad = Math.max(2, 0.06 * (hi - lo));
  return [
    Math.min(-10, Math.floor((lo - pad) / 10) * 10),
    Math.max(10, Math.ceil((hi + pad) / 10) * 10),
  ];
}

/** How the caption names the interval methods a summary records in `<metric>CiMethod`. */
const _METHOD_TEXT: Record<string, string> = {
  newcombe: "Newcombe score",
  "newcombe-instances": "Newcombe score (per instance)",
  bca: "BCa cluster-bootstrap",
  percentile: "percentile bootstrap",
};

/**
 * Build the MID figure: `MID_asr` and `MID_utility` with their intervals at each operating point
 * of the three stages (the kit's addition; the paper gives medians only). The caption names the
 * interval methods the summaries record (`midAsrCiMethod`, `midUtilityCiMethod`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { midFigure } from "./mid_figure.ts";
 * const r = { dataset: "demo", attack: "minja", midAsr: 0.2, midAsrLo: 0.1, midAsrHi: 0.3, midUtility: 0.1, midUtilityLo: 0, midUtilityHi: 0.2 };
 * const figure = midFigure({ summaries: { writing: [{ ...r, thetaW: 1 }], management: [{ ...r, policy: "PQ" }], retrieval: [{ ...r, thetaR: 1 }] } });
 * assert.equal([...figure.querySelectorAll("svg")].filter((s) => s.hasAttribute("viewBox")).length, 3);
 * ```
 */
export function midFigure(options: MidFigureOptions): Element {
  const document = options.document ?? createDocument();
  const writing = withPanel(frameRecords(options.summaries.writing));
  const management = withPanel(frameRecords(options.summaries.management));
  const retrieval = withPanel(frameRecords(options.summaries.retrieval));
  const categories = orderPolicies(management.map((r) => String(r.policy)));
  const methods = [
    ...new Set(
      [...writing, ...management, ...retrieval].flatMap((r) => [
        r.midAsrCiMethod,
        r.midUtilityCiMethod,
      ]).filter((m): m is string => typeof m === "string").map((m) => _METHOD_TEXT[m] ?? m),
    ),
  ];
  const domain = midDomain({ records: [...writing, ...management, ...retrieval] });
  return composeFigure({
    document,
    charts: [
      _chart(document, writing, "thetaW", AXIS_LABEL.thetaW, undefined, 400, domain),
      _chart(document, management, "policy", AXIS_LABEL.policy, categories, 400, domain),
      _chart(document, retrieval, "thetaR", AXIS_LABEL.thetaR, undefined, 520, domain),
    ],
    title: "Memory-induced difference (MID) per operating point",
    subtitle: "Paired effect of the risk trace: target decisions it caused, correct ones it cost.",
    legend: [
      { label: "MID (ASR): poisoned − clean target rate", color: METRIC_STYLE.midAsr.color },
      {
        label: "MID (utility): clean − poisoned correct rate",
        color: METRIC_STYLE.midUtility.color,
      },
    ],
    caption: `Agent backend: ${
      options.agentLabel ?? "offline reference agent"
    }; agents pooled, instances resampled as clusters. Dots: MID; bars: ${
      Math.round((options.level ?? 0.95) * 100)
    }% ${
      methods.length > 0 ? `${methods.join(" / ")} interval` : "interval"
    }. The kit's addition: the paper reports medians only.${
      options.note ? ` ${options.note}` : ""
    }`,
  });
}
