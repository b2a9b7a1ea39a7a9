/**
 * A TypeScript port of A-Mem (agiresearch/A-mem, agentic_memory/memory_system.py, commit
 * ceffb86): note construction (keywords, context, tags), link generation and memory evolution.
 */
import type { ModelClient } from "../../models/model_client.ts";
import { chatJson } from "../chat_json.ts";
import type { Embedder } from "../embeddings.ts";
import type { ManagementMode, MemorySystem, MemorySystemFactory } from "../memory_system.ts";
import { VectorIndex } from "../vector_index.ts";

/** The upstream variant and commit the port follows, written into rows. */
export const AMEM_UPSTREAM =
  "agiresearch/A-mem@ceffb860f0712bbae97b184d440df62bc910ca8d (agentic_memory/memory_system.py)";

/** One A-Mem note. */
export interface AmemNote {
  id: string;
  content: string;
  keywords: string[];
  context: string;
  tags: string[];
  links: string[];
}

function _strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

// Upstream embeds note content; the port embeds content with its keywords, tags and context as
// the A-Mem paper describes, so that evolution (which rewrites neighbours' context and tags)
// changes what retrieval finds.
function _embedText(n: AmemNote): string {
  return [n.content, n.keywords.join(" "), n.tags.join(" "), n.context].join("\n");
}

/**
 * An A-Mem factory. Every write builds a note (the model's keywords, context and tags), then
 * evolution asks the model about the new note and its five nearest neighbours: "strengthen"
 * links the note to neighbours and replaces its tags, "update_neighbor" rewrites the neighbours'
 * context and tags. M1 = with evolution; M0 = note construction only (no links, no evolution).
 * Background records become notes without model calls. Records show the note's content; the kit's
 * provenance follows content, so evolution (context and tags only) changes no provenance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { amemSystem } from "./amem_system.ts";
 * // Background records become notes without a model call; a toy embedder counts words.
 * const embedder = { model: "words", embed: (texts: readonly string[]) => Promise.resolve(texts.map((t) => [t.split(" ").length, 1])) };
 * const memory = await amemSystem({ client: {} as never, embedder })({ scope: "ann", management: "M0" });
 * await memory.write({ units: [{ id: "u1", text: "Ann's dog is called Rex.", channel: "user" }], background: true });
 * assert.deepEqual(await memory.list(), [{ id: "ann-n0", text: "Ann's dog is called Rex." }]);
 * await memory.close();
 * ```
 */
export function amemSystem(options: {
  /** Model client for note construction and evolution. */
  client: ModelClient;
  /** Embedder for retrieval. */
  embedder: Embedder;
  /** Neighbours considered by evolution; default 5 (upstream's k). */
  neighbours?: number;
}): MemorySystemFactory {
  return ({ scope, management }) => {
    const index = new VectorIndex({ embedder: options.embedder });
    const notes = new Map<string, AmemNote>();
    let mode: ManagementMode = management;
    let next = 0;
    const put = (n: AmemNote) => {
      notes.set(n.id, n);
      return index.put({ id: n.id, text: n.content, embedText: _embedText(n) });
    };
    const analyze = async (content: string) => {
      const json = await chatJson({
        client: options.client,
        label: "amem analyze",
        prompt: `Generate a structured analysis of the following content by:
1. identifying the most salient keywords (nouns, verbs, key concepts; not speaker names or times; at least three),
2. extracting the core theme and context in one sentence,
3. creating broad categorical tags (domain, format, type; at least three).
Reply with a JSON object {"keywords": [...], "context": "...", "tags": [...]}.

Content for analysis:
${content}`,
      });
      return {
        keywords: _strings(json.keywords),
        context: typeof json.context === "string" ? json.context : "General",
        tags: _strings(json.tags),
      };
    };
    const evolve = async (note: AmemNote) => {
      const neighbours = (await index.search({
        query: note.content,
        k: options.neighbours ?? 5,
      })).map((r) => notes.get(r.id)!).filter((n) => n !== undefined);
      if (neighbours.length === 0) return;
      const listing = neighbours.map((n, i) =>
        `memory index:${i}\tcontent: ${n.content}\tcontext: ${n.context}\tkeywords: ${
          JSON.stringify(n.keywords)
        }\ttags: ${JSON.stringify(n.tags)}`
      ).join("\n");
      const json = await chatJson({
        client: options.client,
        label: "amem evolution",
        prompt:
          `You are an AI memory evolution agent managing a knowledge base. Analyse the new memory note with its nearest neighbour memories and decide on its evolution.

The new memory context: ${note.context}
content: ${note.content}
keywords: ${JSON.stringify(note.keywords)}

The nearest neighbour memories:
${listing}

Decide: 1. should this memory evolve? 2. which actions: "strengthen" (connect it to neighbours, by memory index, and give its updated tags) and/or "update_neighbor" (new context and tags for each neighbour, in the order given; unchanged ones repeated as they are).
The number of neighbors is ${neighbours.length}.
Reply with a JSON object {"should_evolve": bool, "actions": [...], "suggested_connections": [...], "tags_to_update": [...], "new_context_neighborhood": [...], "new_tags_neighborhood": [[...], ...]}.`,
      });
      if (json.should_evolve !== true) return;
      const actions = _strings(json.actions);
      if (actions.includes("strengthen")) {
        for (const c of _strings(json.suggested_connections)) {
          const target = neighbours[Number(c)] ?? notes.get(c);
          if (target) note.links.push(target.id);
        }
        const tags = _strings(json.tags_to_update);
        if (tags.length > 0) note.tags = tags;
      }
      if (actions.includes("update_neighbor")) {
        const contexts = _strings(json.new_context_neighborhood);
        const tags = Array.isArray(json.new_tags_neighborhood) ? json.new_tags_neighborhood : [];
        for (let i = 0; i < neighbours.length && i < tags.length; i++) {
          const n = neighbours[i];
          await put({ ...n, tags: _strings(tags[i]), context: contexts[i] ?? n.context });
        }
      }
    };
    const system: MemorySystem = {
      system: "A-MEM",
      version: `${AMEM_UPSTREAM} (TypeScript port)`,
      get management() {
        return mode;
      },
      setManagement(m) {
        mode = m;
        return Promise.resolve();
      },
      async write({ units, background }) {
        for (const u of units) {
          const content = u.text;
          const meta = background
            ? { keywords: [], context: "General", tags: [] }
            : await analyze(content);
          const note: AmemNote = { id: `${scope}-n${next++}`, content, links: [], ...meta };
          if (!background && mode === "M1" && notes.size > 0) await evolve(note);
          await put(note);
        }
        return { touched: [] };
      },
      list: () => Promise.resolve(index.list()),
      search: async ({ query, k }) =>
        (await index.search({ query, k })).map(({ id, text }) => ({ id, text })),
      close: () => Promise.resolve(),
    };
    return Promise.resolve(system);
  };
}
