/**
 * Plugins: a module whose default export adds policies, rankers, writers, agents, judges,
 * memory systems or datasets to their registries. Entries are plain objects that satisfy the
 * kit's interfaces, so a simple policy needs no import of the kit (`my_policy.ts`):
 *
 * ```ts ignore
 * export default {
 *   policies: [{
 *     id: "NT",
 *     description: "No tool records.",
 *     apply: ({ records }) => ({
 *       kept: records.filter((r) => !r.provenance.channels.includes("tool")),
 *       quarantined: records.filter((r) => r.provenance.channels.includes("tool")),
 *     }),
 *   }],
 * };
 * ```
 *
 * Every CLI loads `--plugin FILE.ts` before it validates its options; notebooks pass `plugins`.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { Agent } from "../agents/agent.ts";
import { AGENTS } from "../agents/agents.ts";
import { DATASETS } from "../data/datasets.ts";
import type { DatasetLoader } from "../data/dataset.ts";
import type { Judge } from "../judges/judge.ts";
import { JUDGES } from "../judges/judges.ts";
import { PolicyId } from "../schema/operating_point.ts";
import type { Registry } from "../schema/registry.ts";
import { POLICIES } from "../stages/management/policies.ts";
import type { ManagementPolicy } from "../stages/management/policy.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import { RANKERS } from "../stages/writing/rankers.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { WRITERS } from "../stages/writing/writers.ts";
import { SYSTEM_REGISTRY, type SystemMaker } from "../systems/systems.ts";
import { guardExit } from "./exit_guard.ts";

/** What a plugin module default-exports; every field is optional. */
export interface Plugin {
  policies?: readonly ManagementPolicy[];
  rankers?: readonly (Ranker & { description?: string })[];
  writers?: readonly (Writer & { description?: string })[];
  agents?: readonly (Agent & { description?: string })[];
  judges?: readonly (Judge & { description?: string })[];
  systems?: readonly {
    id: string;
    description: string;
    create: SystemMaker;
  }[];
  datasets?: readonly { id: string; description: string; load: DatasetLoader }[];
}

/** A plugin that cannot be loaded: the file and the field at fault. */
export class PluginError extends RangeError {
  override name = "PluginError";
  constructor(
    /** The plugin file as given. */
    readonly file: string,
    /** What is wrong, starting with the field (`policies[0].apply: ...`). */
    readonly detail: string,
  ) {
    super(`plugin ${file}: ${detail}`);
  }
}

const _fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", {
  error: "expected a function",
});
const _id = z.string({ error: "expected a string" }).min(1, "expected a non-empty string");
const _text = z.string({ error: "expected a string" });
const _optionalText = _text.optional();

