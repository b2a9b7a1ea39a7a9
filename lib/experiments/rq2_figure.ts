/**
 * What the RQ2 figure specs share: a figure with one line per condition and one panel per metric
 * (Figures 4-7), or one panel with a line per metric (asymmetric exposure), with its two tables
 * and CSV.
 */
import { besidePaper } from "../figures/beside_paper.ts";
import { compactSummary } from "../figures/compact_summary.ts";
import { conditionFigure } from "../figures/condition_figure.ts";
import { displayFigure } from "../figures/display_figure.ts";
import { displayTable } from "../figures/display_table.ts";
import { METRIC_STYLE } from "../figures/_metric_panels.ts";
import { fixed } from "../figures/labels.ts";
import type { PaperValue } from "../figures/paper_values.ts";
import { stageFigure } from "../figures/stage_figure.ts";
import type { ExperimentResult } from "./stage_experiments.ts";
import { joinSentences, simulatorNote } from "../figures/figure_notes.ts";
import { type FigureResult, formatKey } from "../figures/figure_result.ts";

/** The lines of a condition figure. */
export interface _Condition {
  /** Column whose values are the lines (possibly derived, as Figure 6's K and fill). */
  column: string;
  /** Table header of the column. */
  header: string;
  /** Lines in order; default numeric order, else first seen. */
  domain?: readonly string[];
  /** Legend and table text of a value. */
  label: (value: string) => string;
  /** What the lines are, for the caption. */
  name: string;
  /** Line colours in domain order; default the categorical palette. */
  colors?: readonly string[];
}

/** Options of {@link rq2Figure}. */
export interface _Rq2Options {
  name: string;
  title: string;
  result: ExperimentResult;
  /** Summary records to draw (the result's, possibly with a derived condition column). */
  records?: Record<string, unknown>[];
  x: string;
  xLabel: string;
  /** Ordinal x values in order (|B|), the paper's included; default none (x is numeric). */
  categories?: readonly string[];
  /** One line per condition and one panel per metric; default one panel, a line per metric. */
  condition?: _Condition;
  paper: readonly PaperValue[];
  /** Caption sentences after the standard ones. */
  note?: string;
  width?: number;
}

/** The caption sentence for the paper's RQ2 values (one model, one dataset, one attack). */
export const RQ2_PAPER_SOURCE =
  "the paper's published value or range for its RQ2 setting (DeepSeek-V4-Flash, LongMemEval, MINJA)";

export function rq2Figure(o: _Rq2Options): FigureResult {
  const records = o.records ?? o.result.summary.toRecords();
  const note = joinSentences(o.note, o.result.note, simulatorNote(o.result.rows));
  const c = o.condition;
  const element = c
    ? conditionFigure({
      summary: records,
      x: o.x,
      xLabel: o.xLabel,
      categories: o.categories,
      condition: c.column,
      conditions: c.domain,
      conditionLabel: c.label,
      conditionName: c.name,
      colors: c.colors,
      title: o.title,
      agentLabel: o.result.agentLabel,
      paper: o.paper,
      paperSource: RQ2_PAPER_SOURCE,
      note,
      width: o.width,
    })
    : stageFigure({
      summary: records,
      x: o.x,
      xLabel: o.xLabel,
      title: o.title,
      agentLabel: o.result.agentLabel,
      paper: o.paper,
      note,
      width: o.width,
    });
  const fmt = (column: string, value: unknown) =>
    c && column === c.column ? c.label(String(value)) : formatKey(column, value);
  const orders = c?.domain ? { [c.column]: c.domain } : undefined;
  const keys = [
    ...(c ? [[c.column, c.header] as const] : []),
    ["attack", "attack"] as const,
  ];
  const panelOf = (r: Record<string, unknown>) => c ? String(r[c.column]) : "";
  // A paper value no kit row matches (|B| = 500 on the demo set) is named under the table.
  const unmatched = o.paper.filter((p) =>
    !records.some((r) =>
      (p.panel === "" || panelOf(r) === p.panel) && String(Number(r[o.x])) === String(Number(p.x))
    )
  );
  const tableNote = unmatched.length
    ? ` The paper's ${
      unmatched.map((p) =>
        `${p.panel && c ? `${c.label(p.panel)}, ` : ""}${o.xLabel} = ${p.x}: ${
          METRIC_STYLE[p.metric]?.label ?? p.metric
        } ${p.lo === p.hi ? fixed(p.lo) : `${fixed(p.lo)}–${fixed(p.hi)}`}`
      ).join("; ")
    } have no kit row (not run here).`
    : "";
  return {
    name: o.name,
    figure: displayFigure({ name: o.name, element }),
    summary: displayTable({
      title: `${o.title}: median across agents (${o.result.agentLabel})`,
      frame: compactSummary({ summary: records, x: o.x, keys, format: fmt, orders }),
      digits: 2,
    }),
    besidePaper: displayTable({
      title: `${o.title}: the paper beside the kit (median and IQR across agents)`,
      frame: besidePaper({
        summary: records,
        x: o.x,
        xLabel: o.xLabel,
        keys,
        format: fmt,
        panelOf,
        paper: o.paper,
        orders,
      }),
      caption:
        `paper: the value or range its text states (blank where it states none); kit: ${o.result.agentLabel}.${tableNote}`,
    }),
    csv: { [o.name]: o.result.summary },
    rows: o.result.rows,
  };
}
