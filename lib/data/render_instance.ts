/** Format an instance as plain text, for the docs (docs/data.md), notebooks and debugging. */
import type { Instance } from "../schema/instance.ts";
import type { Trace } from "../schema/trace.ts";

/** Options for {@link renderInstance}. */
export interface RenderInstanceOptions {
  /** The instance to render. */
  instance: Instance;
  /** Background records to list; default 3 (the rest are counted). */
  backgroundShown?: number;
  /** Longest unit text shown, in characters; default 240. */
  maxChars?: number;
}

function _trace(title: string, trace: Trace, maxChars: number): string[] {
  return [
    `${title} (${trace.units.length} units, session ${trace.session})`,
    ...trace.units.map((u) => {
      const flags = `${u.channel}${u.trusted ? "" : ",untrusted"}${u.verified ? ",verified" : ""}`;
      const text = u.text.length > maxChars ? u.text.slice(0, maxChars - 3) + "..." : u.text;
      const asserts = u.asserts === null ? "" : `  => asserts ${JSON.stringify(u.asserts)}`;
      return `  [${flags}] ${text.replace(/\s+/g, " ")}${asserts}`;
    }),
  ];
}

/**
 * Render an instance: query, answer, target, each trace unit with channel and provenance flags,
 * and the first background records.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderInstance } from "./render_instance.ts";
 * const unit = { id: "u1", text: "My cat is Tom.", channel: "user" as const, trusted: true, verified: true, numbers: [], asserts: "Tom" };
 * const text = renderInstance({ instance: {
 *   id: "demo:1", dataset: "demo", category: "", query: "Cat's name?", answer: "Tom", target: "Max", answerKind: "entity",
 *   background: [], helpful: { id: "h", session: "s1", kind: "helpful", units: [unit] }, risk: {},
 * } });
 * assert.ok(text.includes("[user,verified] My cat is Tom."));
 * ```
 */
export function renderInstance(options: RenderInstanceOptions): string {
  const { instance } = options;
  const maxChars = options.maxChars ?? 240;
  const shown = options.backgroundShown ?? 3;
  const lines = [
    `instance ${instance.id} (${instance.dataset}, ${instance.category || "no category"})`,
    `query:  ${instance.query}`,
    `answer: ${instance.answer}   (kind ${instance.answerKind})`,
    `target: ${instance.target}`,
    ..._trace("helpful trace", instance.helpful, maxChars),
  ];
  if (instance.risk.minja) lines.push(..._trace("MINJA risk trace", instance.risk.minja, maxChars));
  if (instance.risk.sleeper) {
    lines.push(..._trace("Sleeper risk trace", instance.risk.sleeper, maxChars));
  }
  lines.push(`background bank (${instance.background.length} records)`);
  for (const r of instance.background.slice(0, shown)) {
    lines.push(`  ${r.text.length > maxChars ? r.text.slice(0, maxChars - 3) + "..." : r.text}`);
  }
  if (instance.background.length > shown) {
    lines.push(`  ... ${instance.background.length - shown} more`);
  }
  return lines.join("\n");
}
