/**
 * The one rule for the judge, ranker and writer a run uses when none is named: every command
 * (sweep, reproduce, systems, batch, plan, notebooks, calibrate) and `sweep` itself ask it.
 */
import { AGENTS } from "../agents/agents.ts";
import { FieldError } from "../schema/field_error.ts";
import { OFFLINE_RANKER, PAPER_DEFAULTS } from "../schema/operating_point.ts";

/** What the rule reads of an agent. */
export interface AgentKind {
  id: string;
  /** True for the offline reference agent (a simulator), false for a model agent. */
  simulated: boolean;
}

/** The judge, ranker and writer ids of a run. */
export interface Roles {
  judge: string;
  ranker: string;
  writer: string;
}

/**
 * The kind of each agent spec, before any agent is built: `llm:MODEL` is a model agent, a
 * registered agent (a persona, a plugin's) is what it says it is, and any other spec
 * (`reference`, `reference:PERSONA?MECHANISM=off`) is the simulator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentKinds } from "./default_roles.ts";
 * assert.deepEqual(agentKinds(["llm:m", "reference"]).map((a) => a.simulated), [false, true]);
 * ```
 */
export function agentKinds(specs: readonly string[]): AgentKind[] {
  return specs.map((id) => ({
    id,
    simulated: id.startsWith("llm:") ? false : AGENTS.get(id)?.simulated ?? true,
  }));
}

/**
 * The judge, ranker and writer of a run: each one named is kept; the others follow the agents.
 * Model agents are judged by their own model, memory-blind (`llm:self`, as the paper grades with
 * an LLM judge) and rank with it (`llm:self`, the paper's default ranker); the offline simulator
 * is judged by the deterministic matcher and ranks with `usefulness`. No default is right for a
 * mix of both, so a mix must name its judge and ranker (a FieldError naming the field). The
 * writer is `verbatim` unless named.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRoles } from "./default_roles.ts";
 * const model = { id: "llm:m", simulated: false }, sim = { id: "reference:careful", simulated: true };
 * assert.deepEqual(defaultRoles({ agents: [model] }), { judge: "llm:self", ranker: "llm:self", writer: "verbatim" });
 * assert.deepEqual(defaultRoles({ agents: [sim] }), { judge: "deterministic", ranker: "usefulness", writer: "verbatim" });
 * assert.throws(() => defaultRoles({ agents: [model, sim] }), /^FieldError: judge: required when/);
 * assert.equal(defaultRoles({ agents: [model, sim], judge: "deterministic", ranker: "random" }).ranker, "random");
 * ```
 */
export function defaultRoles(options: {
  /** The run's agents (only `id` and `simulated` are read). */
  agents: readonly AgentKind[];
  /** The judge named, if any. */
  judge?: string;
  /** The ranker named, if any. */
  ranker?: string;
  /** The writer named, if any. */
  writer?: string;
}): Roles {
  const { agents } = options;
  const models = agents.length > 0 && agents.every((a) => !a.simulated);
  const simulators = agents.every((a) => a.simulated);
  const pick = (field: "judge" | "ranker", model: string, offline: string): string => {
    const named = options[field];
    if (named !== undefined) return named;
    if (models) return model;
    if (simulators) return offline;
    throw new FieldError({
      field,
      detail: `required when the agents mix the offline reference agent and model agents (got ${
        agents.map((a) => a.id).join(", ")
      }); llm:self needs a model agent, ${offline} is the offline default${
        field === "judge" && options.ranker === undefined ? " (name the ranker too)" : ""
      }`,
    });
  };
  return {
    judge: pick("judge", "llm:self", "deterministic"),
    ranker: pick("ranker", PAPER_DEFAULTS.ranker, OFFLINE_RANKER),
    writer: options.writer ?? "verbatim",
  };
}
