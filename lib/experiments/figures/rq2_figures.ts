/**
 * The RQ2 figure specs: Figure 4 (trace load), Figure 5 (rankers), Figure 6 (K × fill),
 * asymmetric exposure and Figure 7 (memory size), each running its experiment and drawing it
 * with its facets, labels, notes and grid; `deno task reproduce` and notebooks 04-05 share them.
 */
import { AXIS_LABEL, orderPolicies } from "../../figures/labels.ts";
import { POLICIES } from "../../stages/management/policies.ts";
import type { ExperimentOptions } from "../experiment_setup.ts";
import {
  asymmetricExposureExperiment,
  budgetFillExperiment,
  memorySizeExperiment,
  rankerExperiment,
  traceLoadExperiment,
} from "../stage_experiments.ts";
import { _rq2Figure } from "./_rq2.ts";
import { _paperValues, type FigureResult } from "./figure_result.ts";

/**
 * Figure 4: writing coverage under trace loads 0.75×, 1× and 1.25× (MINJA).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure4TraceLoad } from "./rq2_figures.ts";
 * const fig = await figure4TraceLoad({ n: 2, resamples: 10, grid: [0, 1] });
 * assert.match(fig.figure.caption, /Trace load 0.75, 1.25 not drawn/);
 * ```
 */
