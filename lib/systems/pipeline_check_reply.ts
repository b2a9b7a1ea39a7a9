/**
 * Scripted answers to the memory systems' own prompts, for pipeline checks against a local test
 * server: deterministic, no model. Results produced this way are pipeline checks, never system
 * measurements.
 */
import { tokenJaccard, tokenWords } from "../text/token_jaccard.ts";
import { jsonAfter } from "./mem0/_mem0_parts.ts";

/** The parts of a chat request body the script reads. */
export interface ScriptedChatBody {
  messages: { role: string; content: string }[];
}

// A "fact" worth keeping: at least six words (greetings and thanks are dropped).
function _isFact(line: string): boolean {
  return tokenWords(line).length >= 6;
}

function _clean(line: string): string {
  return line.replace(/^(user|assistant|tool): /, "").replace(/^\[tool output\]\s*/, "").trim();
}

function _between(text: string, open: string, close: string): string {
  const a = text.indexOf(open);
  if (a < 0) return "";
  const b = text.indexOf(close, a + open.length);
  return text.slice(a + open.length, b < 0 ? undefined : b);
}

/** langmem's `<instance id=ID schema_type="Memory">{'content': '...'}</instance>` blocks. */
function _instances(text: string): { id: string; content: string }[] {
  return [
    ...text.matchAll(
      /<instance id=(\S+) schema_type="Memory">\n\{'content': (['"])([\s\S]*?)\2\}\n<\/instance>/g,
    ),
  ]
    .map((m) => ({ id: m[1], content: m[3].replace(/\\(['"\\])/g, "$1").replace(/\\n/g, "\n") }));
}

/** langmem's conversation: the contents of `=== X Message ===` blocks in the session tag. */
function _conversation(text: string): string[] {
  const session = /<session_[^>]+>\n([\s\S]*?)\n<\/session_/.exec(text)?.[1] ?? "";
  return session.split(/^=+ (?:Human|Ai|Tool) Message =+\n\n/m).map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * Answer a memory system's prompt (mem0 3.x additive extraction, mem0 2.4.6 fact extraction and
 * update decision, the LangMem port's manager, the A-MEM port's note analysis and evolution), or
 * null when the prompt is none of those. A fact is a line of six or more words. Mem0: every fact
 * not already among the existing memories is extracted; the 2.4.6 decision updates a memory a
 * fact overlaps by token Jaccard >= 0.5 and adds the rest. LangMem: one Memory call per new
 * fact (a forced call with no fact stores the message itself); its consolidation phase patches
 * the older of two overlapping memories with the newer one's text and removes the newer (or
 * makes an empty patch when nothing overlaps). A-MEM: keywords are the message's long words;
 * evolution links the nearest neighbour and retags every neighbour.
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
  if (all.includes("You are a Memory Extractor") && all.includes("## New Messages\n")) {
    // The sections are in the user message (the system prompt describes them too).
    const user = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    const existing = ((jsonAfter(user, "## Existing Memories\n") ?? []) as { text: string }[])
      .map((e) => e.text);
    const input = _between(user, "## New Messages\n", "\n\n## Observation Date");
    const facts = input.split("\n").map(_clean).filter(_isFact).filter((f) =>
      !existing.includes(f)
    );
    return JSON.stringify({ memory: facts.map((text, i) => ({ id: String(i), text })) });
  }
  if (all.includes("Personal Information Organizer")) {
    const user = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    const input = user.slice(user.lastIndexOf("Input:") + "Input:".length);
    return JSON.stringify({ facts: input.split("\n").map(_clean).filter(_isFact) });
  }
  if (all.includes("smart memory manager")) {
    const old = (jsonAfter(
      all,
      "collected till now. You have to update it in the following format only:",
    ) ?? []) as { id: string; text: string }[];
    const facts =
      (jsonAfter(all, "should be added, updated, or deleted in the memory.") ?? []) as string[];
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
  if (all.includes("You are a memory subroutine for an AI.")) {
    const tools = [...all.matchAll(/"name": "(Memory|PatchDoc|RemoveDoc)"/g)].map((m) => m[1]);
    const forced = all.includes("You must call at least one tool.");
    const existing = _instances(all);
    if (tools.includes("Memory")) {
      const messages = _conversation(all);
      const facts = messages.flatMap((m) => m.split("\n")).map(_clean).filter(_isFact)
        .filter((f) => !existing.some((e) => e.content === f));
      const contents = facts.length > 0 || !forced ? facts : messages.slice(0, 1);
      return JSON.stringify({
        tool_calls: contents.map((content) => ({ name: "Memory", arguments: { content } })),
      });
    }
    const calls: unknown[] = [];
    const removed = new Set<string>();
    existing.forEach((newer, j) => {
      const older = existing.slice(0, j).find((o) =>
        !removed.has(o.id) && o.content !== newer.content &&
        tokenJaccard(o.content, newer.content) >= 0.5
      );
      if (!older || removed.has(newer.id)) return;
      calls.push({
        name: "PatchDoc",
        arguments: {
          json_doc_id: older.id,
          planned_edits: "replace the content with the newer statement",
          patches: [{ op: "replace", path: "/content", value: newer.content }],
        },
      });
      if (tools.includes("RemoveDoc")) {
        calls.push({ name: "RemoveDoc", arguments: { json_doc_id: newer.id } });
        removed.add(newer.id);
      }
    });
    if (calls.length === 0 && forced && existing.length > 0) {
      calls.push({
        name: "PatchDoc",
        arguments: { json_doc_id: existing[0].id, planned_edits: "nothing to change", patches: [] },
      });
    }
    return JSON.stringify({ tool_calls: calls });
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
    const first = /memory index:(\d+)/.exec(all)?.[1];
    return JSON.stringify({
      should_evolve: n > 0,
      actions: ["strengthen", "update_neighbor"],
      suggested_connections: first === undefined ? [] : [Number(first)],
      tags_to_update: ["linked"],
      new_context_neighborhood: Array(n).fill("Evolved context."),
      new_tags_neighborhood: Array(n).fill(["evolved"]),
    });
  }
  return null;
}
