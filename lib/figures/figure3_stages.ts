/** Figure 3: clean utility, poisoned utility and ASR along each stage's operating points. */
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import { frameRecords, metricLegend, metricPanels, METRICS } from "./_metric_panels.ts";
import { AXIS_LABEL, orderPolicies, withPanel } from "./labels.ts";
import type { PaperValue } from "./paper_values.ts";

/** A memory stage of Figure 3. */
export type Figure3Stage = "writing" | "management" | "retrieval";

const _X = { writing: "thetaW", management: "policy", retrieval: "thetaR" } as const;

/** Options of {@link figure3Stages}. */
export interface Figure3Options {
  /** Per-agent summaries (`summarize(rows, { by: ["agent", "dataset", "attack", X] })`) of the
   * writing (X = thetaW), management (X = policy) and retrieval (X = thetaR) sweeps. */
  summaries: { writing: FrameLike; management: FrameLike; retrieval: FrameLike };
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /** Published values drawn beside ours; default none. */
  paper?: readonly PaperValue[];
  /** Extra caption text (the simulator caveat, what the dataset could not support); default none. */
  note?: string;
  /** Fixed stages named in the caption; default the paper's defaults. */
  fixed?: string;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

/** The caption sentence of the fixed stages at the paper's defaults. */
export const FIXED_AT_DEFAULTS = "θw = 0.6, UM, θr = 0.8, K = 5, |B| = 100";

function _column(
  document: Document,
  stage: Figure3Stage,
  records: Record<string, unknown>[],
  paper: readonly PaperValue[],
  width: number,
  rows: number,
): Element {
  const x = _X[stage];
  return metricPanels({
    document,
    records,
    x,
    xLabel: AXIS_LABEL[x],
    categories: stage === "management"
      ? orderPolicies(records.map((r) => String(r.policy)))
      : undefined,
    fy: "panel",
    metrics: METRICS,
    paper: paper.filter((p) => p.figure === "figure3" && p.stage === stage),
    width,
    height: 70 + 190 * rows,
    connect: stage !== "management",
  });
}

function _caption(
  agentLabel: string | undefined,
  agents: number,
  fixed: string,
  paper: boolean,
  note: string | undefined,
  lines: "all" | "none" | "some",
): string {
  // Policies are separate operating points, not a scale: the management column has no line.
  const median = {
    all: "Line: median across agents; band and box: interquartile range",
    none: "Thick tick: median across agents; box: interquartile range",
    some: "Line (thick tick for policies): median across agents; band and box: interquartile range",
  }[lines];
  return `Agent backend: ${agentLabel ?? "offline reference agent"} (${agents} agent${
    agents === 1 ? "" : "s"
  }). ${median}; whiskers: min-max. ` +
    `One stage varies; the others sit at ${fixed}.` +
    (paper
      ? " Diamonds, coloured by metric: the paper's published value or range (median across 11 LLMs), where its text states one."
      : "") +
    (note ? ` ${note}` : "");
}

/**
 * Build Figure 3: columns writing, management, retrieval; rows dataset · attack; the median
 * across agents as a line, the IQR as a band and a box (whiskers min-max) at every point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure3Stages } from "./figure3_stages.ts";
 * const row = { agent: "a", dataset: "demo", attack: "minja", cleanUtility: 0.5, poisonedUtility: 0.3, asr: 0.2 };
 * const figure = figure3Stages({ summaries: {
 *   writing: [{ ...row, thetaW: 0 }, { ...row, thetaW: 1 }],
 *   management: [{ ...row, policy: "UM" }],
 *   retrieval: [{ ...row, thetaR: 0.5 }],
 * } });
 * assert.equal([...figure.querySelectorAll("svg")].filter((s) => s.hasAttribute("viewBox")).length, 3);
 * ```
 */
export function figure3Stages(options: Figure3Options): Element {
  const document = options.document ?? createDocument();
  const paper = options.paper ?? [];
  const rows = {
    writing: withPanel(frameRecords(options.summaries.writing)),
    management: withPanel(frameRecords(options.summaries.management)),
    retrieval: withPanel(frameRecords(options.summaries.retrieval)),
  };
  const panels = new Set(rows.writing.map((r) => r.panel)).size || 1;
  const charts = (["writing", "management", "retrieval"] as const).map((stage) =>
    _column(document, stage, rows[stage], paper, stage === "retrieval" ? 520 : 400, panels)
  );
  const agents = new Set(rows.writing.map((r) => r.agent)).size;
  const drawn = paper.filter((p) => p.figure === "figure3");
  return composeFigure({
    document,
    charts,
    title: "Figure 3. Utility and risk at each memory stage",
    subtitle: "Columns: writing, management, retrieval. Rows: dataset · attack.",
    legend: metricLegend(METRICS, drawn),
    caption: _caption(
      options.agentLabel,
      agents,
      options.fixed ?? FIXED_AT_DEFAULTS,
      drawn.length > 0,
      options.note,
      "some",
    ),
  });
}

/** Options of {@link drawFigure3Column}. */
export interface Figure3ColumnOptions {
  /** The stage. */
  stage: Figure3Stage;
  /** Per-agent summary of that stage's sweep. */
  summary: FrameLike;
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /** Published values; default none. */
  paper?: readonly PaperValue[];
  /** Extra caption text; default none. */
  note?: string;
  /** Fixed stages named in the caption; default the paper's defaults. */
  fixed?: string;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

const _TITLE = {
  writing: "Figure 3, writing column. Utility and risk along writing coverage θw",
  management: "Figure 3, management column. Utility and risk by management policy",
  retrieval: "Figure 3, retrieval column. Utility and risk along retrieval exposure θr",
};

/**
 * One column of Figure 3 as a figure of its own, wider, for the stage's notebook.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawFigure3Column } from "./figure3_stages.ts";
 * const row = { agent: "a", dataset: "demo", attack: "minja", cleanUtility: 0.5, poisonedUtility: 0.3, asr: 0.2 };
 * const figure = drawFigure3Column({ stage: "management", summary: [{ ...row, policy: "SC" }, { ...row, policy: "UM" }] });
 * assert.match(figure.querySelector("h2")?.textContent ?? "", /management/);
 * ```
 */
export function drawFigure3Column(options: Figure3ColumnOptions): Element {
  const document = options.document ?? createDocument();
  const paper = options.paper ?? [];
  const records = withPanel(frameRecords(options.summary));
  const panels = new Set(records.map((r) => r.panel)).size || 1;
  const drawn = paper.filter((p) => p.figure === "figure3" && p.stage === options.stage);
  const agents = new Set(records.map((r) => r.agent)).size;
  return composeFigure({
    document,
    charts: [_column(document, options.stage, records, paper, 760, panels)],
    title: _TITLE[options.stage],
    legend: metricLegend(METRICS, drawn),
    caption: _caption(
      options.agentLabel,
      agents,
      options.fixed ?? FIXED_AT_DEFAULTS,
      drawn.length > 0,
      options.note,
      options.stage === "management" ? "none" : "all",
    ),
  });
}
