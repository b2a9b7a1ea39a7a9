/**
 * A TypeScript port of A-MEM as its authors ran it for the NeurIPS paper: WujiangXu/A-mem,
 * `memory_layer.py` at commit 0c8039f (note construction, memory evolution, embedding
 * retrieval, link expansion). Prompts are quoted from that commit (`upstream_prompts.json`).
 */
import prompts from "./upstream_prompts.json" with { type: "json" };
import { cosine } from "../cosine.ts";
import { pyFormat, pyRepr } from "../_python_repr.ts";
import type {
  ManagementMode,
  MemorySystem,
  OpenSessionOptions,
  SystemSession,
  TracedRecord,
} from "../memory_system.ts";
import type { CallPhase, SystemCalls, SystemPort } from "../system_port.ts";

/** The upstream repository and commit the port follows, written into rows. */
export const AMEM_UPSTREAM = "WujiangXu/A-mem@0c8039f (memory_layer.py, TypeScript port)";

/** One note, as upstream's `MemoryNote` keeps it. */
export interface AmemNote {
  id: string;
  /**
   * The source units the note carries (the kit's provenance): the unit it was written from,
   * then each unit whose evolution rewrote its context or tags (`update_neighbor`).
   */
  unitIds: string[];
  content: string;
  keywords: string[];
  context: string;
  tags: string[];
  /** Positions of linked notes (upstream stores the neighbour indices the model names). */
  links: number[];
  timestamp: string;
}

const _strings = (v: unknown): string[] => Array.isArray(v) ? v.map(String) : [];

/** The document upstream's `add_note` embeds. */
function _addDoc(n: AmemNote): string {
  return "content:" + n.content + " context:" + n.context + " keywords: " +
    n.keywords.join(", ") + " tags: " + n.tags.join(", ");
}

/** The document upstream's `consolidate_memories` re-embeds. */
function _consolidatedDoc(n: AmemNote): string {
  return n.content + " , " + `${n.context} ${n.keywords.join(" ")} ${n.tags.join(" ")}`;
}

/** One note as `find_related_memories_raw` prints it (what the agent reads). */
function _rawLine(n: AmemNote): string {
  return "talk start time:" + n.timestamp + "memory content: " + n.content +
    "memory context: " + n.context + "memory keywords: " + pyRepr(n.keywords) +
    "memory tags: " + pyRepr(n.tags);
}

/** One mode's memory: notes and the retriever's documents, both in insertion order. */
class _Memory {
  notes: AmemNote[] = [];
  vectors: number[][] = [];
  evoCount = 0;
  /** `addPhase`: whose cost the documents are (M0's are the pre-management state, writing). */
  constructor(
    readonly calls: SystemCalls,
    readonly phase: CallPhase,
    readonly addPhase: CallPhase,
  ) {}

  /** Upstream `SimpleEmbeddingRetriever.search`: `np.argsort(sims)[-k:][::-1]`. */
  async nearest(query: string, k: number): Promise<number[]> {
    if (this.notes.length === 0) return [];
    const [q] = await this.calls.embed({ texts: [query], phase: this.phase });
    const sims = this.vectors.map((v) => cosine(q, v));
    // A stable ascending sort reversed puts the later of two equal scores first, as argsort does.
    const order = sims.map((_, i) => i).sort((a, b) => sims[a] - sims[b]);
    return order.slice(-k).reverse();
  }

  async add(note: AmemNote): Promise<void> {
    this.notes.push(note);
    const [v] = await this.calls.embed({ texts: [_addDoc(note)], phase: this.addPhase });
    this.vectors.push(v);
  }

  async consolidate(): Promise<void> {
    this.vectors = await this.calls.embed({
      texts: this.notes.map(_consolidatedDoc),
      phase: this.phase,
    });
  }
}

