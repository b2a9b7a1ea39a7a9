/**
 * A registry: the one list of an extension point (management policies, rankers, writers, agents,
 * judges, memory systems, datasets, figures). Built-ins register themselves next to their kind
 * (one line each); plugins add theirs at load; CLI validation, `--help`, figure facets and
 * reproduce read the registry instead of a list of their own.
 *
 * @module
 */

/** One registered extension. */
export interface RegistryEntry<T> {
  /** The id a command line, a row or a figure uses (`PQ`, `usefulness`, `demo`). */
  id: string;
  /** One line: what it is. */
  description: string;
  /** Its options by name, with what each does; default none. */
  options?: Readonly<Record<string, string>>;
  /** The object itself (a policy, a ranker) or the function that makes it (a loader). */
  value: T;
  /** Where it came from: `built-in` or the plugin file; default `built-in`. */
  source?: string;
}

/** The registry of one kind of extension. */
export interface Registry<T> {
  /** The kind in errors and help (`policy`, `ranker`). */
  readonly kind: string;
  /** Add an entry; an id already taken by another value is refused (the same value is a no-op). */
  register(entry: RegistryEntry<T>): void;
  /** The value of an id, or undefined. */
  get(id: string): T | undefined;
  /** The value of an id; an unknown id throws a RangeError listing the registered ones. */
  resolve(id: string): T;
  has(id: string): boolean;
  /** Every id, in registration order (built-ins first). */
  ids(): string[];
  /** Every entry, in registration order. */
  entries(): RegistryEntry<T>[];
}

/**
 * Make an empty registry for one kind of extension.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRegistry } from "./registry.ts";
 * const colors = createRegistry<string>({ kind: "color" });
 * colors.register({ id: "red", description: "Red.", value: "#f00" });
 * assert.deepEqual(colors.ids(), ["red"]);
 * assert.equal(colors.resolve("red"), "#f00");
 * assert.throws(() => colors.resolve("blue"), /color: unknown id "blue" \(expected one of red\)/);
 * assert.throws(() => colors.register({ id: "red", description: "Other.", value: "#e00", source: "p.ts" }),
 *   /color: duplicate id "red" from p\.ts \(already registered from built-in\)/);
 * ```
 */
export function createRegistry<T>(options: {
  /** The kind in errors and help. */
  kind: string;
}): Registry<T> {
  const { kind } = options;
  const entries = new Map<string, RegistryEntry<T>>();
  return {
    kind,
    register(entry) {
      if (typeof entry.id !== "string" || entry.id === "") {
        throw new TypeError(
          `${kind}: expected a non-empty string id, got ${JSON.stringify(entry.id)}`,
        );
      }
      const taken = entries.get(entry.id);
      if (taken) {
        if (taken.value === entry.value) return;
        throw new RangeError(
          `${kind}: duplicate id ${JSON.stringify(entry.id)} from ${
            entry.source ?? "built-in"
          } (already registered from ${taken.source ?? "built-in"})`,
        );
      }
      entries.set(entry.id, entry);
    },
    get: (id) => entries.get(id)?.value,
    resolve(id) {
      const entry = entries.get(id);
      if (!entry) {
        throw new RangeError(
          `${kind}: unknown id ${JSON.stringify(id)} (expected one of ${
            [...entries.keys()].join(", ")
          })`,
        );
      }
      return entry.value;
    },
    has: (id) => entries.has(id),
    ids: () => [...entries.keys()],
    entries: () => [...entries.values()],
  };
}
