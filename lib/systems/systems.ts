/**
 * The memory-system registry: the adapters the kit ships (Mem0, LangMem, A-MEM, Hindsight), then
 * any plugin's. An entry makes the system's factory from where its model calls go.
 */
import { createRegistry, type Registry } from "../model/registry.ts";
import type { MemorySystemFactory, SystemEndpoint } from "./memory_system.ts";
import { resolveSystem } from "./resolve_system.ts";

/** What a system entry is given to make its factory. */
export interface SystemContext {
  /** The system's model and embedding endpoint. */
  endpoint: SystemEndpoint;
  /** Hindsight server base URL (Hindsight only); default none. */
  hindsightUrl?: string;
  /** Hindsight API key; default none. */
  hindsightApiKey?: string;
}

/**
 * Every registered memory system by name (`deno task systems --system` reads it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SYSTEMS } from "./systems.ts";
 * assert.deepEqual(SYSTEMS.ids().slice(0, 4), ["mem0", "langmem", "amem", "hindsight"]);
 * ```
 */
export const SYSTEMS: Registry<(context: SystemContext) => MemorySystemFactory> = createRegistry({
  kind: "system",
});

// The built-ins; a new adapter is its own file, its test and one line here.
const _builtIn = (name: string) => (context: SystemContext) => resolveSystem({ name, ...context });
SYSTEMS.register({ id: "mem0", description: "Mem0 (mem0ai).", value: _builtIn("mem0") });
SYSTEMS.register({ id: "langmem", description: "LangMem.", value: _builtIn("langmem") });
SYSTEMS.register({ id: "amem", description: "A-MEM.", value: _builtIn("amem") });
SYSTEMS.register({
  id: "hindsight",
  description: "Hindsight (a server you run).",
  value: _builtIn("hindsight"),
});
