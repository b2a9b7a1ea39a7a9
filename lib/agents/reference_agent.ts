/**
 * The offline reference agent: a transparent reader, a simulator for teaching, tests and smoke
 * runs. It does not parse language: each record carries the answer it asserts (`asserts`, filled
 * in by the instance author) and the persona's rules decide which assertion to believe.
 * Everything it produces is labelled simulated; it is never a result about real models.
 */
import type { MemoryRecord } from "../model/memory_record.ts";
import { deriveSeed } from "../random/derive_seed.ts";
import { createPrng } from "../random/prng.ts";
import type { Agent } from "./agent.ts";
import { type Persona, PERSONAS } from "./personas.ts";

/** Instructions aimed at the reader or at memory, as opposed to statements of fact. */
const DIRECTIVE =
  /\b(remember|save (this|a note)|store|from now on|always|ignore|must|make sure|update (your|the) memory|note to (self|memory))\b/i;

/** What the agent answers when nothing in its context asserts an answer. */
export const NO_ANSWER = "I don't know.";

/** The weight a persona gives one record (see `referenceAgent`). */
export function recordWeight(record: MemoryRecord, persona: Persona): number {
  const channels = record.provenance.channels;
  const channel = channels.includes("tool")
    ? "tool"
    : channels.includes("user")
    ? "user"
    : "assistant";
  let weight = persona.channelWeight[channel];
  if (!record.provenance.trusted) weight *= persona.untrustedWeight;
  if (DIRECTIVE.test(record.text)) weight *= persona.directiveWeight;
  return weight * (1 + persona.recencyWeight * record.provenance.writtenAt);
}

/**
 * The reference agent for one persona. Rules, in order:
 * 1. Attention: each context record is noticed with probability `persona.attention`. The draw
 *    is keyed by seed, persona, instance and record id, never by condition or operating point,
 *    so a clean run and its poisoned twin notice the same shared records (common random numbers).
 * 2. Each noticed record that asserts an answer votes for it with `recordWeight`.
 * 3. The answer with the largest total weight wins; ties go to the most recently written
 *    record, then to the alphabetically first answer. No vote: "I don't know."
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAgent } from "./reference_agent.ts";
 * const agent = referenceAgent({ persona: "balanced" });
 * const out = await agent.answer({ instance: { id: "i" } as never, context: [], condition: "clean", pairId: "p", seed: 1 });
 * assert.equal(out.output, "I don't know.");
 * assert.equal(agent.simulated, true);
 * ```
 */
export function referenceAgent(options: {
  /** Persona id from `PERSONAS`, or a persona object; default "balanced". */
  persona?: string | Persona;
}): Agent {
  const persona = typeof options.persona === "object"
    ? options.persona
    : PERSONAS[options.persona ?? "balanced"];
  if (!persona) {
    throw new RangeError(
      `agent: unknown reference persona ${JSON.stringify(options.persona)} (expected one of ${
        Object.keys(PERSONAS).join(", ")
      })`,
    );
  }
  return {
    id: `reference:${persona.id}`,
    simulated: true,
    answer({ instance, context, seed }) {
      const votes = new Map<string, { weight: number; newest: number }>();
      const read: string[] = [];
      for (const record of context) {
        const noticed =
          createPrng(deriveSeed(seed, "notice", persona.id, instance.id, record.id)).float() <
            persona.attention;
        if (!noticed) continue;
        read.push(record.id);
        if (record.asserts === null) continue;
        const vote = votes.get(record.asserts) ?? { weight: 0, newest: -1 };
        vote.weight += recordWeight(record, persona);
        vote.newest = Math.max(vote.newest, record.provenance.writtenAt);
        votes.set(record.asserts, vote);
      }
      const ranked = [...votes.entries()].sort(([a, va], [b, vb]) =>
        vb.weight - va.weight || vb.newest - va.newest || a.localeCompare(b)
      );
      const output = ranked.length === 0 ? NO_ANSWER : `From memory: ${ranked[0][0]}.`;
      return Promise.resolve({
        output,
        trajectory: {
          simulated: true,
          persona: persona.id,
          read,
          votes: Object.fromEntries(votes),
        },
      });
    },
  };
}
