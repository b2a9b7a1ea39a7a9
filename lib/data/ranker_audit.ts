/**
 * Ranker audit: where a ranker puts the evidence. For each trace it finds the first unit, in
 * rank order, that states the answer the trace carries (y* for the helpful trace, y_adv for a
 * risk trace) and reports its position as a fraction of |Z|, which is the smallest writing
 * coverage `theta_w` that admits it. Look at this before trusting a writing curve.
 */
import { quantileSorted } from "simple-statistics";
import type { Attack, Instance } from "../schema/instance.ts";
import type { Trace } from "../schema/trace.ts";

/** What the audit needs of a ranker (the writing stage's `Ranker` interface fits). */
export interface AuditedRanker {
  rank(trace: Trace, options: { seed: number }): Promise<string[]>;
}

/** Quartiles (type 7) and range of the first-evidence positions over the traces of one kind. */
export interface PositionSummary {
  /** Traces ranked. */
  traces: number;
  /** Traces with no unit stating or evidencing the answer (left out of the quantiles). */
  without: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/** One row of the audit: a dataset, the trace (helpful or an attack) and what it carries. */
export interface RankerAuditRow {
  dataset: string;
  trace: "helpful" | Attack;
  /** `y*` for the helpful trace, `y_adv` for risk traces. */
  states: "y*" | "y_adv";
  positions: PositionSummary;
}

/**
 * Position (rank / |Z|) of the first ranked unit that states `answer` or is evidence for it
 * (`supports`: a date the reader works out, one of the counts a total is summed from), or null.
 */
function _firstPosition(trace: Trace, ranking: readonly string[], answer: string): number | null {
  const byId = new Map(trace.units.map((u) => [u.id, u]));
  const carries = (id: string) => {
    const unit = byId.get(id);
    return unit !== undefined && (unit.asserts ?? unit.supports ?? null) === answer;
  };
  const at = ranking.findIndex(carries);
  return at < 0 ? null : (at + 1) / trace.units.length;
}

function _summary(values: (number | null)[]): PositionSummary {
  const found = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const q = (p: number) =>
    found.length === 0 ? NaN : Math.round(quantileSorted(found, p) * 1000) / 1000;
  return {
    traces: values.length,
    without: values.length - found.length,
    min: q(0),
    q1: q(0.25),
    median: q(0.5),
    q3: q(0.75),
    max: q(1),
  };
}

/**
 * Rank every helpful and risk trace of `instances` and summarize where the first unit stating (or evidencing)
 * y* (helpful) or y_adv (each attack's risk trace) lands. Rankings come from `ranker` with
 * `seed`, as in a sweep; an LLM ranker behind a response cache answers from its cache.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chronologicalRanker } from "../stages/writing/rankers/chronological.ts";
 * import { rankerAudit } from "./ranker_audit.ts";
 * const unit = (id: string, asserts: string | null) => ({ id, text: id, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts });
 * const instance = { id: "i", dataset: "d", category: "", query: "q?", answer: "A", target: "B", answerKind: "entity" as const, background: [],
 *   helpful: { id: "h", session: "s", kind: "helpful" as const, units: [unit("h1", null), unit("h2", "A")] },
 *   risk: { minja: { id: "m", session: "m", kind: "risk" as const, units: [unit("m1", "B"), unit("m2", null), unit("m3", null), unit("m4", null)] } } };
 * const rows = await rankerAudit({ instances: [instance], ranker: chronologicalRanker, seed: 0 });
 * assert.deepEqual(rows.map((r) => [r.trace, r.positions.median]), [["helpful", 1], ["minja", 0.25]]);
 * ```
 */
export async function rankerAudit(options: {
  /** Instances to audit (one dataset or several; rows are per dataset). */
  instances: readonly Instance[];
  /** The ranker. */
  ranker: AuditedRanker;
  /** The run seed the rankings are drawn with (as in a sweep). */
  seed: number;
}): Promise<RankerAuditRow[]> {
  const { instances, ranker, seed } = options;
  const groups = new Map<
    string,
    { dataset: string; trace: RankerAuditRow["trace"]; values: Promise<number | null>[] }
  >();
  const add = (dataset: string, kind: RankerAuditRow["trace"], trace: Trace, answer: string) => {
    const key = `${dataset}\u0000${kind}`;
    if (!groups.has(key)) groups.set(key, { dataset, trace: kind, values: [] });
    groups.get(key)!.values.push(
      ranker.rank(trace, { seed }).then((ranking) => _firstPosition(trace, ranking, answer)),
    );
  };
  for (const instance of instances) {
    add(instance.dataset, "helpful", instance.helpful, instance.answer);
    for (const attack of ["minja", "sleeper"] as const) {
      const trace = instance.risk[attack];
      if (trace) add(instance.dataset, attack, trace, instance.target);
    }
  }
  const rows: RankerAuditRow[] = [];
  for (const g of groups.values()) {
    rows.push({
      dataset: g.dataset,
      trace: g.trace,
      states: g.trace === "helpful" ? "y*" : "y_adv",
      positions: _summary(await Promise.all(g.values)),
    });
  }
  return rows;
}

/**
 * The audit as a text table, one line per dataset and trace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRankerAudit } from "./ranker_audit.ts";
 * const text = formatRankerAudit({ ranker: "random", rows: [{ dataset: "d", trace: "helpful", states: "y*",
 *   positions: { traces: 2, without: 0, min: 0.1, q1: 0.2, median: 0.3, q3: 0.4, max: 0.5 } }] });
 * assert.match(text, /^d +helpful +y\* +2 +0 +0.100 +0.200 +0.300 +0.400 +0.500$/m);
 * ```
 */
export function formatRankerAudit(options: {
  /** The ranker id, for the heading. */
  ranker: string;
  /** Rows from `rankerAudit`. */
  rows: readonly RankerAuditRow[];
}): string {
  const f = (x: number) => Number.isNaN(x) ? "  -  " : x.toFixed(3);
  const width = Math.max(7, ...options.rows.map((r) => r.dataset.length));
  const lines = [
    `ranker audit: ${options.ranker}`,
    "position of the first ranked unit stating the trace's answer or evidence for it, as a fraction of |Z|",
    "(= the smallest theta_w that admits it); quartiles type 7 over traces",
    `${
      "dataset".padEnd(width)
    }  trace    states  traces  none   min     q1      median  q3      max`,
  ];
  for (const r of options.rows) {
    const p = r.positions;
    lines.push(
      `${r.dataset.padEnd(width)}  ${r.trace.padEnd(7)}  ${r.states.padEnd(6)}  ${
        String(p.traces).padStart(6)
      }  ${String(p.without).padStart(4)}   ${
        [p.min, p.q1, p.median, p.q3, p.max].map(f).join("   ")
      }`,
    );
  }
  return lines.join("\n");
}
