/**
 * The RQ2 figure specs: Figure 4 (trace load), Figure 5 (rankers), Figure 6 (K × fill),
 * asymmetric exposure and Figure 7 (memory size), each running its experiment and drawing it
 * with its facets, labels, notes and grid; `deno task reproduce` and notebooks 04-05 share them.
 */
import { CONDITION_COLORS } from "../figures/condition_figure.ts";
import { AXIS_LABEL, orderPolicies } from "../figures/labels.ts";
import { type OperatingPoint, PAPER_DEFAULTS } from "../schema/operating_point.ts";
import { POLICIES } from "../stages/management/policies.ts";
import { type ExperimentOptions, usePlugins } from "./experiment_setup.ts";
import { FILLS } from "../stages/retrieval/fills.ts";
import {
  asymmetricExposureExperiment,
  budgetFillExperiment,
  memorySizeExperiment,
  rankerExperiment,
  traceLoadExperiment,
} from "./stage_experiments.ts";
import { rq2Figure } from "./rq2_figure.ts";
import { type FigureResult, paperValues } from "../figures/figure_result.ts";

/** Trace loads from light to heavy: one blue, darkening. */
const _LOAD_COLORS = ["#97bbf5", "#4269d0", "#1b2f78"];

/**
 * Figure 4: writing coverage under trace loads 0.75×, 1× and 1.25× (MINJA): one panel per
 * metric, one line per trace load.
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
  const paper = (await paperValues()).figures.filter((p) => p.figure === "figure4");
  const loads = (options.loads ?? [0.75, 1, 1.25]).map(String);
  return rq2Figure({
    name: "figure4_trace_load",
    title: "Figure 4. Writing coverage under different trace loads",
    result,
    x: "thetaW",
    xLabel: AXIS_LABEL.thetaW,
    condition: {
      column: "traceLoad",
      header: "trace load",
      label: (v) => `trace load ${v}×`,
      name: "trace load (source units per trace, relative to the benchmark's)",
      colors: loads.length === 3 ? _LOAD_COLORS : undefined,
      domain: loads,
    },
    paper,
  });
}

/** A fill order of the retrieval stage. */
type Fill = OperatingPoint["fill"];

/** The paper's rankers, in its order. */
export const PAPER_RANKERS = ["self", "external", "random", "chronological"];

/**
 * Which of the paper's rankers a kit ranker plays: the agent's own LLM (`llm:self`) or its
 * offline stand-in `usefulness` is "self"; another LLM or the second heuristic
 * `distinctiveness` is "external". Any other ranker (a plugin's) plays none: it is itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paperRanker } from "./rq2_figures.ts";
 * assert.equal(paperRanker("usefulness"), "self");
 * assert.equal(paperRanker("llm:gpt-5.4"), "external");
 * assert.equal(paperRanker("random"), "random");
 * assert.equal(paperRanker("my_ranker"), "my_ranker");
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
 * The legend label of a ranker in Figure 5: the paper's role for the rankers that stand in for
 * it, `external · llm:MODEL` for another model, and any other ranker (a plugin's) by its own id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankerLabel } from "./rq2_figures.ts";
 * assert.equal(rankerLabel("distinctiveness"), "external · distinctiveness (offline)");
 * assert.equal(rankerLabel("llm:gpt-5.4"), "external · llm:gpt-5.4");
 * assert.equal(rankerLabel("backwards"), "backwards");
 * ```
 */
export function rankerLabel(id: string): string {
  return _RANKER_LABEL[id] ?? (id.startsWith("llm:") ? `external · ${id}` : id);
}