export async function figure4TraceLoad(
  options: ExperimentOptions & {
    /** Trace loads; default 0.75, 1, 1.25. */
    loads?: readonly number[];
    /** Coverage grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<FigureResult> {
  const result = await traceLoadExperiment(options);
  const paper = (await _paperValues()).figures.filter((p) => p.figure === "figure4");
  return _rq2Figure({
    name: "figure4_trace_load",
    title: "Figure 4. Writing coverage under different trace loads",
    result,
    x: "thetaW",
    xLabel: AXIS_LABEL.thetaW,
    fx: "traceLoad",
    fxFormat: (v) => `trace load ${v}× source units`,
    paper,
    width: 460,
  });
}

/** The paper's rankers, in its order. */
export const PAPER_RANKERS = ["self", "external", "random", "chronological"];

/**
 * Which of the paper's rankers a kit ranker plays: the agent's own LLM (`llm:self`) or its
 * offline stand-in `usefulness` is "self"; another LLM or the second heuristic
 * `distinctiveness` is "external".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paperRanker } from "./rq2_figures.ts";
 * assert.equal(paperRanker("usefulness"), "self");
 * assert.equal(paperRanker("llm:gpt-5.4"), "external");
 * assert.equal(paperRanker("random"), "random");
 * ```
 */
export function paperRanker(id: string): string {
  if (id === "llm:self" || id === "usefulness") return "self";
  if (id === "distinctiveness" || id.startsWith("llm:")) return "external";
  return id;
}

const _RANKER_LABEL: Record<string, string> = {
  usefulness: "self · usefulness (offline)",
  distinctiveness: "external · distinctiveness (offline)",
  "llm:self": "self · the agent's own LLM",
  random: "random order",
  chronological: "chronological order",
};

/**
 * Figure 5: writing coverage by ranker, in the paper's order (MINJA).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure5Rankers } from "./rq2_figures.ts";
 * const fig = await figure5Rankers({ n: 2, resamples: 10, grid: [0.5] });
 * assert.match(fig.figure.svg, /self · usefulness \(offline\)/);
 * ```
 */
export async function figure5Rankers(
  options: ExperimentOptions & {
    /** Ranker ids; default the paper's four (offline: usefulness, distinctiveness, random, chronological). */
    rankers?: readonly string[];
    /** Coverage grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<FigureResult> {
  const result = await rankerExperiment(options);
  const paper = (await _paperValues()).figures.filter((p) => p.figure === "figure5");
  const ids = [...new Set(result.rows.map((r) => r.ranker))];
  const order = (id: string) => {
    const i = PAPER_RANKERS.indexOf(paperRanker(id));
    return i === -1 ? PAPER_RANKERS.length : i;
  };
  const domain = ids.toSorted((a, b) => order(a) - order(b));
  const offline = ids.some((id) => id === "usefulness" || id === "distinctiveness");
  return _rq2Figure({
    name: "figure5_rankers",
    title: "Figure 5. Writing coverage by writing-stage ranker",
    result,
    x: "thetaW",
    xLabel: AXIS_LABEL.thetaW,
    fx: "ranker",
    fxDomain: domain,
    fxFormat: (v) => _RANKER_LABEL[v] ?? `external · ${v}`,
    paper: paper.map((p) => ({
      ...p,
      panel: domain.find((id) => paperRanker(id) === p.panel) ?? p.panel,
    })),
    panelOf: (r) => String(r.ranker),
    note: offline
      ? "Rankers in the paper's order. Offline, the agent's own LLM ranker (self) is played by the " +
        "usefulness heuristic and the external LLM ranker by a second, different heuristic " +
        "(distinctiveness: words found nowhere else in the trace); both read a unit's text only."
      : "Rankers in the paper's order.",
    width: 1200,
  });
}

/**
 * Figure 6: retrieval exposure by budget K (columns) and fill order (rows), MINJA.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure6BudgetFill } from "./rq2_figures.ts";
 * const fig = await figure6BudgetFill({ n: 2, resamples: 10, ks: [3], fills: ["random"], grid: [0, 1] });
 * assert.match(fig.figure.svg, /K = 3/);
 * ```
 */
export async function figure6BudgetFill(
  options: ExperimentOptions & {
    /** Budgets; default 3, 5, 7. */
    ks?: readonly number[];
    /** Fill orders; default random, similarity. */
    fills?: readonly ("random" | "similarity")[];
    /** Exposure grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<FigureResult> {
  const result = await budgetFillExperiment(options);
  return _rq2Figure({
    name: "figure6_k_fill",
    title: "Figure 6. Retrieval exposure by budget K and fill order",
    result,
    x: "thetaR",
    xLabel: AXIS_LABEL.thetaR,
    fx: "k",
    fxFormat: (v) => `K = ${v}`,
    fy: "fill",
    fyFormat: (v) => `${v} fill`,
    paper: [],
    note: "Fill: the background records that complete the context, in random order or the most " +
      "query-similar first.",
    width: 1000,
  });
}

/**
 * Asymmetric exposure: θr+ fixed at 0.8 while the risk exposure θr− rises, MINJA.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asymmetricExposure } from "./rq2_figures.ts";
 * const fig = await asymmetricExposure({ n: 2, resamples: 10, thetaRRisk: [0.2, 1] });
 * assert.equal(fig.name, "asymmetric_exposure");
 * ```
 */
export async function asymmetricExposure(
  options: ExperimentOptions & {
    /** θr− values; default 0.2, 0.4, 0.6, 0.8, 1. */
    thetaRRisk?: readonly number[];
  },
): Promise<FigureResult> {
  const result = await asymmetricExposureExperiment(options);
  const paper = (await _paperValues()).figures.filter((p) => p.figure === "asymmetric");
  return _rq2Figure({
    name: "asymmetric_exposure",
    title: "Asymmetric exposure: the helpful record's exposure fixed, the risk record's rising",
    result,
    x: "thetaRRisk",
    xLabel: AXIS_LABEL.thetaRRisk,
    paper,
    width: 640,
  });
}

/**
 * Figure 7: management policies at several memory sizes |B|, MINJA. Default sizes: the paper's
 * 50, 100, 300, 500, or 25, 50, 100, 128 on the demo set (its banks hold 128 records); the
 * paper's |B| = 500 values get a panel of their own when the data has no such bank.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure7MemorySize } from "./rq2_figures.ts";
 * const fig = await figure7MemorySize({ n: 2, resamples: 10, sizes: [50] });
 * assert.match(fig.figure.svg, /\|B\| = 500 \(paper only\)/);
 * ```
 */
export async function figure7MemorySize(
  options: ExperimentOptions & {
    /** Bank sizes; default as above. */
    sizes?: readonly number[];
    /** Policies; default UM, PQ, NC, SC. */
    policies?: readonly string[];
  },
): Promise<FigureResult> {
  const demo = (options.dataset ?? "demo") === "demo";
  const sizes = options.sizes ?? (demo ? [25, 50, 100, 128] : [50, 100, 300, 500]);
  const result = await memorySizeExperiment({ ...options, sizes });
  const paper = (await _paperValues()).figures.filter((p) => p.figure === "figure7");
  const drawn = new Set(result.rows.map((r) => r.bankSize));
  return _rq2Figure({
    name: "figure7_memory_size",
    title: "Figure 7. Management policy by memory size |B|",
    result,
    x: "policy",
    xLabel: AXIS_LABEL.policy,
    categories: orderPolicies([...(options.policies ?? POLICIES.ids())]),
    connect: false,
    fx: "bankSize",
    fxFormat: (v) => `|B| = ${v}`,
    paper,
    paperOnlyPanels: true,
    panelOf: (r) => String(r.bankSize),
    note: (demo && !options.sizes
      ? "The demo banks hold 128 records, so |B| = 25, 50, 100, 128 stand in for the paper's 50-500."
      : "") +
      (drawn.has(500)
        ? ""
        : " The paper's values at |B| = 500 are drawn in a panel of their own.") +
      " The paper also reports that NC and SC cut ASR further at |B| = 500, losing 8 and 6 points of clean utility.",
    width: 1000,
  });
}