function _parse(text: string): Record<string, unknown> | null {
  // Upstream strips a ```json fence (analysis) or cuts to the outer braces (evolution).
  const cleaned = text.replace(/^```json\s*|\s*```$/gm, "").trim();
  const start = cleaned.indexOf("{"), end = cleaned.lastIndexOf("}");
  try {
    const v = JSON.parse(start >= 0 && end > start ? cleaned.slice(start, end + 1) : cleaned);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

const _isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");

function _unreadable(call: string, reply: string, why: string): TypeError {
  return new TypeError(
    `amem: the model's ${call} reply is not readable (${why}), got ${
      JSON.stringify(reply.slice(0, 120))
    }`,
  );
}

/**
 * The note metadata of an `analyze_content` reply: the JSON object its schema asks for
 * (`keywords`, `context`, `tags`). Upstream prints a reply it cannot parse and goes on with
 * empty metadata; the port refuses it (the call fails, nothing is cached, the task's rows are
 * error rows), so an unreadable reply never reads as a note without keywords.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAnalysis } from "./amem_system.ts";
 * assert.deepEqual(readAnalysis('{"keywords": ["tea"], "context": "Drinks.", "tags": ["food"]}'),
 *   { keywords: ["tea"], context: "Drinks.", tags: ["food"] });
 * assert.throws(() => readAnalysis("Tea is nice."), /amem: the model's analysis reply is not readable/);
 * ```
 */
export function readAnalysis(
  reply: string,
): { keywords: string[]; context: string; tags: string[] } {
  const json = _parse(reply);
  if (!json) throw _unreadable("analysis", reply, "no JSON object");
  if (!_isStrings(json.keywords) || !_isStrings(json.tags) || typeof json.context !== "string") {
    throw _unreadable("analysis", reply, "expected keywords, context and tags");
  }
  return {
    keywords: json.keywords as string[],
    context: json.context || "General",
    tags: json.tags as string[],
  };
}

/**
 * The decision of a `process_memory` (evolution) reply: a JSON object with a boolean
 * `should_evolve`, and `actions` when it is true (upstream reads both by key). Upstream goes on
 * without evolving when the reply is not JSON; the port refuses it, as {@link readAnalysis}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readEvolution } from "./amem_system.ts";
 * assert.equal(readEvolution('{"should_evolve": false, "actions": []}').should_evolve, false);
 * assert.throws(() => readEvolution("Yes, evolve."), /amem: the model's evolution reply is not readable/);
 * ```
 */
export function readEvolution(reply: string): Record<string, unknown> {
  const json = _parse(reply);
  if (!json) throw _unreadable("evolution", reply, "no JSON object");
  if (typeof json.should_evolve !== "boolean") {
    throw _unreadable("evolution", reply, "no boolean should_evolve");
  }
  if (json.should_evolve && !Array.isArray(json.actions)) {
    throw _unreadable("evolution", reply, "should_evolve without an actions list");
  }
  return json;
}

/**
 * An A-MEM system. Writing (once per unit): upstream's note construction, one `analyze_content`
 * call (keywords, context, tags). M0 adds the note as it is; M1 first runs upstream's
 * `process_memory` (memory evolution) against its five nearest notes: "strengthen" links the
 * note to neighbours and replaces its tags, "update_neighbor" rewrites the neighbours' context
 * and tags; every 100 evolutions the retriever re-embeds all notes (`consolidate_memories`).
 * Search is upstream's `find_related_memories_raw`: the top K notes by cosine similarity of the
 * embedded documents, each followed by the notes it links to (link expansion). Background
 * records become notes without model calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { amemSystem } from "./amem_system.ts";
 * import { SystemPort } from "../system_port.ts";
 * const system = amemSystem({ port: new SystemPort({ chat: null, embedder: null }) });
 * assert.equal(system.system, "A-MEM");
 * ```
 */
export function amemSystem(options: {
  /** The system's chat model and embedder. */
  port: SystemPort;
  /** Neighbours considered by evolution; default 5 (upstream's `k`). */
  neighbours?: number;
  /** Evolutions between re-embeddings; default 100 (upstream's `evo_threshold`). */
  evolutionThreshold?: number;
}): MemorySystem {
  const { port } = options;
  return {
    name: "amem",
    system: "A-MEM",
    version: AMEM_UPSTREAM,
    chatModel: port.chatModel,
    embeddingModel: port.embeddingModel,
    port,
    open: (open) => Promise.resolve(_session(open, options)),
  };
}

function _session(
  open: OpenSessionOptions,
  options: { port: SystemPort; neighbours?: number; evolutionThreshold?: number },
): SystemSession {
  const calls = options.port.bind({ seed: open.seed, trial: open.trial });
  const k = options.neighbours ?? 5;
  const threshold = options.evolutionThreshold ?? 100;
  const memories = new Map<ManagementMode, _Memory>(
    open.modes.map((m) => [m, new _Memory(calls, m, m === "M0" ? "writing" : m)]),
  );
  const received = new Map<ManagementMode, Map<string, string>>(
    open.modes.map((m) => [m, new Map()]),
  );
  const timestamp = open.sessionDate.replaceAll("-", "") + "0000";
  let next = 0;

  const analyze = async (content: string) => {
    const reply = await calls.chat({
      messages: [
        { role: "system", content: prompts.system },
        { role: "user", content: prompts.analyze + content },
      ],
      responseFormat: prompts.analyzeResponseFormat,
      maxTokens: 1000,
      // Not cached and an error row when unreadable (upstream would go on with no metadata).
      validate: (content) => void readAnalysis(content),
      phase: "writing",
    });
    return readAnalysis(reply);
  };

  // Upstream `process_memory`: returns whether the note evolved; mutates note and neighbours.
  const evolve = async (memory: _Memory, note: AmemNote): Promise<boolean> => {
    const indices = await memory.nearest(note.content, k);
    const listing = indices.map((i) => {
      const n = memory.notes[i];
      return "memory index:" + i + "\t talk start time:" + n.timestamp + "\t memory content: " +
        n.content + "\t memory context: " + n.context + "\t memory keywords: " +
        pyRepr(n.keywords) + "\t memory tags: " + pyRepr(n.tags) + "\n";
    }).join("");
    const reply = await calls.chat({
      messages: [
        { role: "system", content: prompts.system },
        {
          role: "user",
          content: pyFormat(prompts.evolution, {
            context: note.context,
            content: note.content,
            keywords: note.keywords,
            nearest_neighbors_memories: listing,
            neighbor_number: String(indices.length),
          }),
        },
      ],
      responseFormat: prompts.evolutionResponseFormat,
      maxTokens: 1000,
      validate: (content) => void readEvolution(content),
      phase: "M1",
    });
    const json = readEvolution(reply);
    if (json.should_evolve !== true) return false;
    for (const action of _strings(json.actions)) {
      if (action === "strengthen") {
        const links = Array.isArray(json.suggested_connections) ? json.suggested_connections : [];
        note.links.push(...links.map(Number).filter((i) => Number.isInteger(i)));
        note.tags = _strings(json.tags_to_update);
      } else if (action === "update_neighbor") {
        const contexts = _strings(json.new_context_neighborhood);
        const tags = Array.isArray(json.new_tags_neighborhood) ? json.new_tags_neighborhood : [];
        for (let i = 0; i < Math.min(indices.length, tags.length); i++) {
          const n = memory.notes[indices[i]];
          const before = JSON.stringify([n.tags, n.context]);
          n.tags = _strings(tags[i]);
          n.context = i < contexts.length ? contexts[i] : n.context;
          // The model wrote the neighbour's new context and tags after reading this note, so the
          // neighbour now carries this note's unit too (risk text can spread this way).
          if (JSON.stringify([n.tags, n.context]) !== before) {
            for (const u of note.unitIds) if (!n.unitIds.includes(u)) n.unitIds.push(u);
          }
        }
      }
    }
    return true;
  };

  const traced = (n: AmemNote): TracedRecord => ({
    storeId: n.id,
    text: _rawLine(n),
    unitIds: [...n.unitIds],
  });

  return {
    async write({ unit, background }) {
      const id = `${open.scope}-n${next++}`;
      const meta = background
        ? { keywords: [], context: "General", tags: [] }
        : await analyze(unit.text);
      for (const [mode, memory] of memories) {
        const note: AmemNote = {
          id,
          unitIds: [unit.id],
          content: unit.text,
          ...structuredClone(meta),
          links: [],
          timestamp,
        };
        if (!background) {
          received.get(mode)!.set(unit.id, JSON.stringify({ content: note.content, ...meta }));
        }
        if (!background && mode === "M1" && await evolve(memory, note)) {
          memory.evoCount++;
          await memory.add(note);
          if (memory.evoCount % threshold === 0) await memory.consolidate();
        } else await memory.add(note);
      }
    },
    records: ({ mode }) => Promise.resolve(memories.get(mode)!.notes.map(traced)),
    async search({ mode, query, k: budget }) {
      const memory = memories.get(mode)!;
      return (await memory.nearest(query, budget)).map((i) => {
        const hit = memory.notes[i];
        // Upstream appends linked notes and stops after the (k+1)-th.
        const linked = hit.links.filter((j) => j >= 0 && j < memory.notes.length)
          .slice(0, budget + 1).map((j) => traced(memory.notes[j]));
        return { ...traced(hit), linked };
      });
    },
    received: ({ mode }) => received.get(mode)!,
    close: () => Promise.resolve(),
  };
}
