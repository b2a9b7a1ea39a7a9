/** The plan of a run as text: requests by phase, then tokens and cost by model. */
import { PHASES, RUN_PHASES } from "../run_phase.ts";
import type { ModelCost } from "./plan_cost.ts";
import type { PlanEntry } from "./request_plan.ts";

const _n = (x: number) => x.toLocaleString("en-US");
const _usd = (x: number | null) =>
  x === null
    ? "n/a"
    : x < 1
    ? x.toFixed(4)
    : x < 100
    ? x.toFixed(2)
    : Math.round(x).toLocaleString("en-US");

function _table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/**
 * Format a plan. Every phase of the run registry gets a line (zero when the run has none of
 * its requests), so a reader sees what is and is not asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRunPlan } from "./format_plan.ts";
 * const entry = { phase: "agent" as const, model: "m", asked: 4, unique: 3, cached: 1, toSend: 2,
 *   promptTokens: 2000, completionTokens: 20, completionBasis: "stand-in" as const, promptScale: 1 };
 * const text = formatRunPlan({ title: ["PLAN"], entries: [entry], costs: [{ model: "m", toSend: 2,
 *   promptTokens: 2000, completionTokens: 20, prices: null, liveUsd: null, batchUsd: null }] });
 * assert.match(text, /^agent +4 +3 +1 +2 +2,000 +20$/m);
 * assert.match(text, /^counterfactual +0 +0 +0 +0 +0 +0$/m);
 * ```
 */
