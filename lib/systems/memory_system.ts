/**
 * The adapter interface every existing memory system sits behind. One session holds one
 * instance, attack and trial: writing runs once, and M0 (native management off) and M1 (on) are
 * applied from that same pre-management state.
 */
import type { Channel } from "../schema/source_unit.ts";
import type { ManagementMode } from "../schema/system_row.ts";
import type { SystemPort } from "./system_port.ts";

export type { ManagementMode } from "../schema/system_row.ts";

/** One source unit handed to a system, with the channel it came from. */
export interface WriteUnit {
  id: string;
  text: string;
  channel: Channel;
}

/**
 * A record as a mode of the system holds it, with the source units it traces to. `storeId` is
 * the system's own id (random in some systems: rows never show it); `unitIds` come from the
 * system's own lineage where it keeps one (Hindsight's `source_memory_ids`, the ports' notes)
 * or from the kit's ledger (Mem0). `linked` are records the system's search appends to this
 * hit (A-MEM's link expansion), best first.
 */
export interface TracedRecord {
  storeId: string;
  text: string;
  unitIds: string[];
  linked?: TracedRecord[];
}

/** Options of {@link MemorySystem.open}. */
export interface OpenSessionOptions {
  /** A scope unique to this run, instance, attack and trial (bank id, user id). */
  scope: string;
  /** Modes the session must serve (rows are made for these). */
  modes: readonly ManagementMode[];
  /** Run seed, sent with the system's model calls. */
  seed: number;
  /** Independent repeat index: the cache slot of the system's model calls. */
  trial: number;
  /** Date the interaction took place (YYYY-MM-DD), for systems whose prompts carry a date. */
  sessionDate: string;
  /**
   * A hash of everything the session will be asked (units, queries, K): systems that cannot
   * cache per call (a server) can keep the whole session's answers under it.
   */
  fingerprint: string;
}

/**
 * What a session learnt about the system it ran on, for its rows (a server's version and
 * models); a field left out keeps the system's own value.
 */
export interface SessionDescription {
  systemVersion?: string;
  systemModel?: string | null;
  embeddingModel?: string | null;
}

/** One memory of a system for one instance, attack and trial, serving M0 and M1. */
export interface SystemSession {
  /**
   * Write one unit. `background`: store as given, skipping the system's LLM extraction where
   * the system offers a raw insert (background bank records are not measured).
   */
  write(input: { unit: WriteUnit; background: boolean }): Promise<void>;
  /** Every live record of a mode. */
  records(input: { mode: ManagementMode }): Promise<TracedRecord[]>;
  /** The system's own top-K for a query in a mode, best first. */
  search(input: { mode: ManagementMode; query: string; k: number }): Promise<TracedRecord[]>;
  /**
   * What writing produced for each non-background unit as this mode received it (extracted
   * facts, notes), as canonical JSON by unit id: equal across modes when both start from the
   * same pre-management state.
   */
  received(input: { mode: ManagementMode }): ReadonlyMap<string, string>;
  /**
   * After writing and retrieval: what the rows should say about the system beyond its static
   * fields (Hindsight: the server's version and models); default nothing.
   */
  describe?(): Promise<SessionDescription>;
  /** Release resources. */
  close(): Promise<void>;
}

/**
 * An existing memory system behind one interface.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MemorySystem, TracedRecord } from "./memory_system.ts";
 * const records: TracedRecord[] = [];
 * const echo: MemorySystem = {
 *   name: "echo", system: "Echo", version: "0", chatModel: null, embeddingModel: null,
 *   open: () => Promise.resolve({
 *     write({ unit }) { records.push({ storeId: unit.id, text: unit.text, unitIds: [unit.id] }); return Promise.resolve(); },
 *     records: () => Promise.resolve([...records]),
 *     search: ({ k }) => Promise.resolve(records.slice(0, k)),
 *     received: () => new Map(),
 *     close: () => Promise.resolve(),
 *   }),
 * };
 * assert.equal(echo.name, "echo");
 * ```
 */
export interface MemorySystem {
  /** Registry name (`--system`). */
  readonly name: string;
  /** Display name as in the paper's tables: Mem0, LangMem, A-MEM, Hindsight. */
  readonly system: string;
  /** Library version or upstream repository and commit, written into every row. */
  readonly version: string;
  /** The chat model the system calls through the kit; null when it calls none. */
  readonly chatModel: string | null;
  /** The embedding model the system calls through the kit; null when it calls none. */
  readonly embeddingModel: string | null;
  /** The port the system's model calls go through (its usage is the run's plan); if any. */
  readonly port?: SystemPort;
  /** Open one empty session. */
  open(options: OpenSessionOptions): Promise<SystemSession>;
}
