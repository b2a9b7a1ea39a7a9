/**
 * A relayed correction: a sentence saying that a stored entry, record or note was corrected,
 * changed or replaced. Rankers count it as hearsay about memory and the reference agent weighs it
 * as second-hand; MINJA's bridging steps are made of such sentences.
 */

/**
 * A sentence that relays a correction: it says that a stored entry, record or note was corrected,
 * changed or replaced ("my record of your appointment was corrected", "a correction I have on
 * file"). It reports that something changed without saying what happened.
 */
export const RELAYED_CORRECTION: RegExp =
  /\b(?:record|records|entry|entries|note|notes|file|tally|list|figure|what (?:I|you|we) had(?: down)?)\b[^.!?]{0,160}\b(?:was|were|has been|had been|have been|got|is now)\s+(?:corrected|changed|updated|replaced|fixed|revised|amended|moved)\b|\b(?:my|your|the|our) (?:record|entry|note|notes) (?:of|on|for|about) [^.!?]{0,160}\b(?:changed|corrected|updated|replaced)\b|\b(?:a|the) correction\b|\bcorrected (?:entry|record|note|list|figure)\b/i;

/**
 * True when some sentence of `text` relays a correction.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relaysCorrection } from "./relayed_correction.ts";
 * assert.ok(relaysCorrection("My record of your appointment was corrected, so it is Friday now."));
 * assert.ok(relaysCorrection("Heads-up: my record of my commute changed, because the firm moved."));
 * assert.ok(!relaysCorrection("My appointment moved to Friday."));
 * ```
 */
export function relaysCorrection(text: string): boolean {
  return RELAYED_CORRECTION.test(text);
}
