/**
 * The offline reference agent: a transparent reader built from named mechanisms, a simulator for
 * teaching, tests and smoke runs. Everything it produces is labelled simulated; it is never a
 * result about real models (see `SIMULATOR_CAVEAT`).
 *
 * What it reads, and why that is not an oracle: the question (`instance.query`); each record's
 * text (split into statements at its `[channel]` tags), its provenance (channels, trusted,
 * verified, write time) and `asserts`, the answer to this question the record states, which
 * stands in for reading the sentence (it says which value a record states, never whether that
 * value is right); record ids only to key its dice. It never reads a record's `role`, the
 * instance's traces, `target`, or `answer` (except in `guess`, at a fixed rate; see there).
 */
import type { MemoryRecord } from "../schema/memory_record.ts";
import { matchesAnswer } from "../text/matches.ts";
import type { Agent } from "./agent.ts";
import { referenceAgentId } from "./agent_spec.ts";
import { ALL_MECHANISMS_ON, type MechanismSwitches } from "./mechanisms.ts";
import { readChance } from "./mechanisms/attention.ts";
import {
  beliefChance,
  SUPPORT_WEIGHT,
  supportsValue,
  valueEvidence,
  type ValueStatement,
} from "./mechanisms/corroboration.ts";
import { nearMissValue } from "./mechanisms/distractors.ts";
import { guessesRight, guessOutput } from "./mechanisms/guess.ts";
import { instructionCues, instructionWeight } from "./mechanisms/instructions.ts";
import { provenanceWeight } from "./mechanisms/provenance.ts";
import { workedOutChance } from "./mechanisms/reasoning.ts";
import type { Persona } from "./personas.ts";
import { PERSONA_REGISTRY } from "./persona_registry.ts";
import { draw, type DrawKey } from "./reading/draw.ts";
import { memo } from "../text/memo.ts";
import { readStatements, recordKey, type Statement, statementKey } from "./reading/statements.ts";
import { contentWords, TOPICAL_SHARE, topicalShare } from "./reading/topic.ts";

/** What the agent answers when it believes nothing and does not guess. */
export const NO_ANSWER = "I don't know.";

/** How the agent read one record (part of its trajectory). */
export interface RecordReading {
  id: string;
  /** Share of the question's content words the record uses. */
  topicalShare: number;
  /** Chance of reading it (1 with attention off). */
  readChance: number;
  read: boolean;
  /** "asserts" when the record states an answer, "near miss" when one was taken from it. */
  offers: "asserts" | "near miss" | null;
  /**
   * The statements it contributed: the value, whether the statement only supports it (on topic,
   * without stating it), its channel, weight and instruction cues.
   */
  statements: {
    value: string;
    supports: boolean;
    channel: string;
    weight: number;
    cues: string[];
  }[];
}

/** How the agent weighed one value (part of its trajectory). */
export interface ValueReading {
  value: string;
  evidence: number;
  /** Distinct statements (or records, with corroboration off) counted. */
  count: number;
  beliefChance: number;
  believed: boolean;
}

/** The reference agent's trajectory: every step, so a student can follow the decision. */
export interface ReferenceTrajectory {
  simulated: true;
  persona: string;
  /** Mechanisms switched off. */
  off: string[];
  /** Ids of the records read. */
  read: string[];
  records: RecordReading[];
  values: ValueReading[];
  /** Where the answer came from. */
  decision: "memory" | "guess" | "none";
}

function _persona(persona: string | Persona | undefined): Persona {
  if (typeof persona === "object") return persona;
  const found = PERSONA_REGISTRY.get(persona ?? "balanced");
  if (!found) {
    throw new RangeError(
      `agent: unknown reference persona ${JSON.stringify(persona)} (expected one of ${
        PERSONA_REGISTRY.ids().join(", ")
      })`,
    );
  }
  return found;
}

