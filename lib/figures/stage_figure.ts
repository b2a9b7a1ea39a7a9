/** One faceted metric figure for the RQ2 studies (Figures 4-7, asymmetric exposure). */
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import { frameRecords, metricLegend, metricPanels, METRICS } from "./_metric_panels.ts";
import type { PaperValue } from "./paper_values.ts";

/** Options of {@link stageFigure}. */
export interface StageFigureOptions {
  /** Per-agent summary frame or records. */
  summary: FrameLike;
  /** Column on the x axis. */
  x: string;
  /** Axis label of x. */
  xLabel: string;
  /** Categorical x values in order; default none (x is numeric). */
  categories?: readonly string[];
  /** Column faceted into columns; default none. */
  fx?: string;
  /** Column facets in order; default numeric order, or first seen. */
  fxDomain?: readonly string[];
  /** Header of a column facet, given its value; default `${fxLabel} = value`. */
  fxFormat?: (value: string) => string;
  /** Name of the column facets in the default header; default the column name. */
  fxLabel?: string;
  /** Column faceted into rows; default none. */
  fy?: string;
  /** Header of a row facet, given its value; default the value. */
  fyFormat?: (value: string) => string;
  /** Title. */
  title: string;
  /** Caption text after the backend sentence; default none. */
  note?: string;
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /** Published values for this figure; default none. */
  paper?: readonly PaperValue[];
  /** Metrics; default clean utility, poisoned utility, ASR. */
  metrics?: readonly string[];
  /** Chart width; default 720, widened to at least 160 + 240 px per column facet. */
  width?: number;
  /** Chart height; default 90 + 230 per facet row. */
  height?: number;
  /** Draw medians as a line with an IQR band; default true (false for policies). */
  connect?: boolean;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

/**
 * A metric figure: median across agents, IQR band and box per operating point, faceted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageFigure } from "./stage_figure.ts";
 * const figure = stageFigure({
 *   summary: [{ agent: "a", thetaRRisk: 0.2, cleanUtility: 0.5, poisonedUtility: 0.4, asr: 0.1 }],
 *   x: "thetaRRisk", xLabel: "θr-", title: "Asymmetric exposure",
 * });
 * assert.match(figure.querySelector("figcaption")?.textContent ?? "", /offline reference agent/);
 * ```
 */
export function stageFigure(options: StageFigureOptions): Element {
  const document = options.document ?? createDocument();
  const records = frameRecords(options.summary);
  const metrics = options.metrics ?? METRICS;
  const paper = (options.paper ?? []).filter((p) => metrics.includes(p.metric));
  const rowsOfFacets = options.fy ? new Set(records.map((r) => r[options.fy!])).size : 1;
  const columnsOfFacets = options.fx ? new Set(records.map((r) => String(r[options.fx!]))).size : 1;
  // Each column facet needs room for its header and tick labels, whatever width was asked for.
  const width = Math.max(options.width ?? 720, 160 + 240 * columnsOfFacets);
  const chart = metricPanels({
    document,
    records,
    x: options.x,
    xLabel: options.xLabel,
    categories: options.categories,
    fx: options.fx,
    fxDomain: options.fxDomain,
    fxFormat: options.fxFormat ??
      ((v: string) => `${options.fxLabel ?? options.fx} = ${v}`),
    fy: options.fy,
    fyFormat: options.fyFormat,
    metrics,
    paper,
    width,
    height: options.height ?? 90 + 230 * rowsOfFacets,
    connect: options.connect ?? true,
  });
  const agents = new Set(records.map((r) => r.agent)).size;
  return composeFigure({
    document,
    charts: [chart],
    title: options.title,
    legend: metricLegend(metrics, paper),
    caption:
      `Agent backend: ${options.agentLabel ?? "offline reference agent"} (${agents} agent${
        agents === 1 ? "" : "s"
      }). Median across agents with IQR band and box (whiskers min-max).` +
      (paper.length > 0
        ? " Diamonds, coloured by metric: the paper's published value or range."
        : "") +
      (options.note ? ` ${options.note}` : ""),
  });
}
