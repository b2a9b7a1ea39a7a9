/**
 * Reasoning-aware replies: split a model reply into its visible answer and its reasoning, so
 * only the answer is judged, parsed or written to memory.
 */

/** A reply split into what the model answered and what it reasoned on the way. */
export interface SplitReply {
  /** The visible answer, trimmed; "" when the reply holds reasoning only. */
  answer: string;
  /** The reasoning blocks joined by a blank line, trimmed; null when there were none. */
  reasoning: string | null;
}

const TAGS = "think|thinking|reasoning|thought";
const BLOCK = new RegExp(`<(${TAGS})>([\\s\\S]*?)<\\/\\1>`, "gi");
const OPEN = new RegExp(`<(?:${TAGS})>`, "i");
const CLOSE = new RegExp(`<\\/(?:${TAGS})>`, "i");

/**
 * Split a reply into answer and reasoning. Recognises `<think>` (also `<thinking>`,
 * `<reasoning>`, `<thought>`) blocks anywhere in the reply; a closing tag with no opening one
 * (servers that strip the opening tag) makes everything before it reasoning; an opening tag that
 * is never closed (a reply cut off while thinking) makes everything after it reasoning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitReasoning } from "./reasoning.ts";
 * assert.deepEqual(splitReasoning("<think>3 or 5? 5.</think>\nFive."), { answer: "Five.", reasoning: "3 or 5? 5." });
 * assert.deepEqual(splitReasoning("Five."), { answer: "Five.", reasoning: null });
 * assert.deepEqual(splitReasoning("<think>still going"), { answer: "", reasoning: "still going" });
 * ```
 */
export function splitReasoning(reply: string): SplitReply {
  const parts: string[] = [];
  let rest = reply.replace(BLOCK, (_, _tag, body: string) => {
    parts.push(body.trim());
    return "\n";
  });
  const close = CLOSE.exec(rest);
  if (close && !OPEN.test(rest.slice(0, close.index))) {
    parts.unshift(rest.slice(0, close.index).trim());
    rest = rest.slice(close.index + close[0].length);
  }
  const open = OPEN.exec(rest);
  if (open) {
    parts.push(rest.slice(open.index + open[0].length).trim());
    rest = rest.slice(0, open.index);
  }
  const reasoning = parts.filter((p) => p.length > 0).join("\n\n");
  return { answer: rest.trim(), reasoning: reasoning.length > 0 ? reasoning : null };
}
