/** The writer registry: the verbatim writer, then any plugin's (`llm:MODEL` is built on demand). */
import { createRegistry, type Registry } from "../../schema/registry.ts";
import type { Writer } from "./writer.ts";
import { verbatimWriter } from "./writers/verbatim.ts";

/**
 * Every registered offline writer by id (`--writer` reads it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WRITERS } from "./writers.ts";
 * assert.deepEqual(WRITERS.ids(), ["verbatim"]);
 * ```
 */
export const WRITERS: Registry<Writer> = createRegistry({ kind: "writer" });

/** Register a writer under its own id (`source`: the plugin file). */
export function registerWriter(
  options: { writer: Writer; description: string; source?: string },
): void {
  const { writer, description, source } = options;
  WRITERS.register({ id: writer.id, description, value: writer, source });
}

// The built-ins; a new offline writer is its own file, its test and one line here.
registerWriter({ writer: verbatimWriter, description: "Verbatim: the unit's text as it is." });
