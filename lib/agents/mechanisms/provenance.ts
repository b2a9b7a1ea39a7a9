/**
 * Mechanism `provenance`: how much a statement counts depends on where it came from: its channel
 * (user, assistant, tool), whether its record has an untrusted source or holds a verified outcome,
 * how recently it was written, and whether it is first-hand: a statement that only relays that a
 * stored entry was corrected ("my record of X was changed, so it is Y now") is second-hand and
 * weighs the persona's `hearsay`. The weights are the persona's; switched off, every statement
 * weighs 1.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { Channel } from "../../schema/source_unit.ts";
import type { Persona } from "../personas.ts";
import { relaysCorrection } from "../../text/relayed_correction.ts";

/**
 * The provenance weight of a statement from `channel` in `record`:
 * `channel weight * (hearsay) * (untrusted) * (verified) * (1 + recencyPerStep * writtenAt)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { provenanceWeight } from "./provenance.ts";
 * const record = { provenance: { session: "s", channels: ["tool" as const], trusted: false, verified: false, writtenAt: 2 } };
 * // Tool channel times untrusted, no recency for the careful persona.
 * const careful = PERSONAS.careful.provenance;
 * assert.equal(provenanceWeight({ persona: PERSONAS.careful, record, channel: "tool" }), careful.channel.tool * careful.untrusted);
 * // Written at step 2: the recency persona's weight grows with each step.
 * const recency = PERSONAS.recency.provenance;
 * assert.equal(provenanceWeight({ persona: PERSONAS.recency, record, channel: "user" }), 1 + 2 * recency.recencyPerStep);
 * ```
 */
export function provenanceWeight(options: {
  /** The reading persona. */
  persona: Persona;
  /** The record the statement is part of. */
  record: Pick<MemoryRecord, "provenance">;
  /** The channel the statement came from. */
  channel: Channel;
  /** The statement's text, to tell a relayed correction; default none (first-hand). */
  text?: string;
}): number {
  const { persona, record, channel } = options;
  const p = persona.provenance;
  let weight = p.channel[channel];
  if (options.text !== undefined && relaysCorrection(options.text)) weight *= p.hearsay ?? 1;
  if (!record.provenance.trusted) weight *= p.untrusted;
  if (record.provenance.verified) weight *= p.verified;
  return weight * (1 + p.recencyPerStep * record.provenance.writtenAt);
}
