/**
 * How each pinned mem0 reads its model's replies, so the adapters can refuse a reply mem0 cannot
 * read. mem0 catches its own parse failures and carries on with nothing extracted (logging the
 * reply), which would turn an unreadable reply into a memory that holds nothing; the adapters
 * check first, with mem0's own reading, and make the call fail (not cached, an error row).
 * The readers below are mem0's: `removeCodeBlocks`, `extractJson` and the zod schemas of
 * mem0ai@2.4.6 (`dist/oss/index.mjs`, `FactRetrievalSchema`, `addToVectorStore`) and
 * mem0ai@3.3.1 (`AdditiveExtractionSchema`, `extractJson`, `_addToVectorStore`).
 */

/** mem0's `removeCodeBlocks` (same in 2.4.6 and 3.3.1). */
function _removeCodeBlocks(text: string): string {
  const stripped = text.replace(/```(?:\w+)?\n?([\s\S]*?)(?:```|$)/g, "$1").trim();
  return stripped.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
}

/** mem0ai@2.4.6 `extractJson`: first `{` to last `}`, else first `[` to last `]`. */
function _extractJson246(text: string): string {
  const trimmed = _removeCodeBlocks(text).trim();
  const firstBrace = trimmed.indexOf("{"), lastBrace = trimmed.lastIndexOf("}");
  if (firstBrace !== -1 && lastBrace > firstBrace) {
    return trimmed.substring(firstBrace, lastBrace + 1);
  }
  const firstBracket = trimmed.indexOf("["), lastBracket = trimmed.lastIndexOf("]");
  if (firstBracket !== -1 && lastBracket > firstBracket) {
    return trimmed.substring(firstBracket, lastBracket + 1);
  }
  return trimmed;
}

/** The first balanced `open`..`close` span of `text` that parses, as mem0ai@3.3.1 scans. */
function _balanced(text: string, open: string, close: string): string | null {
  for (let start = text.indexOf(open); start !== -1; start = text.indexOf(open, start + 1)) {
    let depth = 0, inString = false, escapeNext = false;
    for (let i = start; i < text.length; i++) {
      const char = text[i];
      if (escapeNext) {
        escapeNext = false;
        continue;
      }
      if (char === "\\") {
        escapeNext = true;
        continue;
      }
      if (char === '"') {
        inString = !inString;
        continue;
      }
      if (inString) continue;
      if (char === open) depth++;
      else if (char === close && --depth === 0) {
        const candidate = text.substring(start, i + 1);
        try {
          JSON.parse(candidate);
          return candidate;
        } catch {
          break;
        }
      }
    }
  }
  return null;
}

/** mem0ai@3.3.1 `extractJson`: special tokens and code blocks out, then the first JSON span. */
function _extractJson331(text: string): string {
  const cleaned = _removeCodeBlocks(
    text.replace(/<\|end_of_text\|>|<\|eot_id\|>|<\|im_end\|>|<\|im_start\|>|<\|endoftext\|>/g, ""),
  );
  const trimmed = cleaned.trim();
  if (!trimmed) return "";
  const spans: [string, string][] = [["{", "}"], ["[", "]"]];
  for (const [open, close] of spans) {
    const found = _balanced(trimmed, open, close);
    if (found !== null) return found;
    const first = trimmed.indexOf(open), last = trimmed.lastIndexOf(close);
    if (first !== -1 && last > first) {
      const candidate = trimmed.substring(first, last + 1);
      try {
        JSON.parse(candidate);
        return candidate;
      } catch { /* next */ }
    }
  }
  return trimmed;
}

const _isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A TypeError naming the system, the call and the start of the reply. */
function _unreadable(system: string, call: string, reply: string, why: string): TypeError {
  return new TypeError(
    `${system}: the model's ${call} reply is not readable (${why}), got ${
      JSON.stringify(reply.slice(0, 120))
    }`,
  );
}

