/** A background record built from dataset turns, with the provenance the interaction gives it. */
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { Channel, StatedNumber } from "../schema/source_unit.ts";
import { statedNumbers } from "./stated_numbers.ts";

/** One turn of a background window, as its session presents it. */
export interface BankTurn {
  /** Display name ("Caroline", "User", "Assistant", "Image caption"). */
  speaker: string;
  /** Who produced it: a person (user), the assistant, or a tool (a captioner, a web page). */
  channel: Channel;
  text: string;
  /** False for content from outside the conversation (tool output, pasted web pages). */
  trusted: boolean;
  /** True only where the interaction confirmed something (a "yes" to a question). */
  verified: boolean;
  /** Who the turn's numbers are about; default the speaker. */
  subject?: string;
}

/** One background record candidate: a short window of one session. */
export interface BankCandidate {
  id: string;
  /** The dataset session it comes from. */
  session: string;
  turns: BankTurn[];
}

/**
 * The background record of a candidate: its turns' text ("Speaker: text", joined), channels in
 * first-seen order, trusted when every turn is, verified when some turn confirmed something,
 * and the numbers its turns state keyed like any record's (`statedNumbers`, by subject).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bankRecord } from "./bank_record.ts";
 * const record = bankRecord({ candidate: { id: "b1", session: "s1", turns: [
 *   { speaker: "Ann", channel: "user", text: "Did you get the 2 kittens?", trusted: true, verified: false },
 *   { speaker: "Bo", channel: "user", text: "Yes, and 3 plants.", trusted: true, verified: true },
 *   { speaker: "Image caption", channel: "tool", text: "a photo of a cat", trusted: false, verified: false, subject: "Bo" },
 * ] } });
 * assert.deepEqual(record.provenance, { session: "s1", channels: ["user", "tool"], trusted: false, verified: true, writtenAt: 0 });
 * assert.deepEqual(record.numbers, [{ key: "ann:kitten", value: 2 }, { key: "bo:plant", value: 3 }]);
 * ```
 */
export function bankRecord(options: {
  /** The window to turn into a record. */
  candidate: BankCandidate;
}): MemoryRecord & { role: "background" } {
  const { candidate } = options;
  if (candidate.turns.length === 0) {
    throw new RangeError(`Cannot build background record ${candidate.id}: it has no turns`);
  }
  const numbers: StatedNumber[] = [];
  for (const turn of candidate.turns) {
    for (const n of statedNumbers({ text: turn.text, subject: turn.subject ?? turn.speaker })) {
      if (!numbers.some((m) => m.key === n.key)) numbers.push(n);
    }
  }
  return {
    id: candidate.id,
    text: candidate.turns.map((t) => `${t.speaker}: ${t.text}`).join(" "),
    role: "background",
    sourceUnitIds: [],
    provenance: {
      session: candidate.session,
      channels: [...new Set(candidate.turns.map((t) => t.channel))],
      trusted: candidate.turns.every((t) => t.trusted),
      verified: candidate.turns.some((t) => t.verified),
      writtenAt: 0,
    },
    numbers,
    asserts: null,
  };
}

/** A reply that confirms what the previous turn asked or proposed ("Yes, ...", "Exactly"). */
export const CONFIRMATION =
  /^\W*(?:yes|yeah|yep|yup|exactly|indeed|definitely|absolutely|correct|that's right|that is right|that's correct|right,|sure did|i did|that worked|it worked)\b/i;

/**
 * True when `reply` confirms `previous`: the previous turn asked (it ends in a question mark)
 * or proposed something, and the reply opens with a confirmation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confirms } from "./bank_record.ts";
 * assert.ok(confirms({ previous: "Did you finish the mural?", reply: "Yes, last week!" }));
 * assert.ok(!confirms({ previous: "I finished the mural.", reply: "Wow, nice." }));
 * ```
 */
export function confirms(options: { previous: string | undefined; reply: string }): boolean {
  const previous = options.previous?.trim() ?? "";
  return /\?["')]*$/.test(previous) && CONFIRMATION.test(options.reply);
}
