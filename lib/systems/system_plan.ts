/**
 * What a systems run costs: chat and embedding requests and tokens by phase (writing, shared by
 * both modes; what M0 and M1 add), the agent's and judge's requests, the server requests of
 * Hindsight, and a cost from the catalog's prices where it has them.
 */
import { MODEL_CATALOG } from "../models/model_catalog.ts";
import type { HindsightStats } from "./hindsight.ts";
import { type CallPhase, emptyUsage, type PhaseUsage } from "./system_port.ts";

/** One line of a plan. */
export interface PlanLine {
  /** `writing`, `M0`, `M1` (the system's calls), `agent+judge`, or `total`. */
  phase: string;
  chatRequests: number;
  embeddingRequests: number;
  promptTokens: number;
  completionTokens: number;
  /** USD from the catalog's list prices, or null when the model has none there. */
  costUsd: number | null;
}

// The catalog's list price of a chat model, when it carries one (USD per 1M tokens).
function _price(model: string | null): { input: number; output: number } | null {
  const spec = MODEL_CATALOG.find((m) => m.id === model) as
    | { prices?: { inputPer1M?: number; outputPer1M?: number } | null }
    | undefined;
  const p = spec?.prices;
  return p && typeof p.inputPer1M === "number" && typeof p.outputPer1M === "number"
    ? { input: p.inputPer1M, output: p.outputPer1M }
    : null;
}

function _cost(model: string | null, u: { promptTokens: number; completionTokens: number }) {
  const price = _price(model);
  if (u.promptTokens + u.completionTokens === 0) return 0;
  return price ? (u.promptTokens * price.input + u.completionTokens * price.output) / 1e6 : null;
}

/**
 * The plan's lines: the system's phases in order, then the agent and judge, then the total.
 * Embedding cost is not priced (the catalog lists chat models only).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planLines } from "./system_plan.ts";
 * const lines = planLines({ chatModel: "m", usage: new Map(), agent: { requests: 2, promptTokens: 10, completionTokens: 4, model: null } });
 * assert.deepEqual(lines.map((l) => [l.phase, l.chatRequests]), [["agent+judge", 2], ["total", 2]]);
 * ```
 */
export function planLines(options: {
  /** The system's chat model (for its price). */
  chatModel: string | null;
  /** The system's usage by phase. */
  usage: ReadonlyMap<CallPhase, PhaseUsage>;
  /** The agent's and judge's requests and tokens, and the agent's model (for its price). */
  agent: { requests: number; promptTokens: number; completionTokens: number; model: string | null };
}): PlanLine[] {
  const lines: PlanLine[] = [];
  for (const phase of ["writing", "M0", "M1"] as const) {
    const u = options.usage.get(phase) ?? emptyUsage();
    if (u.chatRequests + u.embeddingRequests === 0 && !options.usage.has(phase)) continue;
    lines.push({
      phase,
      chatRequests: u.chatRequests,
      embeddingRequests: u.embeddingRequests,
      promptTokens: u.promptTokens,
      completionTokens: u.completionTokens,
      costUsd: _cost(options.chatModel, u),
    });
  }
  lines.push({
    phase: "agent+judge",
    chatRequests: options.agent.requests,
    embeddingRequests: 0,
    promptTokens: options.agent.promptTokens,
    completionTokens: options.agent.completionTokens,
    costUsd: _cost(options.agent.model, options.agent),
  });
  const sum = (f: (l: PlanLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  lines.push({
    phase: "total",
    chatRequests: sum((l) => l.chatRequests),
    embeddingRequests: sum((l) => l.embeddingRequests),
    promptTokens: sum((l) => l.promptTokens),
    completionTokens: sum((l) => l.completionTokens),
    costUsd: lines.some((l) => l.costUsd === null) ? null : sum((l) => l.costUsd ?? 0),
  });
  return lines;
}

/**
 * The plan as a text table, with Hindsight's server requests when there are any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPlan, planLines } from "./system_plan.ts";
 * const text = formatPlan({ title: "t", lines: planLines({ chatModel: null, usage: new Map(),
 *   agent: { requests: 0, promptTokens: 0, completionTokens: 0, model: null } }) });
 * assert.match(text, /^t\nphase/);
 * ```
 */
export function formatPlan(options: {
  title: string;
  lines: readonly PlanLine[];
  hindsight?: HindsightStats;
}): string {
  const head = ["phase", "chat req", "embed req", "prompt tok", "completion tok", "cost USD"];
  const rows = options.lines.map((l) => [
    l.phase,
    String(l.chatRequests),
    String(l.embeddingRequests),
    String(l.promptTokens),
    String(l.completionTokens),
    l.costUsd === null ? "n/a" : l.costUsd.toFixed(4),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ");
  const out = [options.title, fmt(head), ...rows.map(fmt)];
  const h = options.hindsight;
  if (h && h.retain + h.replayed > 0) {
    out.push(
      `Hindsight server: ${h.retain} retain, ${h.recall} recall, ${h.list} list, ${h.memory} ` +
        `memory (observation lineage), ${h.operations} operations, ${h.bank} bank, ${h.info} ` +
        `version and trace requests; ${h.replayed} sessions replayed from the cache; ` +
        `${h.serverTokens} extraction tokens reported (the server's own model calls, ` +
        `consolidation included, are not visible to the kit).`,
    );
  }
  if (options.lines.some((l) => l.costUsd === null)) {
    out.push(
      "cost n/a: a model without list prices in data/models.json (embeddings are not priced).",
    );
  }
  return out.join("\n");
}
