/** What a plan says about a pilot run (`--limit 2`): its cost, and what planning after it changes. */
import type { ModelCost } from "../run/plan/plan_cost.ts";
import type { PlanEntry } from "../run/plan/request_plan.ts";

const _usd = (x: number) => (x < 1 ? x.toFixed(4) : x.toFixed(2));

/**
 * The lines of a plan about a pilot: what a `--limit 2` run sends and costs, and what a plan
 * made after it changes (reply lengths and each model's token count come from the pilot's
 * cached replies). Empty when the plan is a pilot already.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pilotLines } from "./plan_text.ts";
 * const lines = pilotLines({ pilot: { entries: [], costs: [{ model: "m", toSend: 40, promptTokens: 1, completionTokens: 1, prices: null, liveUsd: 0.5, batchUsd: null }] }, command: "deno task reproduce --limit 2" });
 * assert.match(lines.join(" "), /sends 40 requests \(about 0\.5000 USD live\)/);
 * ```
 */
export function pilotLines(options: {
  /** The pilot's plan (the same run with `--limit 2`); null when this plan is one. */
  pilot: { entries: readonly PlanEntry[]; costs: readonly ModelCost[] } | null;
  /** The pilot's command line. */
  command: string;
}): string[] {
  const { pilot } = options;
  if (!pilot) return [];
  const requests = pilot.costs.reduce((n, c) => n + c.toSend, 0);
  const live = pilot.costs.reduce((s, c) => s + (c.liveUsd ?? 0), 0);
  return [
    "",
    `A pilot first: ${options.command} sends ${requests.toLocaleString("en-US")} requests ` +
    `(about ${_usd(live)} USD live) on 2 instances of every experiment. Plan again after it: ` +
    "completions are then taken at the mean length of the pilot's replies per model and " +
    "phase (a reasoning model bills its reasoning as output, which no stand-in reply can " +
    "know, often several times the visible answer), prompts are scaled by each model's own " +
    "token count, and the pilot's answers are cached, so the full run does not pay for them " +
    "again.",
  ];
}
