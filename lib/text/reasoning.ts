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

/** Delimiter families: `<think>`-style tags, Kimi's `◁think▷`, Mistral's `[THINK]`. */
const FAMILIES = [
  {
    open: "<(?:think|thinking|reasoning|thought|seed:think)>",
    close: "<\\/(?:think|thinking|reasoning|thought|seed:think)>",
  },
  { open: "◁think▷", close: "◁\\/think▷" },
  { open: "\\[THINK\\]", close: "\\[\\/THINK\\]" },
].map(({ open, close }) => ({
  block: new RegExp(`${open}([\\s\\S]*?)${close}`, "gi"),
  open: new RegExp(open, "i"),
  close: new RegExp(close, "i"),
}));

// gpt-oss "harmony" channels, when a server passes them through unparsed.
const HARMONY_FINAL = /<\|channel\|>final<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/;
const HARMONY_ANALYSIS = /<\|channel\|>analysis<\|message\|>([\s\S]*?)(?:<\|end\|>|<\|start\|>|$)/g;

/**
 * Split a reply into answer and reasoning. Recognises `<think>` (also `<thinking>`,
 * `<reasoning>`, `<thought>`, `<seed:think>`), `◁think▷` and `[THINK]` blocks anywhere in the
 * reply, and gpt-oss analysis/final channels; a closing tag with no opening one (servers that
 * strip the opening tag) makes everything before it reasoning; an opening tag that is never
 * closed (a reply cut off while thinking) makes everything after it reasoning.
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
  let rest = reply;
  const final = HARMONY_FINAL.exec(rest);
  if (final) {
    for (const m of rest.matchAll(HARMONY_ANALYSIS)) parts.push(m[1].trim());
    rest = final[1];
  }
  for (const family of FAMILIES) {
    rest = rest.replace(family.block, (_, body: string) => {
      parts.push(body.trim());
      return "\n";
    });
    const close = family.close.exec(rest);
    if (close && !family.open.test(rest.slice(0, close.index))) {
      parts.unshift(rest.slice(0, close.index).trim());
      rest = rest.slice(close.index + close[0].length);
    }
    const open = family.open.exec(rest);
    if (open) {
      parts.push(rest.slice(open.index + open[0].length).trim());
      rest = rest.slice(0, open.index);
    }
  }
  const reasoning = parts.filter((p) => p.length > 0).join("\n\n");
  return { answer: rest.trim(), reasoning: reasoning.length > 0 ? reasoning : null };
}
