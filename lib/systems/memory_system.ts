/** The adapter interface every existing memory system sits behind: write, list, search, manage. */
import type { Channel } from "../model/source_unit.ts";

/** Native management switch: M0 = the system's own management off, M1 = on. */
export type ManagementMode = "M0" | "M1";

/** One record as the system stores it; the kit keeps its provenance apart (`ProvenanceLedger`). */
export interface SystemRecord {
  id: string;
  text: string;
}

/** One source unit handed to a system, with the channel it came from. */
export interface WriteUnit {
  id: string;
  text: string;
  channel: Channel;
}

/** What a write reports: ids the system says it changed (the kit also diffs `list()`). */
export interface WriteResult {
  touched: string[];
}

/**
 * A memory system behind one interface. The kit feeds it one call per source unit, lists its
 * records after each call and keeps provenance itself: a system's metadata is never trusted
 * (Mem0's UPDATE overwrites it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MemorySystem } from "./memory_system.ts";
 * const records: { id: string; text: string }[] = [];
 * const echo: MemorySystem = {
 *   system: "echo", version: "0", management: "M0",
 *   setManagement: () => Promise.resolve(),
 *   write({ units }) { units.forEach((u) => records.push({ id: u.id, text: u.text })); return Promise.resolve({ touched: [] }); },
 *   list: () => Promise.resolve([...records]),
 *   search: ({ k }) => Promise.resolve(records.slice(0, k)),
 *   close: () => Promise.resolve(),
 * };
 * await echo.write({ units: [{ id: "u", text: "hi", channel: "user" }], background: false });
 * assert.deepEqual(await echo.search({ query: "hi", k: 1 }), [{ id: "u", text: "hi" }]);
 * ```
 */
export interface MemorySystem {
  /** Display name as in the paper's tables: Mem0, LangMem, A-MEM, Hindsight. */
  readonly system: string;
  /** Library version or upstream commit, written into every row. */
  readonly version: string;
  /** Current management mode. */
  readonly management: ManagementMode;
  /** Switch native management on (M1) or off (M0) for the following writes. */
  setManagement(mode: ManagementMode): Promise<void>;
  /**
   * Write units as one input. `background`: store as given, skipping the system's LLM
   * extraction where the system offers a raw insert (background bank records are not measured).
   */
  write(input: { units: WriteUnit[]; background: boolean }): Promise<WriteResult>;
  /** Every live record. */
  list(): Promise<SystemRecord[]>;
  /** The system's own top-K for a query, best first. */
  search(input: { query: string; k: number }): Promise<SystemRecord[]>;
  /** Release resources (servers keep their data; the kit uses a fresh scope per run). */
  close(): Promise<void>;
}

/** Options every system factory receives. */
export interface SystemFactoryOptions {
  /** A scope unique to one memory (bank id, user id). */
  scope: string;
  management: ManagementMode;
}

/** Builds one fresh, empty memory of a system. */
export type MemorySystemFactory = (options: SystemFactoryOptions) => Promise<MemorySystem>;

/** Where a system's own LLM and embedder calls go (any OpenAI-compatible endpoint). */
export interface SystemEndpoint {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  /** API key; sent as the Authorization header only, never written anywhere. */
  apiKey: string;
  /** Chat model the system uses for extraction and management. */
  model: string;
  /** Embedding model. */
  embeddingModel: string;
}