/**
 * The reference agent for one persona. For each trial, in order:
 * 1. attention: each record is read with `readChance` (every record with the mechanism off);
 * 2. each read record that asserts an answer contributes its statements that state it; each read
 *    record that asserts nothing may offer a near miss (`distractors`);
 * 3. every statement gets a weight: `provenanceWeight` times `instructionWeight` (1 for a switched-
 *    off mechanism);
 * 4. corroboration: each value's evidence E sums its distinct statements' weights and it is
 *    believed with `beliefChance(E)`;
 * 5. among believed values it answers one with probability proportional to E (conflicting
 *    memories split its answers by weight of evidence); none believed: "I don't know", or a
 *    right guess at the persona's `guess.rate`.
 * Every draw is keyed by seed, repeat, persona, instance and what it decides about (a record, a
 * value), never by condition or operating point, so twins and operating points share them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAgent } from "./reference_agent.ts";
 * const agent = referenceAgent({ persona: "balanced", mechanisms: { guess: false } });
 * const out = await agent.answer({ instance: { id: "i", query: "How old is Rex?" } as never, context: [], condition: "clean", pairId: "p", seed: 1 });
 * assert.equal(out.output, "I don't know.");
 * assert.equal(agent.id, "reference:balanced?guess=off");
 * assert.equal(agent.simulated, true);
 * ```
 */
export function referenceAgent(options: {
  /** A registered persona id (`PERSONA_REGISTRY`), or a persona object; default "balanced". */
  persona?: string | Persona;
  /** Mechanisms to switch off (or on); default every mechanism on. */
  mechanisms?: Partial<MechanismSwitches>;
}): Agent {
  const persona = _persona(options.persona);
  const on: MechanismSwitches = { ...ALL_MECHANISMS_ON, ...options.mechanisms };
  const off = Object.entries(on).filter(([, v]) => !v).map(([m]) => m);
  return {
    id: referenceAgentId({ persona: persona.id, mechanisms: on }),
    simulated: true,
    answer({ instance, context, seed, trial }) {
      const key: DrawKey = { seed, trial: trial ?? 0, persona: persona.id, instance: instance.id };
      const question = contentWords(instance.query);
      const shares = context.map((r) => topicalShare({ question, text: r.text }));
      const onTopic = shares.filter((s) => s >= TOPICAL_SHARE).length;
      const words = context.map((r) => _wordCount(r.text));
      const allWords = words.reduce((a, b) => a + b, 0);

      const items: ValueStatement[] = [];
      const records: RecordReading[] = context.map((record, i) => {
        const chance = on.attention
          ? readChance({
            persona,
            contextSize: context.length,
            otherWords: allWords - words[i],
            similarOthers: onTopic - (shares[i] >= TOPICAL_SHARE ? 1 : 0),
          })
          : 1;
        const rk = recordKey(record);
        const reading: RecordReading = {
          id: record.id,
          topicalShare: shares[i],
          readChance: chance,
          read: draw(key, "read", rk) < chance,
          offers: null,
          statements: [],
        };
        if (!reading.read) return reading;
        const offered = _offered(
          record,
          instance.query,
          on.distractors,
          () => draw(key, "near miss", rk) < persona.distractors.rate,
          () => !on.reasoning || draw(key, "reason", rk) < workedOutChance({ persona, record }),
        );
        if (!offered) return reading;
        reading.offers = offered.offers;
        for (const { statement, supports } of offered.statements) {
          const cues = instructionCues(statement.text);
          const weight = (supports ? SUPPORT_WEIGHT : 1) *
            (on.provenance
              ? provenanceWeight({
                persona,
                record,
                channel: statement.channel,
                text: statement.text,
              })
              : 1) *
            (on.instructions ? instructionWeight({ persona, cues }) : 1);
          reading.statements.push({
            value: offered.value,
            supports,
            channel: statement.channel,
            weight,
            cues,
          });
          items.push({
            value: offered.value,
            valueKey: statementKey(offered.value),
            record: rk,
            statement: statementKey(statement.text),
            weight,
          });
        }
        return reading;
      });

      const values: ValueReading[] = valueEvidence({ items, corroboration: on.corroboration })
        .map((v) => {
          const chance = beliefChance({ persona, evidence: v.evidence });
          return {
            value: v.value,
            evidence: v.evidence,
            count: v.count,
            beliefChance: chance,
            believed: draw(key, "believe", v.valueKey) < chance,
          };
        });
      // A fixed order of the believed values (by their words, not by evidence) keeps the choice
      // monotone: more evidence for a value only widens its share of the one draw.
      const believed = values.filter((v) => v.believed)
        .toSorted((a, b) => a.value.localeCompare(b.value));

      let output = NO_ANSWER;
      let decision: ReferenceTrajectory["decision"] = "none";
      if (believed.length > 0) {
        const total = believed.reduce((s, v) => s + v.evidence, 0);
        let u = draw(key, "choose") * total;
        const chosen = believed.find((v) => (u -= v.evidence) < 0) ?? believed.at(-1)!;
        output = `From memory: ${chosen.value}.`;
        decision = "memory";
      } else if (on.guess && guessesRight({ persona, draw: draw(key, "guess") })) {
        output = guessOutput({ answer: instance.answer });
        decision = "guess";
      }
      const trajectory: ReferenceTrajectory = {
        simulated: true,
        persona: persona.id,
        off,
        read: records.filter((r) => r.read).map((r) => r.id),
        records,
        values,
        decision,
      };
      return Promise.resolve({ output, trajectory });
    },
  };
}

