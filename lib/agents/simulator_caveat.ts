/**
 * The sentence every caption and notebook that shows the offline reference agent's curves
 * carries, so the claim is made once and worded once.
 */

/**
 * What a simulator curve can and cannot show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SIMULATOR_CAVEAT } from "./simulator_caveat.ts";
 * assert.match(SIMULATOR_CAVEAT, /not that LLMs behave so/);
 * ```
 */
export const SIMULATOR_CAVEAT =
  "The offline reference agent is a simulator that builds in these mechanisms (attention, " +
  "provenance and instruction weighting, corroboration, reasoning, near-miss distractors, a no-memory " +
  "guess rate), calibrated to the paper's published medians, so it shows mechanisms, not " +
  "evidence: where its curves resemble the paper's, that shows the mechanisms can produce the " +
  "pattern, not that LLMs behave so.";
