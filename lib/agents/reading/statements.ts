/**
 * How the reference agent reads a record: as the statements it holds. A trace's record joins one
 * `[channel] text` line per admitted unit (both the verbatim and the LLM writer keep the tag), so
 * the tags show where one unit's statement ends and which channel it came from. A record without
 * tags (a background record, a system's own memory) is one statement.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { Channel } from "../../schema/source_unit.ts";
import { normalizeTokens } from "../../text/normalize.ts";
import { memo } from "../../text/memo.ts";

/** One statement of a record, with the channel it came from. */
export interface Statement {
  /** The statement's text without its channel tag. */
  text: string;
  channel: Channel;
}

const TAGGED = /^\[(user|assistant|tool)\] ([\s\S]*)$/;

/**
 * The record's most external channel, for text that carries no tag: a record that holds tool
 * output is tool content, else user content when the user spoke, else the assistant's.
 */
function _recordChannel(record: MemoryRecord): Channel {
  const channels = record.provenance.channels;
  return channels.includes("tool") ? "tool" : channels.includes("user") ? "user" : "assistant";
}

/**
 * Split a record into statements: at each line that starts with a channel tag (a unit's text
 * may itself span lines, so untagged lines stay with the statement before them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readStatements } from "./statements.ts";
 * const record = { id: "r", role: "helpful" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   text: "[user] Rex is 4.\n[tool] Vet file:\nage 4", provenance: { session: "s", channels: ["user" as const, "tool" as const], trusted: true, verified: false, writtenAt: 1 } };
 * assert.deepEqual(readStatements(record), [
 *   { text: "Rex is 4.", channel: "user" },
 *   { text: "Vet file:\nage 4", channel: "tool" },
 * ]);
 * ```
 */
export function readStatements(record: MemoryRecord): readonly Statement[] {
  return _split(`${_recordChannel(record)}\n${record.text}`);
}

const _split = memo((key: string): readonly Statement[] => {
  const [channel, text] = [key.slice(0, key.indexOf("\n")), key.slice(key.indexOf("\n") + 1)];
  return text.split(/\n(?=\[(?:user|assistant|tool)\] )/).map((line) => {
    const tagged = TAGGED.exec(line);
    return tagged
      ? { text: tagged[2], channel: tagged[1] as Channel }
      : { text: line, channel: channel as Channel };
  }).filter((s) => s.text.trim() !== "");
});

/**
 * The key under which two statements count as the same: their normalized words. Repeating a
 * sentence word for word is not a second source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statementKey } from "./statements.ts";
 * assert.equal(statementKey("Rex is 4!"), statementKey("rex is four"));
 * ```
 */
export function statementKey(text: string): string {
  return _key(text);
}

const _key = memo((text: string) => normalizeTokens(text).join(" "));

/**
 * The key of a record for the agent's draws: its id without the `@units` suffix the writer adds,
 * so the record a trace yields at every coverage level is the same record to the agent's dice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordKey } from "./statements.ts";
 * assert.equal(recordKey({ id: "demo-01/helpful@3" }), "demo-01/helpful");
 * assert.equal(recordKey({ id: "bg-0042" }), "bg-0042");
 * ```
 */
export function recordKey(record: Pick<MemoryRecord, "id">): string {
  return record.id.replace(/@\d+$/, "");
}
