/**
 * The memory-system registry: the adapters the kit ships (`SYSTEM_NAMES`), then any plugin's.
 * An entry makes the system from what `resolveSystem` is given besides the name (where the
 * system's model calls go).
 */
import { createRegistry, type Registry } from "../schema/registry.ts";
import type { MemorySystem } from "./memory_system.ts";
import { resolveSystem, SYSTEMS, type SystemSpec } from "./resolve_system.ts";

/** What a system entry is given: `resolveSystem`'s options without the name. */
export type SystemContext = Omit<Parameters<typeof resolveSystem>[0], "name">;

/** What an entry makes: what `resolveSystem` returns. */
export type SystemMaker = (context: SystemContext) => ReturnType<typeof resolveSystem>;

/**
 * Every registered memory system by name (`deno task systems --system` reads it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SYSTEM_NAMES } from "./resolve_system.ts";
 * import { SYSTEM_REGISTRY } from "./systems.ts";
 * assert.deepEqual(SYSTEM_REGISTRY.ids().slice(0, SYSTEM_NAMES.length), [...SYSTEM_NAMES]);
 * ```
 */
export const SYSTEM_REGISTRY: Registry<SystemMaker> = createRegistry({ kind: "system" });

// The built-ins, one per adapter `resolveSystem` knows.
for (const spec of SYSTEMS) {
  SYSTEM_REGISTRY.register({
    id: spec.name,
    description: spec.summary,
    value: (context) => resolveSystem({ ...context, name: spec.name }),
  });
}

/**
 * The spec of a registered system: a built-in's own, or for a plugin's system one that gives it
 * a chat model and an embedder (no server) and shows its id. A RangeError naming `--system` and
 * the registered ids for an unknown name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { registeredSystemSpec, SYSTEM_REGISTRY } from "./systems.ts";
 * assert.equal(registeredSystemSpec("hindsight").needsServer, true);
 * SYSTEM_REGISTRY.register({ id: "notes", description: "A plugin's store.", value: () => {
 *   throw new Error("not made here");
 * } });
 * assert.deepEqual(registeredSystemSpec("notes"), { name: "notes", display: "notes",
 *   needsModels: true, needsServer: false, summary: "A plugin's store." });
 * assert.throws(() => registeredSystemSpec("zep"), /--system: unknown system "zep"/);
 * ```
 */
export function registeredSystemSpec(name: string): SystemSpec {
  const builtin = SYSTEMS.find((s) => s.name === name);
  if (builtin) return builtin;
  const entry = SYSTEM_REGISTRY.entries().find((e) => e.id === name);
  if (!entry) {
    throw new RangeError(
      `--system: unknown system ${JSON.stringify(name)} (expected one of ${
        SYSTEM_REGISTRY.ids().join(", ")
      })`,
    );
  }
  return {
    name,
    display: name,
    needsModels: true,
    needsServer: false,
    summary: entry.description,
  };
}

/**
 * A system's own options (`--system-option KEY=VALUE`) by key, checked against the options its
 * registry entry declares (the built-ins declare none: Hindsight's are flags of their own). A
 * RangeError names `--system-option`, the key and the declared ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemOptions } from "./systems.ts";
 * assert.deepEqual(systemOptions({ name: "amem", values: [] }), {});
 * assert.throws(() => systemOptions({ name: "amem", values: ["depth=2"] }),
 *   /--system-option depth=2: system amem takes no options/);
 * ```
 */
export function systemOptions(options: {
  /** A registered system. */
  name: string;
  /** `KEY=VALUE` texts, as given. */
  values: readonly string[];
}): Record<string, string> {
  const declared = SYSTEM_REGISTRY.entries().find((e) => e.id === options.name)?.options ?? {};
  const out: Record<string, string> = {};
  for (const text of options.values) {
    const at = text.indexOf("=");
    const key = at > 0 ? text.slice(0, at) : "";
    if (!key) {
      throw new RangeError(`--system-option ${text}: expected KEY=VALUE`);
    }
    if (!Object.hasOwn(declared, key)) {
      const names = Object.keys(declared);
      throw new RangeError(
        `--system-option ${text}: system ${options.name} takes ${
          names.length ? `${names.join(", ")}, not ${JSON.stringify(key)}` : "no options"
        }`,
      );
    }
    if (Object.hasOwn(out, key)) {
      throw new RangeError(`--system-option ${text}: ${key} given twice`);
    }
    out[key] = text.slice(at + 1);
  }
  return out;
}

/**
 * The adapter a registered system's entry makes (built-ins through {@link resolveSystem}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeSystem } from "./systems.ts";
 * import { SystemPort } from "./system_port.ts";
 * const port = new SystemPort({ chat: null, embedder: null });
 * assert.equal(makeSystem({ name: "amem", port }).system, "A-MEM");
 * ```
 */
export function makeSystem(options: Parameters<typeof resolveSystem>[0]): MemorySystem {
  const { name, ...context } = options;
  registeredSystemSpec(name);
  return SYSTEM_REGISTRY.resolve(name)(context);
}
