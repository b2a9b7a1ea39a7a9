/** Figure 3: clean utility, poisoned utility and ASR along each stage's operating points. */
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import { _metricLegend, _metricPanels, _records } from "./_metric_panels.ts";
import type { PaperValue } from "./paper_values.ts";

/** Options of {@link figure3Stages}. */
export interface Figure3Options {
  /** Per-agent summaries (`summarize(rows, { by: ["agent", "dataset", "attack", X] })`) of the
   * writing (X = thetaW), management (X = policy) and retrieval (X = thetaR) sweeps. */
  summaries: { writing: FrameLike; management: FrameLike; retrieval: FrameLike };
  /** Agent backend named in the caption; default "offline reference agent". */
  agentLabel?: string;
  /** Published values drawn beside ours; default none. */
  paper?: readonly PaperValue[];
  /** Extra caption text (e.g. what the dataset could not support); default none. */
  note?: string;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

/** Policies in the paper's order. */
export const POLICY_ORDER = ["UM", "PQ", "NC", "SC"];

export function _withPanel(records: Record<string, unknown>[]): Record<string, unknown>[] {
  return records.map((r) => ({ ...r, panel: `${r.dataset} · ${r.attack}` }));
}

/**
 * Build Figure 3: columns writing, management, retrieval; rows dataset-attack; the median
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
  const metrics = ["cleanUtility", "poisonedUtility", "asr"];
  const paper = options.paper ?? [];
  const rows = {
    writing: _withPanel(_records(options.summaries.writing)),
    management: _withPanel(_records(options.summaries.management)),
    retrieval: _withPanel(_records(options.summaries.retrieval)),
  };
  const panels = new Set(rows.writing.map((r) => r.panel)).size || 1;
  const height = 70 + 150 * panels;
  const policies = [...new Set(rows.management.map((r) => String(r.policy)))];
  const categories = [
    ...POLICY_ORDER.filter((p) => policies.includes(p)),
    ...policies.filter((p) => !POLICY_ORDER.includes(p)),
  ];
  const charts = [
    _metricPanels({
      document,
      records: rows.writing,
      x: "thetaW",
      xLabel: "writing coverage θw →",
      fy: "panel",
      metrics,
      paper: paper.filter((p) => p.figure === "figure3" && p.stage === "writing"),
      width: 330,
      height,
      connect: true,
    }),
    _metricPanels({
      document,
      records: rows.management,
      x: "policy",
      xLabel: "management policy",
      categories,
      fy: "panel",
      metrics,
      paper: paper.filter((p) => p.figure === "figure3" && p.stage === "management"),
      width: 330,
      height,
      connect: false,
    }),
    _metricPanels({
      document,
      records: rows.retrieval,
      x: "thetaR",
      xLabel: "retrieval exposure θr →",
      fy: "panel",
      metrics,
      paper: paper.filter((p) => p.figure === "figure3" && p.stage === "retrieval"),
      width: 400,
      height,
      connect: true,
    }),
  ];
  const agents = new Set(rows.writing.map((r) => r.agent)).size;
  return composeFigure({
    document,
    charts,
    title: "Figure 3. Utility and risk at each memory stage",
    subtitle: "Columns: writing, management, retrieval. Rows: dataset · attack.",
    legend: _metricLegend(metrics, paper.some((p) => p.figure === "figure3")),
    caption:
      `Agent backend: ${options.agentLabel ?? "offline reference agent"} (${agents} agent${
        agents === 1 ? "" : "s"
      }). Line: median across agents; band and box: interquartile range; whiskers: min-max. ` +
      `One stage varies, the others sit at θw = 0.6, UM, θr = 0.8, K = 5.` +
      (paper.some((p) => p.figure === "figure3")
        ? " Black diamonds: the paper's published range (11 LLMs), where it states one."
        : "") +
      (options.note ? ` ${options.note}` : ""),
  });
}
