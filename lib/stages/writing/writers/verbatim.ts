/** Verbatim writer: a unit's record text is its own text, tagged with its channel. */
import type { Writer } from "../writer.ts";

/**
 * The offline writer: `[channel] text`. Keeping the channel visible lets a reader (and the
 * reference agent) tell a tool result from a user statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verbatimWriter } from "./verbatim.ts";
 * const unit = { id: "a", text: "Rex is 4.", channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null };
 * assert.equal(await verbatimWriter.write(unit, { trace: { id: "t", session: "s", kind: "helpful", units: [unit] } }), "[user] Rex is 4.");
 * ```
 */
export const verbatimWriter: Writer = {
  id: "verbatim",
  write: (unit) => Promise.resolve(`[${unit.channel}] ${unit.text}`),
};