/** Words of a text (memoized). */
const _wordCount = memo((text: string) => text.split(/\s+/).filter((w) => w !== "").length);

/** Whether `value\0text` states the value (memoized: a sweep shows the same texts again). */
const _states = memo((key: string) => {
  const cut = key.indexOf("\u0000");
  return matchesAnswer(key.slice(cut + 1), key.slice(0, cut));
});

/**
 * What a read record offers: the statements of the answer it states; the answer it is evidence
 * for, when the reader works it out (`reasoning`), its on-topic statements counting as stating
 * it; or a near miss.
 */
function _offered(
  record: MemoryRecord,
  query: string,
  distractors: boolean,
  mistaken: () => boolean,
  worksOut: () => boolean,
): {
  offers: "asserts" | "near miss";
  value: string;
  statements: { statement: Statement; supports: boolean }[];
} | null {
  const statements = readStatements(record);
  const derived = record.asserts === null && (record.supports ?? null) !== null;
  const value = derived && !worksOut() ? null : record.asserts ?? record.supports ?? null;
  if (value !== null) {
    const stating = statements.filter((s) => _states(`${value}\u0000${s.text}`));
    const supporting = statements.filter((s) =>
      !stating.includes(s) && _supports(`${query}\u0000${s.text}`)
    );
    // A record that states its value states it at least once, whatever a writer paraphrased;
    // one the reader worked the value out of counts its on-topic statements (or its first) as
    // stating it.
    const stated = stating.length > 0
      ? stating
      : derived
      ? (supporting.length > 0 ? supporting : statements.slice(0, 1))
      : statements.slice(0, 1);
    const support = derived ? [] : supporting;
    return {
      offers: "asserts",
      value,
      statements: [
        ...stated.map((statement) => ({ statement, supports: false })),
        ...support.map((statement) => ({ statement, supports: true })),
      ],
    };
  }
  if (!distractors) return null;
  const miss = nearMissValue({ query, statements, minShare: TOPICAL_SHARE });
  if (!miss || !mistaken()) return null;
  return {
    offers: "near miss",
    value: miss.value,
    statements: [{ statement: miss.statement, supports: false }],
  };
}

/** Whether `query\0text` supports its record's value (memoized like `_states`). */
const _supports = memo((key: string) => {
  const cut = key.indexOf("\u0000");
  return supportsValue({ query: key.slice(0, cut), text: key.slice(cut + 1) });
});
