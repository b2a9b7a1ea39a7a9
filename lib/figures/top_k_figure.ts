/** Top-K sensitivity curves (Table 2 as a figure): RSR, utilities and ASR against K. */
import * as Plot from "@observablehq/plot";
import { composeFigure } from "./compose_figure.ts";
import { createDocument } from "./dom.ts";
import type { FrameLike } from "./_metric_panels.ts";
import { frameRecords } from "./_metric_panels.ts";

/** Options of {@link topKFigure}. */
export interface TopKFigureOptions {
  /** Long frame: system, metric (rsr, cleanUtility, poisonedUtility, asr), k, value. */
  paper: FrameLike;
  /** The kit's own measurements in the same form; default none (not measured offline). */
  measured?: FrameLike;
  /** True when `measured` comes from a pipeline check (scripted stand-ins); default false. */
  pipelineCheck?: boolean;
  /** Document to draw into; default a fresh linkedom document. */
  document?: Document;
}

const _METRICS = ["rsr", "cleanUtility", "poisonedUtility", "asr"];
const _LABELS: Record<string, string> = {
  rsr: "RSR",
  cleanUtility: "clean utility",
  poisonedUtility: "poisoned utility",
  asr: "ASR",
};
const _SYSTEMS = ["Mem0", "Hindsight", "LangMem", "A-MEM"];
const _COLORS = ["#4269d0", "#ff8ab7", "#3ca951", "#a463f2"];
/** Any other system (a plugin's), in turn: never a colour of the paper's four. */
const _OTHER_COLORS = ["#efb118", "#9c6b4e", "#6cc5b0", "#ff725c", "#97bbf5", "#1b2f78"];

/**
 * The colour of each system in `domain` order: the paper's four keep theirs whichever are
 * present; the others take the next unused colour.
 */
function _systemColors(domain: readonly string[]): string[] {
  let other = 0;
  return domain.map((s) => {
    const i = _SYSTEMS.indexOf(s);
    return i === -1 ? _OTHER_COLORS[other++ % _OTHER_COLORS.length] : _COLORS[i];
  });
}

/**
 * Build the top-K curves: one column per metric, one line per system; the paper's values
 * solid, the kit's dashed when given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { topKFigure } from "./top_k_figure.ts";
 * const figure = topKFigure({ paper: [{ system: "Mem0", metric: "rsr", k: 1, value: 0.51 }] });
 * assert.match(figure.querySelector("figcaption")?.textContent ?? "", /not measured offline/i);
 * ```
 */
export function topKFigure(options: TopKFigureOptions): Element {
  const document = options.document ?? createDocument();
  const tag = (rows: Record<string, unknown>[], source: string) =>
    rows.map((r): Record<string, unknown> => ({
      ...r,
      source,
      label: _LABELS[String(r.metric)] ?? r.metric,
      value: Number(r.value) * 100,
    }));
  const data = [
    ...tag(frameRecords(options.paper), "paper"),
    ...tag(options.measured ? frameRecords(options.measured) : [], "kit"),
  ];
  const systems = [...new Set(data.map((d) => String(d.system)))];
  const domain = [
    ..._SYSTEMS.filter((s) => systems.includes(s)),
    ...systems.filter((s) => !_SYSTEMS.includes(s)),
  ];
  const colors = _systemColors(domain);
  const chart = Plot.plot({
    document,
    width: 900,
    height: 300,
    marginLeft: 48,
    marginBottom: 40,
    style: { fontSize: "13px" },
    fx: { label: null, domain: _METRICS.map((m) => _LABELS[m]) },
    x: { label: "retrieval budget K →", ticks: [1, 3, 5, 7], tickFormat: "d", inset: 8 },
    y: { label: "rate (%)", domain: [0, 100], grid: true },
    color: { domain, range: colors },
    marks: [
      Plot.frame({ stroke: "#ccc" }),
      ...(["paper", "kit"] as const).map((source) =>
        Plot.lineY(data.filter((d) => d.source === source), {
          x: "k",
          y: "value",
          fx: "label",
          stroke: "system",
          strokeDasharray: source === "kit" ? "4,3" : undefined,
        })
      ),
      Plot.dot(data, { x: "k", y: "value", fx: "label", fill: "system", r: 2.5 }),
    ],
  });
  return composeFigure({
    document,
    charts: [chart],
    title: "Top-K sensitivity of existing memory systems (Table 2)",
    legend: domain.map((s, i) => ({ label: s, color: colors[i] })),
    caption: options.measured && options.pipelineCheck
      ? "Solid: the paper's published values (M0, |B| = 100); dashed: a pipeline check " +
        "(the systems' model, embedder and Hindsight server were scripted local stand-ins), " +
        "not a measurement of the systems."
      : options.measured
      ? "Solid: the paper's published values (M0, |B| = 100); dashed: measured by the kit."
      : "The paper's published values (M0, |B| = 100). Not measured offline: the kit measures real systems " +
        "with `deno task systems` against a model endpoint (notebook 06); offline pipeline checks are not measurements.",
  });
}
