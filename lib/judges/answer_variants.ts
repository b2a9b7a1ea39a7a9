/**
 * The ways an output may state one answer: the whole answer, its items as a set (or in order,
 * when the other answer has the same items), without a parenthetical, and a unique part of a
 * name. The committed-answer judge looks for each variant in the output.
 */
import { BREAK_PREFIX } from "../text/normalize.ts";
import { answerTokens } from "./answer_tokens.ts";
import { COMMITMENT_CUES } from "./commitment_cues.ts";

/** One way of stating an answer. */
export interface AnswerVariant {
  /** Token sequences (light words removed) that must all be found; one item unless a list. */
  items: string[][];
  /** Items must appear in this order (lists whose set equals the other answer's). */
  ordered: boolean;
  /** A name part: it counts only where the output writes it capitalised, as here. */
  capitalized?: string;
}

const LIGHT = new Set(COMMITMENT_CUES.light.map((p) => p.join(" ")));
const NAME_STOP = new Set(COMMITMENT_CUES.nameStopwords.map((p) => p.join(" ")));
const LIST_SPLIT = new Set([`${BREAK_PREFIX},`, `${BREAK_PREFIX};`, "and"]);

/** Whether a token is dropped before matching (articles are already gone). */
export function isLightToken(token: string): boolean {
  return LIGHT.has(token);
}

const _content = (tokens: string[]) =>
  tokens.filter((t) => !t.startsWith(BREAK_PREFIX) && !LIGHT.has(t));

/** Split at commas, semicolons and "and"; null when fewer than two items remain. */
function _items(tokens: string[]): string[][] | null {
  const items: string[][] = [[]];
  for (const t of tokens) {
    if (LIST_SPLIT.has(t)) items.push([]);
    else items.at(-1)!.push(t);
  }
  const kept = items.map(_content).filter((i) => i.length > 0);
  return kept.length >= 2 ? kept : null;
}

/** Drop `( ... )` groups; return the rest and each group's tokens. */
function _parentheticals(tokens: string[]): { rest: string[]; groups: string[][] } {
  const rest: string[] = [], groups: string[][] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t === `${BREAK_PREFIX}(`) {
      depth++;
      groups.push([]);
    } else if (t === `${BREAK_PREFIX})`) depth = Math.max(0, depth - 1);
    else if (depth > 0) groups.at(-1)!.push(t);
    else rest.push(t);
  }
  return { rest, groups };
}

const _key = (items: string[][]) => items.map((i) => i.join(" ")).sort().join(" | ");

/** The variants of one answer before comparing them with the other answer's. */
function _raw(answer: string): AnswerVariant[] {
  const tokens = answerTokens(answer);
  const { rest, groups } = _parentheticals(tokens);
  const bases = [tokens];
  if (groups.length > 0) {
    bases.push(rest);
    // "(or 25:50)": an alternative spelling the answer itself offers.
    for (const g of groups) if (g[0] === "or" && g.length > 1) bases.push(g.slice(1));
  }
  const out: AnswerVariant[] = [];
  for (const base of bases) {
    const whole = _content(base);
    if (whole.length > 0) out.push({ items: [whole], ordered: false });
    const items = _items(base);
    if (items) out.push({ items, ordered: false });
  }
  return out;
}

/**
 * Capitalised words of a name of two to four such words, with "of", "the", "de" and the like
 * allowed between them ("Caroline Smith", "University of Leeds").
 */
function _nameParts(answer: string): string[] {
  const trimmed = answer.trim().replace(/[.!]+$/, "");
  const word = "[\\p{Lu}][\\p{L}'\\u2019-]+";
  const join = "(?:\\s+(?:of|the|de|da|del|di|du|la|le|van|von))*\\s+";
  if (!new RegExp(`^${word}(?:${join}${word}){1,3}$`, "u").test(trimmed)) return [];
  return trimmed.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w));
}

/**
 * The variants of `answer`, given the `other` answer and the `question`. A variant equal to one
 * of the other answer's (same items) is dropped from both, since it cannot tell them apart; lists
 * with the same items as the other answer's are matched in order. A name part is a variant when
 * the other answer and the question do not contain it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerVariants } from "./answer_variants.ts";
 * const v = answerVariants({ answer: "Thailand, Brazil", other: "Peru, Chile", question: "Where?" });
 * assert.deepEqual(v.map((x) => x.items), [[["thailand", "brazil"]], [["thailand"], ["brazil"]]]);
 * const n = answerVariants({ answer: "Caroline Smith", other: "Caroline Jones", question: "Who?" });
 * assert.deepEqual(n.at(-1), { items: [["smith"]], ordered: false, capitalized: "Smith" });
 * ```
 */
export function answerVariants(options: {
  /** The answer whose variants are wanted. */
  answer: string;
  /** The competing answer (y_adv for y*, and the reverse). */
  other: string;
  /** The question asked; a name part it contains is not a variant. */
  question: string;
}): AnswerVariant[] {
  const mine = _raw(options.answer);
  const theirs = _raw(options.other);
  const theirKeys = new Set(theirs.map((v) => _key(v.items)));
  const theirSets = new Set(
    theirs.filter((v) => v.items.length > 1).map((v) =>
      [...new Set(v.items.map((i) => i.join(" ")))].sort().join(" | ")
    ),
  );
  const out: AnswerVariant[] = [];
  for (const v of mine) {
    const key = _key(v.items);
    if (v.items.length > 1) {
      const set = [...new Set(v.items.map((i) => i.join(" ")))].sort().join(" | ");
      // Same items as the other answer: only the order tells them apart.
      if (theirSets.has(set)) {
        out.push({ items: v.items, ordered: true });
        continue;
      }
    }
    if (!theirKeys.has(key) && !out.some((o) => _key(o.items) === key)) out.push(v);
  }
  const otherTokens = new Set(answerTokens(options.other));
  const questionTokens = new Set(answerTokens(options.question));
  for (const part of _nameParts(options.answer)) {
    const tokens = answerTokens(part).filter((t) => !t.startsWith(BREAK_PREFIX));
    if (tokens.length !== 1) continue;
    const [t] = tokens;
    if (t.length < 3 || NAME_STOP.has(t) || otherTokens.has(t) || questionTokens.has(t)) continue;
    if (out.some((o) => o.items.length === 1 && o.items[0].join(" ") === t)) continue;
    out.push({ items: [[t]], ordered: false, capitalized: part });
  }
  return out;
}
