/**
 * Plugins: a module whose default export adds policies, rankers, writers, agents, personas,
 * judges, retrieval fills, memory systems or datasets to their registries. Entries are plain objects that satisfy the
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
import { isReferenceSpec } from "../agents/agent_spec.ts";
import { AGENTS, registerPersona } from "../agents/agents.ts";
import { calibratedPersona, PERSONA_REGISTRY, PersonaHabits } from "../agents/persona_registry.ts";
import type { Persona } from "../agents/personas.ts";
import { DATASETS } from "../data/datasets.ts";
import type { DatasetLoader } from "../data/dataset.ts";
import type { Judge } from "../judges/judge.ts";
import { JUDGES } from "../judges/judges.ts";
import { FillId, PolicyId } from "../schema/operating_point.ts";
import type { Registry } from "../schema/registry.ts";
import { POLICIES } from "../stages/management/policies.ts";
import type { ManagementPolicy } from "../stages/management/policy.ts";
import type { FillStrategy } from "../stages/retrieval/fill_strategy.ts";
import { FILLS } from "../stages/retrieval/fills.ts";
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
  /** Reference-agent personas (their habits before the fit): each is the agent `reference:ID`. */
  personas?: readonly Persona[];
  /** Retrieval fill strategies (`--fill ID`). */
  fills?: readonly FillStrategy[];
  judges?: readonly (Judge & { description?: string })[];
  systems?: readonly {
    id: string;
    description: string;
    create: SystemMaker;
    /** Its own options by key, with what each does (`--system-option KEY=VALUE`). */
    options?: Readonly<Record<string, string>>;
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
const _rowLabel = "expected a letter, then letters, digits, _ or - (a row label such as TQ)";
const _fillId = _id.refine((id) => FillId.safeParse(id).success, _rowLabel);

/** One kind: its entry shape, its registry, and how an entry becomes a registry value. */
interface _Kind {
  schema: z.ZodType;
  registry: Registry<unknown>;
  value: (e: Record<string, unknown>) => unknown;
  /** How a checked entry is registered; default `registry.register`. */
  register?: (e: Record<string, unknown>, source: string) => void;
}

/** Each kind of entry a plugin may add. */
const _KINDS: Record<keyof Plugin, _Kind> = {
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
      id: _id.refine(
        (id) => !isReferenceSpec(id),
        "reference ids belong to the reference agent's personas (add it under personas)",
      ),
      description: _optionalText,
      simulated: z.boolean({ error: "expected true or false" }),
      answer: _fn,
    }),
    registry: AGENTS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  personas: {
    schema: PersonaHabits,
    registry: PERSONA_REGISTRY as Registry<unknown>,
    value: (e: Record<string, unknown>) => calibratedPersona(e as unknown as Persona),
    register: (e: Record<string, unknown>, source: string) =>
      registerPersona({ habits: e as unknown as Persona, source }),
  },
  fills: {
    schema: z.looseObject({ id: _fillId, description: _text, order: _fn }),
    registry: FILLS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  judges: {
    schema: z.looseObject({ id: _id, description: _optionalText, judge: _fn }),
    registry: JUDGES as Registry<unknown>,
    value: (e: Record<string, unknown>) => e,
  },
  systems: {
    schema: z.looseObject({
      id: _id,
      description: _text,
      create: _fn,
      options: z.record(z.string(), _text).optional(),
    }),
    registry: SYSTEM_REGISTRY as Registry<unknown>,
    value: (e: Record<string, unknown>) => e.create,
    register: (e: Record<string, unknown>, source: string) =>
      SYSTEM_REGISTRY.register({
        id: e.id as string,
        description: e.description as string,
        value: e.create as SystemMaker,
        source,
        ...(e.options !== undefined && { options: e.options as Record<string, string> }),
      }),
  },
  datasets: {
    schema: z.looseObject({ id: _id, description: _text, load: _fn }),
    registry: DATASETS as Registry<unknown>,
    value: (e: Record<string, unknown>) => e.load,
  },
};

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
  const todo: (() => void)[] = [];
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
      const description = (e.description as string | undefined) ?? `From plugin ${source}.`;
      todo.push(() =>
        kind.register
          ? kind.register(e, source)
          : kind.registry.register({ id, description, value, source })
      );
    });
  }
  for (const register of todo) register();
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
