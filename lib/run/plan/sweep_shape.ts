/** What a sweep runs, in one line: operating points, instances, attacks, agents, pairs, trials. */
import type { Stage } from "../../schema/operating_point.ts";
import type { TrialRow } from "../../schema/trial_row.ts";

const _n = (x: number) => x.toLocaleString("en-US");
const _distinct = <T>(xs: readonly T[]) => [...new Set(xs)];

function _values(values: readonly (string | number)[]): string {
  const shown = values.length > 6 ? [...values.slice(0, 3), "...", ...values.slice(-2)] : values;
  return shown.join(", ");
}

/**
 * Describe the trials of a sweep from its rows (a dry run's rows have the run's shape).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepShape } from "./sweep_shape.ts";
 * const row = { stage: "writing", thetaW: 0.5, thetaR: 0.8, thetaRRisk: 0.8, policy: "UM", instanceId: "a",
 *   attack: "minja", agent: "llm:m", pairId: "p", trial: 0, dataset: "demo" };
 * const text = sweepShape({ stage: "writing", rows: [row, { ...row }] as never });
 * assert.match(text, /1 operating point \(thetaW = 0\.5\), 1 instance, 1 attack, 1 agent: 1 pair x 1 trial = 2 rows/);
 * ```
 */
export function sweepShape(options: {
  /** The varied stage. */
  stage: Stage;
  /** The rows of the trials to run. */
  rows: readonly TrialRow[];
  /** Pair trials already done (a resumed partial), not in `rows`; default 0. */
  done?: number;
}): string {
  const { stage, rows } = options;
  const column = stage === "writing"
    ? "thetaW"
    : stage === "management"
    ? "policy"
    : _distinct(rows.map((r) => r.thetaR)).length > 1
    ? "thetaR"
    : "thetaRRisk";
  const points = _distinct(rows.map((r) => r[column] as string | number));
  if (points.every((p) => typeof p === "number")) points.sort((a, b) => Number(a) - Number(b));
  const count = (n: number, what: string) => `${_n(n)} ${what}${n === 1 ? "" : "s"}`;
  const pairs = _distinct(rows.map((r) => r.pairId)).length;
  const trials = _distinct(rows.map((r) => r.trial ?? 0)).length;
  const dataset = _distinct(rows.map((r) => r.dataset)).join(", ");
  return `sweep --stage ${stage} on ${dataset || "(no rows)"}: ` +
    `${count(points.length, "operating point")} (${column} = ${_values(points)}), ` +
    `${count(_distinct(rows.map((r) => r.instanceId)).length, "instance")}, ` +
    `${count(_distinct(rows.map((r) => r.attack)).length, "attack")}, ` +
    `${count(_distinct(rows.map((r) => r.agent)).length, "agent")}: ` +
    `${count(pairs, "pair")} x ${count(trials, "trial")} = ${count(rows.length, "row")}` +
    (options.done ? ` (${count(options.done, "pair trial")} already done, not counted)` : "") +
    ".";
}