export function formatRunPlan(options: {
  /** Lines before the tables (what is planned: points, pairs, trials). */
  title: readonly string[];
  /** The plan's entries (`RequestPlan.entries()`). */
  entries: readonly PlanEntry[];
  /** Their cost per model (`planCosts`). */
  costs: readonly ModelCost[];
  /**
   * The most judge requests, one per distinct agent answer (`RequestPlan.judgeUpperBound`);
   * default unknown.
   */
  judgeUpperBound?: number;
  /** Lines after the tables (a pilot's cost, a spending cap); default none. */
  notes?: readonly string[];
}): string {
  const { entries, costs } = options;
  const out = [...options.title, ""];
  const sum = (es: readonly PlanEntry[], f: (e: PlanEntry) => number) =>
    es.reduce((s, e) => s + f(e), 0);
  const phaseRow = (label: string, es: readonly PlanEntry[]) => [
    label,
    _n(sum(es, (e) => e.asked)),
    _n(sum(es, (e) => e.unique)),
    _n(sum(es, (e) => e.cached)),
    _n(sum(es, (e) => e.toSend)),
    _n(sum(es, (e) => e.promptTokens)),
    _n(sum(es, (e) => e.completionTokens)),
  ];
  out.push(
    "Model requests by phase (asked: calls the run makes; unique: identical requests merged; " +
      "cached: answered by the response cache; to send: the rest, with estimated tokens):",
  );
  out.push(
    ..._table(
      ["phase", "asked", "unique", "cached", "to send", "prompt tok", "completion tok"],
      [
        ...PHASES.map((p) => phaseRow(p, entries.filter((e) => e.phase === p))),
        phaseRow("total", entries),
      ],
    ),
  );
  if (costs.length > 0) {
    out.push("", "Cost of the requests to send, by model (USD at data/models.json list prices):");
    const priced = costs.filter((c) => c.liveUsd !== null);
    const totalLive = priced.reduce((s, c) => s + c.liveUsd!, 0);
    // Without a batch price a model is sent live: the batch total counts it at list price.
    const totalBatch = priced.reduce((s, c) => s + (c.batchUsd ?? c.liveUsd!), 0);
    out.push(
      ..._table(
        ["model", "to send", "prompt tok", "completion tok", "USD/1M in/out", "live", "batch"],
        [
          ...costs.map((c) => [
            c.model,
            _n(c.toSend),
            _n(c.promptTokens),
            _n(c.completionTokens),
            c.prices ? `${c.prices.inputPer1M} / ${c.prices.outputPer1M}` : "no prices",
            _usd(c.liveUsd),
            _usd(c.batchUsd),
          ]),
          [
            "total",
            _n(costs.reduce((s, c) => s + c.toSend, 0)),
            _n(costs.reduce((s, c) => s + c.promptTokens, 0)),
            _n(costs.reduce((s, c) => s + c.completionTokens, 0)),
            "",
            _usd(priced.length > 0 ? totalLive : null),
            _usd(priced.length > 0 ? totalBatch : null),
          ],
        ],
      ),
    );
    const noBatch = costs.filter((c) => c.prices && c.batchUsd === null).map((c) => c.model);
    if (noBatch.length > 0) {
      out.push(
        `batch n/a: no Batch API price in the catalog for ${noBatch.join(", ")} (the batch ` +
          "total counts them at live price).",
      );
    }
    const unpriced = costs.filter((c) => !c.prices).map((c) => c.model);
    if (unpriced.length > 0) {
      out.push(
        `no prices: data/models.json has none for ${unpriced.join(", ")} (--model-option ` +
          "ID.prices.inputPer1M=X --model-option ID.prices.outputPer1M=Y gives them); the " +
          "totals leave them out.",
      );
    }
    const dates = [...new Set(costs.flatMap((c) => (c.prices?.read ? [c.prices.read] : [])))];
    const unverified = costs.filter((c) => c.prices && c.prices.verified === false);
    if (dates.length > 0 || unverified.length > 0) {
      out.push(
        `Prices read ${dates.sort().join(", ") || "(no date)"}` +
          (unverified.length > 0
            ? `; ${unverified.length} of ${costs.length} not verified against the provider's ` +
              "price page (data/models.json says on what they are based): check them."
            : "."),
      );
    }
  }
  const toSend = entries.filter((e) => e.toSend > 0);
  if (toSend.length === 0) {
    out.push(
      "",
      entries.length === 0
        ? "No model is used: the run makes no request."
        : "Nothing to send: the response cache answers every request.",
    );
    return out.join("\n");
  }
  const assumed = toSend.filter((e) => e.completionBasis === "stand-in");
  const scaled = [...new Set(toSend.filter((e) => e.promptScale !== 1).map((e) => e.model))];
  out.push(
    "",
    "Tokens are estimates: prompts at 4 characters per token" +
      (scaled.length > 0
        ? ` (scaled by each model's own count in its cached replies for ${scaled.join(", ")})`
        : "") +
      (assumed.length > 0
        ? "; completions as short visible replies for " +
          [...new Set(assumed.map((e) => e.phase))].join(", ") +
          ". A reasoning model bills its reasoning as output too: run a small pilot first (e.g. " +
          "--limit 2) and plan again, and the plan uses the lengths of the replies it cached."
        : "; completions at the mean length of the replies in the cache."),
  );
  if (entries.some((e) => e.phase === "counterfactual" && e.asked > 0)) {
    out.push(`counterfactual: ${RUN_PHASES.counterfactual.description}.`);
  }
  const judged = entries.filter((e) => e.phase === "judge").reduce((n, e) => n + e.unique, 0);
  if (judged > 0) {
    // Stand-in answers are equal where the question, agent, trial and evidence seen are.
    const most = options.judgeUpperBound;
    out.push(
      `judge: ${_n(judged)} distinct requests foreseen: the memory-blind judge reads the ` +
        "question and the answer only, planned as one answer per question, agent, trial and " +
        "evidence seen (helpful, risk, both, neither)" +
        (most !== undefined && most > judged
          ? `; a model that words its answers differently from context to context sends ` +
            `more, at most ${_n(most)} (one per distinct agent answer, as a judge that reads ` +
            "the trajectory does)."
          : "."),
    );
  }
  out.push(...(options.notes ?? []));
  return out.join("\n");
}
