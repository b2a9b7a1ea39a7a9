/** Resolve `--agent` specs ("reference", "reference:careful?attention=off", "llm:...") into agents. */
import type { Agent } from "./agent.ts";
import { AGENTS } from "./agents.ts";
import { isReferenceSpec, parseReferenceSpec } from "./agent_spec.ts";
import { referenceAgent } from "./reference_agent.ts";

/** A factory for agent kinds other than the built-in reference agent (e.g. `llm`). */
export type AgentFactory = (name: string) => Agent;

/**
 * `reference` expands to every persona; `reference:NAME` is one persona; either may end in
 * `?MECHANISM=off&...` (see `parseReferenceSpec`); a registered agent id (a plugin's) is that
 * agent; `KIND:NAME` uses the factory registered for KIND.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveAgents } from "./resolve_agents.ts";
 * assert.deepEqual(resolveAgents({ specs: ["reference:careful"] }).map((a) => a.id), ["reference:careful"]);
 * assert.equal(resolveAgents({ specs: ["reference"] }).length, 5);
 * assert.deepEqual(resolveAgents({ specs: ["reference:careful?corroboration=off"] }).map((a) => a.id),
 *   ["reference:careful?corroboration=off"]);
 * ```
 */
export function resolveAgents(options: {
  /** Agent specs. */
  specs: readonly string[];
  /** Factories by kind for non-reference agents; default none. */
  factories?: Readonly<Record<string, AgentFactory>>;
}): Agent[] {
  return options.specs.flatMap((spec) => {
    if (isReferenceSpec(spec)) {
      const { personas, mechanisms } = parseReferenceSpec(spec);
      return personas.map((persona) => referenceAgent({ persona, mechanisms }));
    }
    const registered = AGENTS.get(spec);
    if (registered) return [registered];
    const [kind, ...rest] = spec.split(":");
    const name = rest.join(":");
    const factory = options.factories?.[kind];
    if (!factory || name === "") {
      throw new RangeError(
        `--agent: unknown agent ${
          JSON.stringify(spec)
        } (expected reference, reference:PERSONA, reference:PERSONA?MECHANISM=off${
          Object.keys(options.factories ?? {}).map((k) => `, ${k}:NAME`).join("")
        }${
          AGENTS.ids().filter((id) => !id.startsWith("reference:")).map((id) => `, ${id}`).join("")
        })`,
      );
    }
    return [factory(name)];
  });
}