/**
 * Figure 5: writing coverage by ranker, in the paper's order (MINJA): one panel per metric, one
 * line per ranker; a plugin's rankers (drawn by default) follow the paper's, under their own ids.
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
  const paper = (await paperValues()).figures.filter((p) => p.figure === "figure5");
  const ids = [...new Set(result.rows.map((r) => r.ranker))];
  const order = (id: string) => {
    const i = PAPER_RANKERS.indexOf(paperRanker(id));
    return i === -1 ? PAPER_RANKERS.length : i;
  };
  const domain = ids.toSorted((a, b) => order(a) - order(b));
  let others = 0;
  const offline = ids.some((id) => id === "usefulness" || id === "distinctiveness");
  return rq2Figure({
    name: "figure5_rankers",
    title: "Figure 5. Writing coverage by writing-stage ranker",
    result,
    x: "thetaW",
    xLabel: AXIS_LABEL.thetaW,
    condition: {
      column: "ranker",
      header: "ranker",
      domain,
      label: rankerLabel,
      name: "ranker",
      // The paper's colours by role, whichever kit rankers play them; the others in turn.
      colors: domain.map((id) => {
        const role = _RANKER_COLORS[paperRanker(id)];
        return role ?? _OTHER_COLORS[others++ % _OTHER_COLORS.length];
      }),
    },
    paper: paper.map((p) => ({
      ...p,
      panel: domain.find((id) => paperRanker(id) === p.panel) ?? p.panel,
    })),
    note: offline
      ? "Rankers in the paper's order. Offline, the agent's own LLM ranker (self) is played by the " +
        "usefulness heuristic and the external LLM ranker by a second, different heuristic " +
        "(distinctiveness: words found nowhere else in the trace); both read a unit's text only."
      : "Rankers in the paper's order.",
  });
}

const _RANKER_COLORS: Record<string, string> = {
  self: "#4269d0",
  external: "#a463f2",
  random: "#efb118",
  chronological: "#ff725c",
};

/** Colours of rankers and fills that play no role of the paper's, in turn. */
const _OTHER_COLORS = ["#9c6b4e", "#3ca951", "#6cc5b0", "#ff8ab7", "#97bbf5"];

/**
 * The conditions of Figure 6, one factor changed at a time from the paper's default (K = 5,
 * the given default fill): each budget in `ks` at the default fill, then each other fill in
 * `fills` at the default budget. With the defaults: K = 3, 5, 7 at random fill and K = 5 at
 * similarity fill, the paper's four lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure6Conditions } from "./rq2_figures.ts";
 * assert.deepEqual(figure6Conditions({}).map((c) => `${c.k} ${c.fill}`), ["3 random", "5 random", "7 random", "5 similarity"]);
 * assert.deepEqual(figure6Conditions({ ks: [3], fills: ["similarity"], k: 3 }).map((c) => `${c.k} ${c.fill}`), ["3 random", "3 similarity"]);
 * ```
 */
export function figure6Conditions(options: {
  /** Budgets at the default fill; default 3, 5, 7. */
  ks?: readonly number[];
  /** Fill orders at the default budget; default every registered one (random, similarity, plugins'). */
  fills?: readonly Fill[];
  /** The default budget; default 5. */
  k?: number;
  /** The default fill; default random. */
  fill?: Fill;
}): { k: number; fill: Fill }[] {
  const k = options.k ?? PAPER_DEFAULTS.k;
  const fill = options.fill ?? PAPER_DEFAULTS.fill;
  const out = [
    ...(options.ks ?? [3, 5, 7]).map((kk) => ({ k: kk, fill })),
    ...(options.fills ?? FILLS.ids()).map((f) => ({ k, fill: f })),
  ];
  return out.filter((c, i) => out.findIndex((d) => d.k === c.k && d.fill === c.fill) === i);
}

/** Budgets in blues from light to dark; the other fill in orange. */
const _BUDGET_COLORS = ["#97bbf5", "#4269d0", "#1b2f78", "#6383d8"];

/**
 * Figure 6: retrieval exposure by budget K and fill order, MINJA: one panel per metric, one line
 * per condition, the paper's four ({@link figure6Conditions}: K = 3, 5, 7 at random fill and
 * K = 5 at similarity fill).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure6BudgetFill } from "./rq2_figures.ts";
 * const fig = await figure6BudgetFill({ n: 2, resamples: 10, ks: [3], fills: ["random"], grid: [0, 1] });
 * assert.match(fig.figure.svg, /K = 3 · random fill/);
 * ```
 */
