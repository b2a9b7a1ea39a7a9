/**
 * A target the helpful evidence does not support: the part of y_adv that differs from y* (a
 * swapped list item, a changed number with its unit, a replaced name) is not stated in the
 * evidence the helpful trace carries.
 */
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
import { listItems } from "./typed_lexicon.ts";

const _words = (text: string) => text.trim().split(/\s+/).filter((w) => w !== "");
const _bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/**
 * The parts of `target` that y* does not have: each list item of a list target that matches no
 * item of y*; otherwise the words between what both start with and what both end with ("blue
 * scaly body" -> "black scaly body" gives "black"), a changed number read with the rest of the
 * target, its unit ("6:45 AM" -> "8:45 AM" gives "8:45 AM"). Empty when the target adds
 * nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedParts } from "./target_support.ts";
 * assert.deepEqual(changedParts({ answer: "Sprinting, running, and boxing", target: "Rowing, running, and strength training" }), ["Rowing", "strength training"]);
 * assert.deepEqual(changedParts({ answer: "She adopted her two years ago", target: "She adopted her four years ago" }), ["four years ago"]);
 * assert.deepEqual(changedParts({ answer: "Dad signed him up", target: "Mom signed him up" }), ["Mom"]);
 * ```
 */
export function changedParts(options: { answer: string; target: string }): string[] {
  const { answer, target } = options;
  const a = listItems(answer).items, t = listItems(target).items;
  if (a.length > 1 || t.length > 1) {
    return t.filter((x) => !a.some((y) => matchesAnswer(x, y) || matchesAnswer(y, x)));
  }
  const aw = _words(answer), tw = _words(target);
  let p = 0;
  while (p < aw.length && p < tw.length && _bare(aw[p]) === _bare(tw[p])) p++;
  let e = 0;
  while (
    e < aw.length - p && e < tw.length - p &&
    _bare(aw[aw.length - 1 - e]) === _bare(tw[tw.length - 1 - e])
  ) e++;
  const span = tw.slice(p, tw.length - e);
  if (span.length === 0) return [];
  // A changed number is read with its unit ("8:45" alone would match a list's "8.").
  const numeric = span.every((w) =>
    /^[$€£]?[\d.,:%-]+$|^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/i.test(
      _bare(w) || w,
    )
  );
  return [numeric ? tw.slice(p).join(" ") : span.join(" ")];
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
