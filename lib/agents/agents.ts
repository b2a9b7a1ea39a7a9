/**
 * The agent registry: the offline reference agent's personas (`reference:NAME`, one per
 * registered persona), then any plugin's agents by id. `reference` (every persona),
 * `?MECHANISM=off` variants and `llm:MODEL` are specs built on demand (see `resolveAgents`).
 */
import { createRegistry, type Registry } from "../schema/registry.ts";
import type { Agent } from "./agent.ts";
import type { Persona } from "./personas.ts";
import { calibratedPersona, PERSONA_REGISTRY } from "./persona_registry.ts";
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

function _registerAgentOf(persona: Persona, source?: string): void {
  AGENTS.register({
    id: `reference:${persona.id}`,
    description: `Offline reference agent (simulator), ${persona.id}: ${persona.description}`,
    value: referenceAgent({ persona }),
    source,
  });
}

/**
 * Register a persona of the reference agent from its habits (the committed fit is applied, as
 * for the built-ins): afterwards `reference:ID` is an agent, and `reference` runs it too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONA_HABITS } from "./personas.ts";
 * import { AGENTS, registerPersona } from "./agents.ts";
 * import { resolveAgents } from "./resolve_agents.ts";
 * registerPersona({ habits: { ...PERSONA_HABITS.balanced, id: "doc_gullible", description: "Believes one claim.", corroboration: { halfSupport: 0.2 } } });
 * assert.ok(AGENTS.has("reference:doc_gullible"));
 * assert.deepEqual(resolveAgents({ specs: ["reference:doc_gullible?guess=off"] }).map((a) => a.id), ["reference:doc_gullible?guess=off"]);
 * ```
 */
export function registerPersona(options: {
  /** The persona's habits before the fit (the shape of `PERSONA_HABITS` entries). */
  habits: Persona;
  /** Where it came from (the plugin file); default built-in. */
  source?: string;
}): void {
  const persona = calibratedPersona(options.habits);
  // Registering the same habits again is a no-op; another persona under a taken id is refused.
  if (PERSONA_REGISTRY.get(persona.id) === persona) return;
  PERSONA_REGISTRY.register({
    id: persona.id,
    description: persona.description,
    value: persona,
    source: options.source,
  });
  _registerAgentOf(persona, options.source);
}

// The built-in personas, in `PERSONAS` order: a new built-in persona is an entry there.
for (const { value: persona } of PERSONA_REGISTRY.entries()) {
  _registerAgentOf(persona);
}
