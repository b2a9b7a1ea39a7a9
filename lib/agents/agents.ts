/**
 * The agent registry: the offline reference agent's personas (`reference:NAME`), then any
 * plugin's agents by id. `reference` (every persona), `?MECHANISM=off` variants and `llm:MODEL`
 * are specs built on demand (see `resolveAgents`).
 */
import { createRegistry, type Registry } from "../schema/registry.ts";
import type { Agent } from "./agent.ts";
import { PERSONAS } from "./personas.ts";
import { referenceAgent } from "./reference_agent.ts";

/**
 * Every registered agent by id (`--agent` validation and help read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AGENTS } from "./agents.ts";
 * assert.ok(AGENTS.has("reference:careful"));
 * assert.equal(AGENTS.resolve("reference:careful").simulated, true);
 * ```
 */
export const AGENTS: Registry<Agent> = createRegistry({ kind: "agent" });

// The personas, in `PERSONAS` order: a new persona is an entry there.
for (const persona of Object.values(PERSONAS)) {
  AGENTS.register({
    id: `reference:${persona.id}`,
    description: `Offline reference agent (simulator), ${persona.id}: ${persona.description}`,
    value: referenceAgent({ persona }),
  });
}
