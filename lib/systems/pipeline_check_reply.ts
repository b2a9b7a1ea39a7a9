/**
 * Scripted answers to the memory systems' own prompts, for pipeline checks against a local test
 * server: deterministic, no model. Results produced this way are pipeline checks, never system
 * measurements.
 */
import { tokenJaccard, tokenWords } from "../text/token_jaccard.ts";

/** The parts of a chat request body the script reads. */
export interface ScriptedChatBody {
  messages: { role: string; content: string }[];
}

// A "fact" worth keeping: at least six words (greetings and thanks are dropped).
function _isFact(line: string): boolean {
  return tokenWords(line).length >= 6;
}

function _clean(line: string): string {
  return line.replace(/^\[tool output\]\s*/, "").trim();
}

function _json(text: string, after: RegExp): unknown {
  const m = after.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length);
  const start = rest.search(/[[{]/);
  if (start < 0) return null;
  // Walk to the matching bracket so trailing prose is ignored.
  let depth = 0, inString = false;
  for (let i = start; i < rest.length; i++) {
    const c = rest[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (--depth === 0) return JSON.parse(rest.slice(start, i + 1));
    }
  }
  return null;
}

/**
 * Answer a memory system's prompt (Mem0 fact extraction and update decision, the LangMem port's
 * manager, the A-Mem port's note analysis and evolution), or null when the prompt is none of
 * those. Decisions: a fact is a line of six or more words; a fact whose words overlap an existing
 * memory's by Jaccard >= 0.5 updates (patches) it, an identical one changes nothing, any other is
 * added.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pipelineCheckReply } from "./pipeline_check_reply.ts";
 * const out = pipelineCheckReply({ messages: [
 *   { role: "system", content: "You are a Personal Information Organizer ..." },
 *   { role: "user", content: "Input:\nThe dentist appointment is on March 14, 2025.\nThanks!" },
 * ] });
 * assert.deepEqual(JSON.parse(out!), { facts: ["The dentist appointment is on March 14, 2025."] });
 * ```
 */
export function pipelineCheckReply(body: ScriptedChatBody): string | null {
  const all = body.messages.map((m) => m.content).join("\n");
  if (all.includes("Personal Information Organizer")) {
    const user = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    const input = user.slice(user.lastIndexOf("Input:") + "Input:".length);
    return JSON.stringify({ facts: input.split("\n").map(_clean).filter(_isFact) });
  }
  if (all.includes("smart memory manager")) {
    const old =
      (_json(all, /collected till now\. You have to update it in the following format only:/) ??
        []) as { id: string; text: string }[];
    const facts =
      (_json(all, /should be added, updated, or deleted in the memory\./) ?? []) as string[];
    const memory = facts.map((fact, i) => {
      const best = old.map((o) => ({ o, s: tokenJaccard(o.text, fact) })).sort((a, b) =>
        b.s - a.s
      )[0];
      if (best && best.o.text === fact) return { id: best.o.id, text: fact, event: "NONE" };
      if (best && best.s >= 0.5) {
        return { id: best.o.id, text: fact, event: "UPDATE", old_memory: best.o.text };
      }
      return { id: `n${i}`, text: fact, event: "ADD" };
    });
    return JSON.stringify({ memory });
  }
  if (all.includes("<langmem-existing>")) {
    const existing = (_json(all, /<langmem-existing>/) ?? []) as { id: string; content: string }[];
    const tools = /<langmem-tools>([^<]*)</.exec(all)?.[1].split(",") ?? ["insert"];
    const input = /<langmem-input>([\s\S]*?)<\/langmem-input>/.exec(all)?.[1] ?? "";
    const actions = input.split("\n").map(_clean).filter(_isFact).map((content) => {
      const best = existing.map((e) => ({ e, s: tokenJaccard(e.content, content) }))
        .sort((a, b) => b.s - a.s)[0];
      if (best && best.e.content === content) return null;
      if (tools.includes("patch") && best && best.s >= 0.5) {
        return { tool: "patch", id: best.e.id, content };
      }
      return { tool: "insert", content };
    }).filter((a) => a !== null);
    return JSON.stringify({ actions });
  }
  if (all.includes("Generate a structured analysis")) {
    const content = all.slice(all.lastIndexOf("Content for analysis:") + 21);
    const keywords = [...new Set(tokenWords(content).filter((w) => w.length >= 5))].slice(0, 5);
    return JSON.stringify({
      keywords,
      context: `A note about ${keywords[0] ?? "nothing"}.`,
      tags: keywords.slice(0, 3),
    });
  }
  if (all.includes("memory evolution agent")) {
    const n = Number(/The number of neighbors is (\d+)/.exec(all)?.[1] ?? 0);
    return JSON.stringify({
      should_evolve: n > 0,
      actions: ["strengthen", "update_neighbor"],
      suggested_connections: [],
      tags_to_update: ["linked"],
      new_context_neighborhood: Array(n).fill("Evolved context."),
      new_tags_neighborhood: Array(n).fill(["evolved"]),
    });
  }
  return null;
}
