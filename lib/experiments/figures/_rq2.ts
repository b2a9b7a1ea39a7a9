/** What the RQ2 figure specs share: a faceted metric figure with its two tables and CSV. */
import { besidePaper } from "../../figures/beside_paper.ts";
import { compactSummary } from "../../figures/compact_summary.ts";
import { displayFigure } from "../../figures/display_figure.ts";
import { displayTable } from "../../figures/display_table.ts";
import type { PaperValue } from "../../figures/paper_values.ts";
import { stageFigure } from "../../figures/stage_figure.ts";
import type { ExperimentResult } from "../stage_experiments.ts";
import { _sentences, _simulatorNote } from "./_notes.ts";
import { _formatKey, type FigureResult } from "./figure_result.ts";

/** Options of {@link _rq2Figure}. */
export interface _Rq2Options {
  name: string;
  title: string;
  result: ExperimentResult;
  /** Summary records to draw (the result's, possibly with a derived facet column). */
  records?: Record<string, unknown>[];
  x: string;
  xLabel: string;
  categories?: readonly string[];
  connect?: boolean;
  fx?: string;
  fxDomain?: readonly string[];
  fxFormat?: (value: string) => string;
  fy?: string;
  fyFormat?: (value: string) => string;
  paper: readonly PaperValue[];
  paperOnlyPanels?: boolean;
  /** Caption sentences after the backend sentence. */
  note?: string;
  /** The facet a record belongs to, as the paper values' `panel` names it; default "". */
  panelOf?: (record: Record<string, unknown>) => string;
  width?: number;
}

export function _rq2Figure(o: _Rq2Options): FigureResult {
  const records = o.records ?? o.result.summary.toRecords();
  const element = stageFigure({
    summary: records,
    x: o.x,
    xLabel: o.xLabel,
    categories: o.categories,
    connect: o.connect,
    fx: o.fx,
    fxDomain: o.fxDomain,
    fxFormat: o.fxFormat,
    fy: o.fy,
    fyFormat: o.fyFormat,
    title: o.title,
    agentLabel: o.result.agentLabel,
    paper: o.paper,
    paperOnlyPanels: o.paperOnlyPanels,
    note: _sentences(o.note, o.result.note, _simulatorNote(o.result.rows)),
    width: o.width,
  });
  const fmt = (column: string, value: unknown) =>
    column === o.fx && o.fxFormat
      ? o.fxFormat(String(value))
      : column === o.fy && o.fyFormat
      ? o.fyFormat(String(value))
      : _formatKey(column, value);
  const orders = o.fx && o.fxDomain ? { [o.fx]: o.fxDomain } : undefined;
  const keys = [
    ...(o.fx ? [[o.fx, "panel"] as const] : []),
    ...(o.fy ? [[o.fy, o.fy === "fill" ? "fill" : "row"] as const] : []),
    ["attack", "attack"] as const,
  ];
  return {
    name: o.name,
    figure: displayFigure({ name: o.name, element }),
    summary: displayTable({
      title: `${o.title}: median across agents (${o.result.agentLabel})`,
      frame: compactSummary({
        summary: records,
        x: o.x,
        categories: o.categories,
        keys,
        format: fmt,
        orders,
      }),
      digits: 2,
    }),
    besidePaper: displayTable({
      title: `${o.title}: the paper beside the kit (median and IQR across agents)`,
      frame: besidePaper({
        summary: records,
        x: o.x,
        xLabel: o.xLabel,
        categories: o.categories,
        keys,
        format: fmt,
        panelOf: o.panelOf ?? (() => ""),
        paper: o.paper,
        orders,
      }),
      caption:
        `paper: the value or range its text states (blank where it states none); kit: ${o.result.agentLabel}.`,
    }),
    csv: { [o.name]: o.result.summary },
    rows: o.result.rows,
  };
}
