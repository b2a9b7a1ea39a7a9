/**
 * Mechanism `guess`: with no memory of the answer, a model is sometimes right anyway (it knows,
 * or guesses well). The simulator has no world knowledge, so it stands in a fixed chance, the
 * persona's `guess.rate`: when the agent would say "I don't know", that chance of the time it
 * answers y* instead. This is the one place the agent reads `instance.answer`, and only to be
 * right at a rate no context can change, so it can neither help nor hurt a stage's effect; it
 * makes U0 (utility with no memory) a small positive number instead of zero. Switched off, "I
 * don't know" stays.
 */
import type { Persona } from "../personas.ts";

/**
 * The output of a right guess.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guessOutput } from "./guess.ts";
 * assert.equal(guessOutput({ answer: "6" }), "Nothing in memory; my guess: 6.");
 * ```
 */
export function guessOutput(options: {
  /** The answer the guess happens to hit. */
  answer: string;
}): string {
  return `Nothing in memory; my guess: ${options.answer}.`;
}

/**
 * True when the persona's guess is right, given its uniform draw for this instance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { guessesRight } from "./guess.ts";
 * assert.equal(guessesRight({ persona: PERSONAS.balanced, draw: 0.001 }), true);
 * assert.equal(guessesRight({ persona: PERSONAS.balanced, draw: 0.5 }), false);
 * ```
 */
export function guessesRight(options: {
  /** The reading persona. */
  persona: Persona;
  /** A uniform draw in [0, 1) keyed by instance. */
  draw: number;
}): boolean {
  return options.draw < options.persona.guess.rate;
}
