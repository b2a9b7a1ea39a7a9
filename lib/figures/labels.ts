/** Labels every figure and table uses instead of raw column values ("minja", "traceLoad = 1"). */
import { POLICIES } from "../stages/management/policies.ts";

/** Attack names as the paper writes them. */
export const ATTACK_LABEL: Record<string, string> = { minja: "MINJA", sleeper: "Sleeper" };

/** Dataset names as the paper writes them. */
export const DATASET_LABEL: Record<string, string> = {
  demo: "demo",
  locomo: "LoCoMo",
  longmemeval: "LongMemEval",
};

/** Axis label of each varied column. */
export const AXIS_LABEL: Record<string, string> = {
  thetaW: "writing coverage θw",
  policy: "management policy",
  thetaR: "retrieval exposure θr",
  thetaRRisk: "risk exposure θr− (θr+ = 0.8)",
  bankSize: "memory size |B| (background records)",
};

/**
 * Sort policies in registry order (the built-ins in the paper's order UM, PQ, NC, SC, then
 * plugins' in load order), any unregistered ones after them as first seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orderPolicies } from "./labels.ts";
 * assert.deepEqual(orderPolicies(["SC", "NC", "X", "UM"]), ["UM", "NC", "SC", "X"]);
 * ```
 */
export function orderPolicies(policies: readonly string[]): string[] {
  const distinct = [...new Set(policies)];
  const order = POLICIES.ids();
  return [
    ...order.filter((p) => distinct.includes(p)),
    ...distinct.filter((p) => !order.includes(p)),
  ];
}

/**
 * The row-facet label of a dataset and an attack: "LoCoMo · MINJA".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { panelLabel } from "./labels.ts";
 * assert.equal(panelLabel({ dataset: "locomo", attack: "sleeper" }), "LoCoMo · Sleeper");
 * ```
 */
export function panelLabel(options: { dataset: unknown; attack: unknown }): string {
  const dataset = String(options.dataset);
  const attack = String(options.attack);
  const name = DATASET_LABEL[dataset] ?? dataset.replace(/^.*\//, "");
  return `${name} · ${ATTACK_LABEL[attack] ?? attack}`;
}

/**
 * Records with a `panel` column (dataset · attack) for the row facets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withPanel } from "./labels.ts";
 * assert.equal(withPanel([{ dataset: "demo", attack: "minja" }])[0].panel, "demo · MINJA");
 * ```
 */
export function withPanel(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return records.map((r) => ({
    ...r,
    panel: panelLabel({ dataset: r.dataset, attack: r.attack }),
  }));
}

/**
 * A number with `digits` decimals, as every table shows it ("" for missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fixed } from "./labels.ts";
 * assert.equal(fixed(0.4462500000000001), "0.446");
 * assert.equal(fixed(null), "");
 * ```
 */
export function fixed(value: unknown, digits = 3): string {
  if (value === null || value === undefined || value === "") return "";
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(digits) : String(value);
}
