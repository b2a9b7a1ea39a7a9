/** Token-set similarity for the scripted local test servers and pipeline-check replies. */

/** Lower-case alphanumeric tokens of a text. */
export function tokenWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * Jaccard similarity of the token sets of two texts (0 when both are empty).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenJaccard } from "./token_jaccard.ts";
 * assert.equal(tokenJaccard("the red cat", "the red dog"), 0.5);
 * ```
 */
export function tokenJaccard(a: string, b: string): number {
  const x = new Set(tokenWords(a)), y = new Set(tokenWords(b));
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  const union = x.size + y.size - both;
  return union === 0 ? 0 : both / union;
}
