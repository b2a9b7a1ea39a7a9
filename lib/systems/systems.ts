/**
 * The memory-system registry: the adapters the kit ships (`SYSTEM_NAMES`), then any plugin's.
 * An entry makes the system from what `resolveSystem` is given besides the name (where the
 * system's model calls go).
 */
import { createRegistry, type Registry } from "../model/registry.ts";
import { resolveSystem, SYSTEM_NAMES } from "./resolve_system.ts";

/** What a system entry is given: `resolveSystem`'s options without the name. */
export type SystemContext = Omit<Parameters<typeof resolveSystem>[0], "name">;

/** What an entry makes: what `resolveSystem` returns. */
export type SystemMaker = (context: SystemContext) => ReturnType<typeof resolveSystem>;

const _DESCRIPTION: Record<string, string> = {
  mem0: "Mem0 (mem0ai), in process.",
  langmem: "LangMem, a TypeScript port.",
  amem: "A-MEM, a TypeScript port.",
  hindsight: "Hindsight, a server you run.",
};

/**
 * Every registered memory system by name (`deno task systems --system` reads it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SYSTEM_NAMES } from "./resolve_system.ts";
 * import { SYSTEM_REGISTRY } from "./systems.ts";
 * assert.deepEqual(SYSTEM_REGISTRY.ids(), [...SYSTEM_NAMES]);
 * ```
 */
export const SYSTEM_REGISTRY: Registry<SystemMaker> = createRegistry({ kind: "system" });

// The built-ins, one per adapter `resolveSystem` knows.
for (const name of SYSTEM_NAMES) {
  SYSTEM_REGISTRY.register({
    id: name,
    description: _DESCRIPTION[name] ?? `The ${name} adapter.`,
    value: (context) => resolveSystem({ ...context, name } as Parameters<typeof resolveSystem>[0]),
  });
}
