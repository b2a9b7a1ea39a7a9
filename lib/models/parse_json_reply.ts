/**
 * Tolerant parsing of a model's JSON reply: the one helper the LLM ranker, writer and judge use.
 * Real models fence JSON in ```json blocks, put a sentence before or after it, or (reasoning
 * models) think first; the reply is read as the first JSON value in it that the schema accepts.
 */
import type { z } from "zod";
import { splitReasoning } from "../text/reasoning.ts";

/** End of the JSON value starting at `start` (a `{` or `[`), or -1 when it is not closed. */
function _valueEnd(text: string, start: number): number {
  let depth = 0, inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Candidate JSON texts in reading order: the whole reply, fenced blocks, then embedded values. */
function* _candidates(text: string): Generator<string> {
  yield text.trim();
  for (const m of text.matchAll(/```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) yield m[1].trim();
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "{" && text[i] !== "[") continue;
    const end = _valueEnd(text, i);
    if (end !== -1) yield text.slice(i, end);
  }
}

/**
 * The first JSON value in `text` that `schema` accepts: the whole text, the inside of a code
 * fence, or a `{...}`/`[...]` embedded in prose, in that order; reasoning blocks are dropped
 * first. Throws a TypeError naming `label`, the schema's first complaint about the best
 * candidate and the start of the reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { parseJsonReply } from "./parse_json_reply.ts";
 * const schema = z.object({ score: z.boolean() });
 * assert.deepEqual(parseJsonReply({ text: '{"score": true}', schema, label: "judge" }), { score: true });
 * const fence = "`".repeat(3);
 * assert.deepEqual(parseJsonReply({ text: `Sure.\n${fence}json\n{"score": false}\n${fence}`, schema, label: "judge" }), { score: false });
 * assert.deepEqual(parseJsonReply({ text: '<think>{"score": 1}?</think>Verdict: {"score": true}.', schema, label: "judge" }), { score: true });
 * assert.throws(() => parseJsonReply({ text: "no idea", schema, label: "judge" }), /judge: no JSON value in the reply/);
 * ```
 */
export function parseJsonReply<T>(options: {
  /** The reply text (reasoning blocks are removed here too). */
  text: string;
  /** The shape the value must have. */
  schema: z.ZodType<T>;
  /** Who parses, for the error message (e.g. `ranker llm:gpt-5.4`). */
  label: string;
}): T {
  const { answer } = splitReasoning(options.text);
  let complaint: string | undefined;
  const seen = new Set<string>();
  for (const candidate of _candidates(answer)) {
    if (candidate === "" || seen.has(candidate)) continue;
    seen.add(candidate);
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = options.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    if (complaint === undefined) {
      const issue = parsed.error.issues[0];
      complaint = `${issue.path.length ? issue.path.join(".") : "(value)"}: ${issue.message}`;
    }
  }
  throw new TypeError(
    `${options.label}: ${
      complaint === undefined
        ? "no JSON value in the reply"
        : `no JSON value in the reply has the expected shape (${complaint})`
    }, got ${JSON.stringify(answer.slice(0, 120))}`,
  );
}