/** Each kind: its entry shape, its registry, and how an entry becomes a registry value. */
const _KINDS = {
  policies: {
    schema: z.looseObject({
      id: _id.refine(
        (id) => PolicyId.safeParse(id).success,
        "expected a letter, then letters, digits, _ or - (a row label such as TQ)",
      ),
      description: _text,
      apply: _fn,
    }),
    registry: POLICIES as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  rankers: {
    schema: z.looseObject({ id: _id, description: _optionalText, rank: _fn }),
    registry: RANKERS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  writers: {
    schema: z.looseObject({ id: _id, description: _optionalText, write: _fn }),
    registry: WRITERS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  agents: {
    schema: z.looseObject({
      id: _id,
      description: _optionalText,
      simulated: z.boolean({ error: "expected true or false" }),
      answer: _fn,
    }),
    registry: AGENTS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  judges: {
    schema: z.looseObject({ id: _id, description: _optionalText, judge: _fn }),
    registry: JUDGES as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  systems: {
    schema: z.looseObject({ id: _id, description: _text, create: _fn }),
    registry: SYSTEM_REGISTRY as Registry<unknown>,
    value: (e: Record<string, unknown>) => e.create,
  },
  datasets: {
    schema: z.looseObject({ id: _id, description: _text, load: _fn }),
    registry: DATASETS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e.load,
  },
} as const;

/** The fields a plugin may have. */
export const PLUGIN_FIELDS = Object.keys(_KINDS) as (keyof Plugin)[];

function _shown(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function _at(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown>)?.[k], value);
}

/**
 * Check a plugin's default export and add every entry to its registry. Nothing is registered
 * when any entry is wrong (a missing or wrong field, an id another extension already has).
 * Registering the same plugin again is a no-op.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { POLICIES } from "../stages/management/policies.ts";
 * import { registerPlugin } from "./plugins.ts";
 * const none = { id: "NONE_DOC", description: "Keeps everything.", apply: ({ records }: { records: never[] }) => ({ kept: [...records], quarantined: [] }) };
 * registerPlugin({ plugin: { policies: [none] }, source: "none.ts" });
 * assert.equal(POLICIES.resolve("NONE_DOC"), none);
 * assert.throws(() => registerPlugin({ plugin: { policies: [{ id: "X" }] }, source: "x.ts" }),
 *   /plugin x\.ts: policies\[0\]\.description: expected a string, got undefined/);
 * assert.throws(() => registerPlugin({ plugin: { policies: [{ ...none, description: "Other." }] }, source: "y.ts" }),
 *   /plugin y\.ts: policies\[0\]\.id: policy: duplicate id "NONE_DOC" from y\.ts \(already registered from none\.ts\)/);
 * ```
 */
export function registerPlugin(options: {
  /** The module's default export. */
  plugin: unknown;
  /** Where it came from (the file), named in errors and in the registries. */
  source: string;
}): void {
  const { plugin, source } = options;
  // From the first plugin on, plugin code cannot end the task with exit code 0.
  guardExit();
  const fail = (detail: string): never => {
    throw new PluginError(source, detail);
  };
  if (typeof plugin !== "object" || plugin === null || Array.isArray(plugin)) {
    fail(
      `default export: expected an object with ${PLUGIN_FIELDS.join(", ")}, got ${_shown(plugin)}`,
    );
  }
  const todo: { registry: Registry<unknown>; id: string; description: string; value: unknown }[] =
    [];
  const seen = new Set<string>();
  for (const [field, list] of Object.entries(plugin as Record<string, unknown>)) {
    const kind = _KINDS[field as keyof typeof _KINDS];
    if (!kind) {
      fail(`${field}: unknown field (expected ${PLUGIN_FIELDS.join(", ")})`);
    }
    if (!Array.isArray(list)) fail(`${field}: expected a list, got ${_shown(list)}`);
    (list as unknown[]).forEach((entry, i) => {
      const where = `${field}[${i}]`;
      const parsed = kind.schema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = issue.path.map(String).join(".");
        fail(
          `${where}${path ? `.${path}` : ""}: ${issue.message}, got ${
            _shown(_at(entry, issue.path))
          }`,
        );
      }
      const e = entry as Record<string, unknown>;
      const id = e.id as string;
      const value = kind.value(e);
      const taken = kind.registry.entries().find((t) => t.id === id);
      if ((taken && taken.value !== value) || seen.has(`${field}/${id}`)) {
        fail(
          `${where}.id: ${kind.registry.kind}: duplicate id ${JSON.stringify(id)} from ${source} ` +
            `(already registered from ${taken?.source ?? (taken ? "built-in" : source)})`,
        );
      }
      seen.add(`${field}/${id}`);
      todo.push({
        registry: kind.registry,
        id,
        description: (e.description as string | undefined) ?? `From plugin ${source}.`,
        value,
      });
    });
  }
  for (const { registry, id, description, value } of todo) {
    registry.register({ id, description, value, source });
  }
}

/**
 * Import plugin files (paths relative to the working directory) and register their default
 * exports, in order. A missing file, a module that fails to load, no default export or a bad
 * entry throws a {@link PluginError} naming the file and the field.
 */
export async function loadPlugins(options: {
  /** Plugin module paths (`.ts` or `.js`). */
  paths: readonly string[];
}): Promise<void> {
  // Before any plugin module runs: its top-level code cannot end the task with exit code 0.
  guardExit();
  for (const path of options.paths) {
    let stat: Deno.FileInfo;
    try {
      stat = await Deno.stat(path);
    } catch {
      throw new PluginError(path, "no such file");
    }
    if (!stat.isFile) throw new PluginError(path, "is not a file");
    let module: Record<string, unknown>;
    try {
      module = await import(pathToFileURL(resolve(path)).href);
    } catch (e) {
      throw new PluginError(path, `cannot be loaded: ${(e as Error).message.split("\n")[0]}`);
    }
    if (!("default" in module)) {
      throw new PluginError(
        path,
        `default export: missing (expected export default { ${PLUGIN_FIELDS.join(", ")} })`,
      );
    }
    registerPlugin({ plugin: module.default, source: path });
  }
}