export async function figure6BudgetFill(
  options: ExperimentOptions & {
    /** Budgets, each at the default fill (random); default 3, 5, 7. */
    ks?: readonly number[];
    /** Fill orders, each at the default budget (K = 5); default every registered one. */
    fills?: readonly Fill[];
    /** Exposure grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<FigureResult> {
  // A plugin's fill is registered before the conditions list the registered ones.
  await usePlugins(options);
  const conditions = figure6Conditions({
    ks: options.ks,
    fills: options.fills,
    k: options.base?.k,
    fill: options.base?.fill,
  });
  const result = await budgetFillExperiment({ ...options, conditions });
  const key = (k: unknown, fill: unknown) => `K = ${k} · ${fill} fill`;
  const domain = conditions.map((c) => key(c.k, c.fill));
  const fill = options.base?.fill ?? PAPER_DEFAULTS.fill;
  let blue = 0;
  const fills = conditions.map((c) => c.fill).filter((f, i, all) =>
    f !== fill && all.indexOf(f) === i
  );
  // The paper's other fill (similarity) in orange; a plugin's fills in turn after it.
  const colors = conditions.map((c) =>
    c.fill === fill
      ? _BUDGET_COLORS[Math.min(blue++, 2)]
      : ["#ef8a17", ..._OTHER_COLORS][fills.indexOf(c.fill) % (_OTHER_COLORS.length + 1)]
  );
  return rq2Figure({
    name: "figure6_k_fill",
    title: "Figure 6. Retrieval exposure by budget K and fill order",
    result,
    records: result.summary.toRecords().map((r) => ({ ...r, condition: key(r.k, r.fill) })),
    x: "thetaR",
    xLabel: AXIS_LABEL.thetaR,
    condition: {
      column: "condition",
      header: "budget · fill",
      domain,
      label: (v) => v,
      name: "budget K and fill order",
      colors,
    },
    paper: [],
    note: "One factor changes at a time from the default K = 5 with random fill: the budget " +
      "(K = 3, 5, 7) or the fill order (similarity: the most query-similar background records " +
      `complete the context${
        fills.filter((f) => f !== "similarity").map((f) =>
          `; ${f}: ${
            (FILLS.entries().find((e) => e.id === f)?.description ?? "a fill order").replace(
              /\.$/,
              "",
            )
          }`
        ).join("")
      }). The paper states no values for this figure in its text.`,
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
  const paper = (await paperValues()).figures.filter((p) => p.figure === "asymmetric");
  return rq2Figure({
    name: "asymmetric_exposure",
    title: "Asymmetric exposure: the helpful record's exposure fixed, the risk record's rising",
    result,
    x: "thetaRRisk",
    xLabel: AXIS_LABEL.thetaRRisk,
    paper,
    width: 640,
  });
}

/** Policy colours, the same in every figure that draws policies as lines. */
const _POLICY_COLORS: Record<string, string> = {
  UM: "#222222",
  PQ: "#4269d0",
  NC: "#efb118",
  SC: "#3ca951",
};

/**
 * Figure 7: memory size |B| on the x-axis, one line per management policy, one panel per
 * metric, MINJA. Default sizes: the paper's 50, 100, 300, 500, or 25, 50, 100, 128 on the demo
 * set (its banks hold 128 records); the axis always includes the sizes the paper states values
 * for (|B| = 500), so they are drawn where they belong even when the data has no such bank.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figure7MemorySize } from "./rq2_figures.ts";
 * const fig = await figure7MemorySize({ n: 2, resamples: 10, sizes: [50] });
 * assert.match(fig.figure.svg, />500</); // the paper's |B| on the same axis
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
  const paper = (await paperValues()).figures.filter((p) => p.figure === "figure7");
  const drawn = new Set(result.rows.map((r) => r.bankSize));
  const categories = [...new Set([...drawn, ...paper.map((p) => Number(p.x))])]
    .sort((a, b) => a - b).map(String);
  const policies = orderPolicies([
    ...(options.policies ?? POLICIES.ids()),
    ...result.rows.map((r) => r.policy),
  ]).filter((p) => result.rows.some((r) => r.policy === p));
  const missing = paper.map((p) => Number(p.x)).filter((b) => !drawn.has(b));
  return rq2Figure({
    name: "figure7_memory_size",
    title: "Figure 7. Management policy by memory size |B|",
    result,
    x: "bankSize",
    xLabel: AXIS_LABEL.bankSize,
    categories,
    condition: {
      column: "policy",
      header: "policy",
      domain: policies,
      label: (v) => v,
      name: "management policy",
      colors: policies.map((p, i) => _POLICY_COLORS[p] ?? CONDITION_COLORS[4 + i % 4]),
    },
    paper,
    note: (demo && !options.sizes
      ? "The demo banks hold 128 records, so |B| = 25, 50, 100, 128 stand in for the paper's 50-500."
      : "") +
      (missing.length
        ? ` At |B| = ${[...new Set(missing)].join(", ")} only the paper's values are drawn.`
        : "") +
      " The paper also reports that NC and SC cut ASR further at |B| = 500, losing 8 and 6 points of clean utility.",
  });
}