/**
 * The facts mem0ai@2.4.6 reads from a fact-extraction reply
 * (`FactRetrievalSchema.parse(JSON.parse(extractJson(reply)))`: a `facts` list whose items are
 * strings, `{fact}` or `{text}`, empty ones dropped); a TypeError where mem0 would log the
 * reply and extract nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFacts246 } from "./_mem0_replies.ts";
 * const fence = "`".repeat(3);
 * assert.deepEqual(readFacts246(`Sure:\n${fence}json\n{"facts": ["Likes tea", {"fact": "Has a cat"}]}\n${fence}`),
 *   ["Likes tea", "Has a cat"]);
 * assert.deepEqual(readFacts246('{"facts": []}'), []);
 * assert.throws(() => readFacts246("I could not find any facts."), /mem0-classic: the model's fact-extraction reply is not readable/);
 * ```
 */
export function readFacts246(reply: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(_extractJson246(reply));
  } catch {
    throw _unreadable("mem0-classic", "fact-extraction", reply, "no JSON object");
  }
  const facts = _isObject(json) ? json.facts : undefined;
  if (!Array.isArray(facts)) {
    throw _unreadable("mem0-classic", "fact-extraction", reply, 'no "facts" list');
  }
  return facts.map((f) => {
    if (typeof f === "string") return f;
    if (_isObject(f) && typeof f.fact === "string") return f.fact;
    if (_isObject(f) && typeof f.text === "string") return f.text;
    throw _unreadable("mem0-classic", "fact-extraction", reply, "a fact that is not text");
  }).filter((s) => s.length > 0);
}

/**
 * The actions mem0ai@2.4.6 reads from an ADD/UPDATE/DELETE/NONE decision reply
 * (`JSON.parse(extractJson(reply)).memory`); a TypeError where mem0 would log the reply and
 * apply nothing (no JSON, or no `memory` list).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDecision246 } from "./_mem0_replies.ts";
 * assert.equal(readDecision246('{"memory": [{"id": "0", "text": "x", "event": "ADD"}]}').length, 1);
 * assert.throws(() => readDecision246("ADD it"), /decision reply is not readable/);
 * ```
 */
export function readDecision246(reply: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(_extractJson246(reply));
  } catch {
    throw _unreadable("mem0-classic", "decision", reply, "no JSON object");
  }
  const memory = _isObject(json) ? json.memory : undefined;
  if (!Array.isArray(memory)) {
    throw _unreadable("mem0-classic", "decision", reply, 'no "memory" list');
  }
  return memory;
}

/**
 * The memories mem0ai@3.3.1 reads from an additive extraction reply
 * (`AdditiveExtractionSchema` over `extractJson(reply)`, else the fallback's `.memory`: a list of
 * `{id, text}`); a TypeError where mem0 would log the reply or read nothing (an empty reply, no
 * JSON, no `memory` list).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readMemories331 } from "./_mem0_replies.ts";
 * assert.deepEqual(readMemories331('<think>hm</think>{"memory": [{"id": "0", "text": "Likes tea"}]}'), ["Likes tea"]);
 * assert.throws(() => readMemories331(""), /mem0: the model's extraction reply is not readable \(empty\)/);
 * ```
 */
export function readMemories331(reply: string): string[] {
  const clean = _extractJson331(reply);
  if (!clean.trim()) throw _unreadable("mem0", "extraction", reply, "empty");
  let json: unknown;
  try {
    json = JSON.parse(clean);
  } catch {
    throw _unreadable("mem0", "extraction", reply, "no JSON object");
  }
  const memory = _isObject(json) ? json.memory : undefined;
  if (!Array.isArray(memory)) throw _unreadable("mem0", "extraction", reply, 'no "memory" list');
  return memory.map((m) => (_isObject(m) && typeof m.text === "string" ? m.text : "")).filter((
    t,
  ) => t.length > 0);
}
