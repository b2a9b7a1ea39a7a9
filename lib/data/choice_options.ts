/** The options a choice question offers: "Which came first, the bike or the car?" -> both. */

const _LEAD = /^(?:(?:and|or|between|either)\s+)/i;

/**
 * The options a question asks the reader to choose between, in the question's words, or an
 * empty list: the clause after the last comma of its last sentence when it joins options with
 * "or" ("Which event happened first, the meeting with Rachel or the pride parade?"), else the
 * words around a closing "A or B?" ("... live close to a beach or the mountains?"; the first
 * option is then the shortest phrase before "or" that `pick` accepts, up to four words, with its
 * article). "Or
 * not" offers no option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceOptions } from "./choice_options.ts";
 * assert.deepEqual(choiceOptions({ question: "Who did I meet first, Mark and Sarah or Tom?" }), ["Mark and Sarah", "Tom"]);
 * assert.deepEqual(choiceOptions({ question: "Did I go with a friend or not?" }), []);
 * ```
 */
export function choiceOptions(
  options: { question: string; pick?: (option: string) => boolean },
): string[] {
  const last = options.question.trim().split(/(?<=[.!?])\s+/).filter((s) => /\w/.test(s)).at(-1) ??
    "";
  if (!/\bor\b/i.test(last) || /\bor not\b/i.test(last)) return [];
  const body = last.replace(/[?.!\s]+$/, "");
  const comma = body.lastIndexOf(",");
  const clause = comma >= 0 ? body.slice(comma + 1).trim() : "";
  if (/\bor\b/i.test(clause) && !/^(?:or|and)\b/i.test(clause)) {
    const parts = clause.split(/\s+or\s+/i).map((p) => p.replace(_LEAD, "").trim());
    return parts.length >= 2 && parts.every((p) => p !== "") ? parts : [];
  }
  // "... close to a beach or the mountains?": the phrase after the last "or" is one option.
  const m = /^(.*)\s+or\s+([^,]+)$/i.exec(body);
  if (m === null || options.pick === undefined) return [];
  const before = m[1].split(/\s+/);
  for (let n = 1; n <= Math.min(4, before.length); n++) {
    if (!options.pick(before.slice(-n).join(" "))) continue;
    // The option keeps its article ("a beach").
    const k = n < before.length && /^(?:a|an|the|my|his|her|their)$/i.test(before.at(-n - 1)!)
      ? n + 1
      : n;
    return [before.slice(-k).join(" "), m[2].trim()];
  }
  return [];
}
