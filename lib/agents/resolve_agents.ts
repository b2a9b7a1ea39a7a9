/** Resolve `--agent` specs ("reference", "reference:careful", ...) into agents. */
import type { Agent } from "./agent.ts";
import { PERSONAS } from "./personas.ts";
import { referenceAgent } from "./reference_agent.ts";

/** A factory for agent kinds other than the built-in reference agent (e.g. `llm`). */
export type AgentFactory = (name: string) => Agent;

/**
 * `reference` expands to every persona; `reference:NAME` is one persona; `KIND:NAME` uses the
 * factory registered for KIND.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveAgents } from "./resolve_agents.ts";
 * assert.deepEqual(resolveAgents({ specs: ["reference:careful"] }).map((a) => a.id), ["reference:careful"]);
 * assert.equal(resolveAgents({ specs: ["reference"] }).length, 5);
 * ```
 */
export function resolveAgents(options: {
  /** Agent specs. */
  specs: readonly string[];
  /** Factories by kind for non-reference agents; default none. */
  factories?: Readonly<Record<string, AgentFactory>>;
}): Agent[] {
  return options.specs.flatMap((spec) => {
    const [kind, ...rest] = spec.split(":");
    const name = rest.join(":");
    if (kind === "reference") {
      return name === ""
        ? Object.keys(PERSONAS).map((p) => referenceAgent({ persona: p }))
        : [referenceAgent({ persona: name })];
    }
    const factory = options.factories?.[kind];
    if (!factory || name === "") {
      throw new RangeError(
        `--agent: unknown agent ${JSON.stringify(spec)} (expected reference, reference:PERSONA${
          Object.keys(options.factories ?? {}).map((k) => `, ${k}:NAME`).join("")
        })`,
      );
    }
    return [factory(name)];
  });
}
