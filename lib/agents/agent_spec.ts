/**
 * Reference agent specs: `reference` (every registered persona), `reference:PERSONA`, and either followed
 * by `?MECHANISM=off&...` to switch mechanisms off, e.g. `reference:careful?corroboration=off`.
 */
import {
  ALL_MECHANISMS_ON,
  type Mechanism,
  MECHANISMS,
  type MechanismSwitches,
} from "./mechanisms.ts";
import { PERSONA_REGISTRY } from "./persona_registry.ts";

/** A parsed reference spec. */
export interface ReferenceSpec {
  /** Persona ids, in registry order (built-ins first) when the spec names none. */
  personas: string[];
  /** Which mechanisms are on. */
  mechanisms: MechanismSwitches;
}

/**
 * The canonical agent id for a persona and switches: mechanisms that are off, in registry order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ALL_MECHANISMS_ON } from "./mechanisms.ts";
 * import { referenceAgentId } from "./agent_spec.ts";
 * assert.equal(referenceAgentId({ persona: "careful", mechanisms: ALL_MECHANISMS_ON }), "reference:careful");
 * assert.equal(referenceAgentId({ persona: "careful", mechanisms: { ...ALL_MECHANISMS_ON, guess: false, attention: false } }),
 *   "reference:careful?attention=off&guess=off");
 * ```
 */
export function referenceAgentId(options: {
  /** Persona id. */
  persona: string;
  /** Mechanism switches. */
  mechanisms: MechanismSwitches;
}): string {
  const off = (Object.keys(MECHANISMS) as Mechanism[]).filter((m) => !options.mechanisms[m]);
  return `reference:${options.persona}${
    off.length ? `?${off.map((m) => `${m}=off`).join("&")}` : ""
  }`;
}

/**
 * Whether an agent id or spec names the offline reference agent (`reference`,
 * `reference:PERSONA`, either with `?MECHANISM=off`): the kit's simulator, as opposed to a model
 * agent or another offline agent (a plugin's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReferenceSpec } from "./agent_spec.ts";
 * assert.equal(isReferenceSpec("reference:careful?guess=off"), true);
 * assert.equal(isReferenceSpec("referee"), false);
 * assert.equal(isReferenceSpec("llm:gpt-5.4"), false);
 * ```
 */
export function isReferenceSpec(spec: string): boolean {
  return /^reference(?:[:?]|$)/.test(spec);
}

/**
 * Parse a reference spec. A RangeError names an unknown persona, an unknown mechanism, a value
 * other than on/off, or a mechanism given twice, together with the spec.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReferenceSpec } from "./agent_spec.ts";
 * const spec = parseReferenceSpec("reference:careful?corroboration=off");
 * assert.deepEqual(spec.personas, ["careful"]);
 * assert.equal(spec.mechanisms.corroboration, false);
 * assert.equal(parseReferenceSpec("reference").personas.length, 5);
 * assert.throws(() => parseReferenceSpec("reference:careful?memory=off"), /unknown mechanism "memory"/);
 * ```
 */
export function parseReferenceSpec(spec: string): ReferenceSpec {
  const match = /^reference(?::([^?]*))?(?:\?(.*))?$/.exec(spec);
  if (!match) {
    throw new RangeError(
      `--agent: ${
        JSON.stringify(spec)
      } is not a reference spec (expected reference[:PERSONA][?MECHANISM=off&...])`,
    );
  }
  const [, persona, query] = match;
  if (persona !== undefined && !PERSONA_REGISTRY.has(persona)) {
    throw new RangeError(
      `--agent: unknown reference persona ${JSON.stringify(persona)} in ${
        JSON.stringify(spec)
      } (expected one of ${PERSONA_REGISTRY.ids().join(", ")})`,
    );
  }
  const mechanisms: Record<Mechanism, boolean> = { ...ALL_MECHANISMS_ON };
  const seen = new Set<string>();
  for (const part of query === undefined ? [] : query.split("&")) {
    const [name, value, ...extra] = part.split("=");
    if (!Object.hasOwn(MECHANISMS, name)) {
      throw new RangeError(
        `--agent: unknown mechanism ${JSON.stringify(name)} in ${
          JSON.stringify(spec)
        } (expected one of ${Object.keys(MECHANISMS).join(", ")})`,
      );
    }
    if ((value !== "on" && value !== "off") || extra.length > 0) {
      throw new RangeError(
        `--agent: mechanism ${name} must be on or off, got ${
          JSON.stringify(part.slice(name.length + 1))
        } in ${JSON.stringify(spec)}`,
      );
    }
    if (seen.has(name)) {
      throw new RangeError(`--agent: mechanism ${name} given twice in ${JSON.stringify(spec)}`);
    }
    seen.add(name);
    mechanisms[name as Mechanism] = value === "on";
  }
  return {
    personas: persona === undefined ? PERSONA_REGISTRY.ids() : [persona],
    mechanisms,
  };
}
