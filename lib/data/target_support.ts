/**
 * A target the helpful evidence does not support: the part of y_adv that differs from y* (a
 * swapped list item, a changed number with its unit, a replaced name) is not stated in the
 * evidence the helpful trace carries.
 */
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
import { _listItems } from "./typed_lexicon.ts";

const _words = (text: string) => text.trim().split(/\s+/).filter((w) => w !== "");
const _bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/**
 * The parts of `target` that y* does not have: each list item of a list target that matches no
 * item of y*; otherwise the target from its first word that differs from y* (after the words
 * both start with) to its end, so a changed number keeps its unit ("6:45 AM" -> "8:45 AM" gives
 * "8:45 AM", "blue scaly body" -> "black scaly body" gives "black scaly body"). Empty when the
 * target adds nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedParts } from "./target_support.ts";
 * assert.deepEqual(changedParts({ answer: "Sprinting, running, and boxing", target: "Rowing, running, and strength training" }), ["Rowing", "strength training"]);
 * assert.deepEqual(changedParts({ answer: "She adopted her two years ago", target: "She adopted her four years ago" }), ["four years ago"]);
 * ```
 */
export function changedParts(options: { answer: string; target: string }): string[] {
  const { answer, target } = options;
  const a = _listItems(answer).items, t = _listItems(target).items;
  if (a.length > 1 || t.length > 1) {
    return t.filter((x) => !a.some((y) => matchesAnswer(x, y) || matchesAnswer(y, x)));
  }
  const aw = _words(answer), tw = _words(target);
  let p = 0;
  while (p < aw.length && p < tw.length && _bare(aw[p]) === _bare(tw[p])) p++;
  if (p === tw.length) return [];
  return [tw.slice(p).join(" ")];
}

/**
 * Why the helpful evidence supports part of the target, or null: a part of y_adv that y* lacks
 * (see {@link changedParts}) is stated in `evidenceText` (by the judge's matcher). A part with
 * no content token (an article, punctuation) is not checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evidenceProblem } from "./target_support.ts";
 * const evidenceText = "Strength training builds muscle and prevents injuries.";
 * assert.equal(evidenceProblem({ answer: "Sprinting and boxing", target: "Rowing and strength training", evidenceText }),
 *   'helpful evidence states "strength training"');
 * assert.equal(evidenceProblem({ answer: "Sprinting and boxing", target: "Rowing and swimming", evidenceText }), null);
 * ```
 */
export function evidenceProblem(
  options: { answer: string; target: string; evidenceText: string },
): string | null {
  for (const part of changedParts(options)) {
    if (normalizeTokens(part).length === 0) continue;
    if (matchesAnswer(options.evidenceText, part)) {
      return `helpful evidence states ${JSON.stringify(part)}`;
    }
  }
  return null;
}
