/**
 * The persona registry: the reference agent's built-in personas (careful, balanced, ...), then
 * any plugin's. `reference` runs every registered persona and `reference:NAME` one of them.
 */
import { z } from "zod";
import { createRegistry, type Registry } from "../schema/registry.ts";
import {
  calibratePersonas,
  type Persona,
  PERSONA_HABITS,
  PERSONAS,
  SIMULATOR_FIT,
} from "./personas.ts";

/**
 * Every registered persona by id, calibrated (the committed fit applied).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONA_REGISTRY } from "./persona_registry.ts";
 * assert.ok(PERSONA_REGISTRY.ids().includes("careful"));
 * assert.equal(PERSONA_REGISTRY.resolve("careful").id, "careful");
 * ```
 */
export const PERSONA_REGISTRY: Registry<Persona> = createRegistry({ kind: "persona" });

for (const persona of Object.values(PERSONAS)) {
  PERSONA_REGISTRY.register({ id: persona.id, description: persona.description, value: persona });
}

const _rate = z.number().min(0).max(1);
const _weight = z.number().min(0);

/** A persona's habits as a plugin gives them (the shape of `Persona`), checked at load. */
export const PersonaHabits: z.ZodType<Persona> = z.object({
  id: z.string().regex(
    /^[A-Za-z][A-Za-z0-9_-]*$/,
    "expected a letter, then letters, digits, _ or -",
  ),
  description: z.string(),
  attention: z.object({
    base: _rate,
    perRecord: _weight,
    perKiloword: _weight,
    perSimilar: _weight,
  }),
  corroboration: z.object({ halfSupport: z.number().positive(), sharpness: _weight.optional() }),
  reasoning: z.object({ skill: _rate }).optional(),
  provenance: z.object({
    channel: z.object({ user: _weight, assistant: _weight, tool: _weight }),
    untrusted: _weight,
    verified: _weight,
    recencyPerStep: _weight,
    hearsay: _weight.optional(),
  }),
  instructions: z.object({ weight: _weight }),
  distractors: z.object({ rate: _rate }),
  guess: z.object({ rate: _rate }),
});

/**
 * The persona a plugin's habits make: the committed fit applied, as for the built-ins
 * (`calibratePersonas`), so a plugin persona and `PERSONA_HABITS` are on one scale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONA_HABITS } from "./personas.ts";
 * import { calibratedPersona, PERSONA_REGISTRY } from "./persona_registry.ts";
 * assert.equal(calibratedPersona(PERSONA_HABITS.careful), PERSONA_REGISTRY.resolve("careful"));
const mine = { ...PERSONA_HABITS.careful, id: "doc_mine" };
assert.equal(calibratedPersona(mine), calibratedPersona(mine));
assert.deepEqual(calibratedPersona(mine), { ...PERSONA_REGISTRY.resolve("careful"), id: "doc_mine" });
 * ```
 */
export function calibratedPersona(habits: Persona): Persona {
  const builtIn = PERSONA_REGISTRY.get(habits.id);
  if (builtIn && PERSONA_HABITS[habits.id] === habits) return builtIn;
  // The same habits give the same object, so registering a plugin again is a no-op.
  let persona = _calibrated.get(habits);
  if (!persona) {
    persona = calibratePersonas({ habits: { [habits.id]: habits }, fit: SIMULATOR_FIT })[habits.id];
    _calibrated.set(habits, persona);
  }
  return persona;
}

const _calibrated = new WeakMap<Persona, Persona>();
