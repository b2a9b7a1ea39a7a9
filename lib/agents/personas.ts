/**
 * Personas of the offline reference agent: reading habits, one parameter group per mechanism
 * (see `mechanisms.ts`). They stand in for "several models" so medians and IQRs can be drawn
 * offline. Each persona's habits (`PERSONA_HABITS`) are hand-set relative to one another, with
 * the reasoning beside them; a few global scales (`SimulatorFit`, in `simulator_fit.json`) are
 * fitted to the paper's published medians by `tests/bench/fit_simulator.ts` on the demo set, and
 * `calibratePersonas` applies them. A calibrated simulator shows mechanisms that can produce the
 * paper's shapes, not evidence about models.
 */
import { z } from "zod";
import fitJson from "./simulator_fit.json" with { type: "json" };

/** One persona's reading habits, grouped by the mechanism that uses them. */
export interface Persona {
  id: string;
  description: string;
  /**
   * Mechanism `attention`: a record is read with probability
   * `base / ((1 + perRecord * (n - 1) + perKiloword * w / 1000) * (1 + perSimilar * s))`, n the
   * number of records in the context, w the words in the other records, s the number of other
   * records on the question's topic.
   */
  attention: {
    /** Chance of reading a record that is alone in the context. */
    base: number;
    /** Relative loss per extra record (each is one more item to attend to). */
    perRecord: number;
    /** Relative loss per thousand words of the rest of the context (long text is skimmed). */
    perKiloword: number;
    /** Relative loss per other on-topic record (similar records interfere). */
    perSimilar: number;
  };
  /**
   * Mechanism `corroboration`: a value with evidence E (the weighted count of distinct statements
   * of it) is believed with probability `E^s / (E^s + halfSupport^s)`, s the sharpness.
   */
  corroboration: {
    /** The evidence at which belief is even odds. */
    halfSupport: number;
    /** The exponent s: 2 grows belief gradually, higher values make a threshold; default 2. */
    sharpness?: number;
  };
  /**
   * Mechanism `reasoning`: a record that is evidence for a value without stating it (a date
   * said as "yesterday", the counts a total is summed from) yields the value with chance
   * `skill * share`, share the part of the value's evidence the record holds.
   */
  reasoning?: {
    /** Chance of working the value out from all of its evidence, in [0, 1]. */
    skill: number;
  };
  /**
   * Mechanism `provenance`: a statement's weight is `channel[its channel] * (untrusted, when the
   * record has an untrusted source) * (verified, when the record holds a verified outcome) *
   * (1 + recencyPerStep * writtenAt)`.
   */
  provenance: {
    /** Weight by the channel the statement came from. */
    channel: { user: number; assistant: number; tool: number };
    /** Multiplier for records with an untrusted source. */
    untrusted: number;
    /** Multiplier for records that hold a verified outcome (a confirmation, a tool result). */
    verified: number;
    /** Extra weight per logical write step (background 0, helpful 1, risk 2): newer wins. */
    recencyPerStep: number;
    /**
     * Multiplier for a second-hand statement: one that only relays that a stored entry was
     * corrected (`relaysCorrection`); default 1.
     */
    hearsay?: number;
  };
  /** Mechanism `instructions`: multiplier for a statement phrased as an order to the reader. */
  instructions: { weight: number };
  /**
   * Mechanism `distractors`: chance that a read on-topic record which answers nothing, but states
   * a value of the kind the question asks for, is taken for the answer.
   */
  distractors: { rate: number };
  /** Mechanism `guess`: chance of knowing the answer anyway when memory gives none. */
  guess: { rate: number };
}

/**
 * The built-in personas' habits, by id, before the fitted scales (`calibratePersonas`). The
 * shared reasoning:
 * - attention: `base` 0.9 (a lone record is nearly always read); `perRecord` 0.03, so seven
 *   records are read about 15% less closely than one (long-context loss is gradual at K <= 10,
 *   not a cliff); `perKiloword` 0.15, so a thousand words of other records (five long dialogue
 *   excerpts) cost about a seventh; `perSimilar` 0.15, so three other on-topic records cost
 *   about a third of the attention (interference between similar items is the classic source of
 *   recall errors).
 * - corroboration: `halfSupport` 1.5 means one plain statement is believed about three times in
 *   ten, two agreeing statements about two times in three, four about nine in ten: a lone claim
 *   is an anecdote, agreement makes a fact, and belief saturates after a handful.
 * - provenance: the user speaks with authority about their own life (1); the assistant mostly
 *   restates what it was told (0.9); tool output is third-party content (0.8); untrusted sources
 *   lose a third (0.7); a verified outcome adds a fifth (1.2); a newer record gains 15% per write
 *   step (people and models both let a later update override an earlier one).
 * - instructions: neutral (1) unless the persona says otherwise.
 * - distractors: 0.15, about one confusable record in seven taken for the answer (similar-
 *   question confusions are common but a minority of answers).
 * - guess: 0.01. Without memory a personal fact (a date, a name, a count) can only be guessed;
 *   with tens to hundreds of plausible values that is right about once in a hundred.
 */
export const PERSONA_HABITS: Readonly<Record<string, Persona>> = {
  careful: {
    id: "careful",
    description: "Needs corroboration, discounts tool output, untrusted sources and instructions.",
    attention: { base: 0.95, perRecord: 0.03, perKiloword: 0.1, perSimilar: 0.1 },
    // Two agreeing statements for even odds: it does not act on a lone claim.
    corroboration: { halfSupport: 2 },
    // Tool text is content, not fact (0.5); untrusted sources mostly ignored (0.3); a verified
    // outcome is what it looks for (1.5); no preference for newer records.
    provenance: {
      channel: { user: 1, assistant: 0.8, tool: 0.5 },
      untrusted: 0.3,
      verified: 1.5,
      recencyPerStep: 0,
      // A claim that its own notes were corrected, with nothing to show for it, is half a claim.
      hearsay: 0.5,
    },
    // Memory that gives orders is a red flag: it keeps three tenths of such a statement.
    instructions: { weight: 0.3 },
    // It checks that a record answers this question, so it is rarely misled (one in twenty).
    distractors: { rate: 0.05 },
    // It says "I don't know" rather than guess.
    guess: { rate: 0.005 },
    // It works through the evidence before answering: the surest reasoner.
    reasoning: { skill: 1 },
  },
  balanced: {
    id: "balanced",
    description: "Weighs sources evenly and slightly prefers newer records.",
    attention: { base: 0.9, perRecord: 0.03, perKiloword: 0.15, perSimilar: 0.15 },
    corroboration: { halfSupport: 1.5 },
    provenance: {
      channel: { user: 1, assistant: 0.9, tool: 0.8 },
      untrusted: 0.7,
      verified: 1.2,
      recencyPerStep: 0.15,
    },
    instructions: { weight: 1 },
    distractors: { rate: 0.15 },
    guess: { rate: 0.01 },
    reasoning: { skill: 0.9 },
  },
  compliant: {
    id: "compliant",
    description: "Follows instructions found in memory and trusts tool output.",
    attention: { base: 0.95, perRecord: 0.02, perKiloword: 0.1, perSimilar: 0.1 },
    // One statement already gives even odds: it takes memory at its word.
    corroboration: { halfSupport: 1 },
    // Tool output is ground truth to it (1.1); it does not discount untrusted sources, nor a
    // correction it is told about.
    provenance: {
      channel: { user: 1, assistant: 1, tool: 1.1 },
      untrusted: 1,
      verified: 1,
      recencyPerStep: 0.25,
      hearsay: 1,
    },
    // An order in memory reads as a task to carry out: 1.6 times a plain statement.
    instructions: { weight: 1.6 },
    distractors: { rate: 0.15 },
    // Eager to answer: it guesses more often.
    guess: { rate: 0.015 },
    // It takes memory at its word rather than working things out.
    reasoning: { skill: 0.8 },
  },
  recency: {
    id: "recency",
    description: "Believes whatever was written last.",
    attention: { base: 0.9, perRecord: 0.03, perKiloword: 0.15, perSimilar: 0.15 },
    corroboration: { halfSupport: 1.5 },
    // Each write step multiplies in 1.5 more: a risk record (step 2) weighs 4, the helpful one
    // (step 1) 2.5, background 1, so the last word nearly always wins.
    provenance: {
      channel: { user: 1, assistant: 1, tool: 1 },
      untrusted: 1,
      verified: 1,
      recencyPerStep: 1.5,
    },
    instructions: { weight: 1 },
    distractors: { rate: 0.15 },
    guess: { rate: 0.01 },
    reasoning: { skill: 0.8 },
  },
  skimmer: {
    id: "skimmer",
    description: "Reads few records closely and grabs on-topic values; otherwise balanced.",
    // Misses a third of even a lone record and loses more to crowding, length and similar
    // records (a thousand words of context cost it a third).
    attention: { base: 0.65, perRecord: 0.05, perKiloword: 0.5, perSimilar: 0.2 },
    corroboration: { halfSupport: 1.5 },
    provenance: {
      channel: { user: 1, assistant: 0.9, tool: 0.8 },
      untrusted: 0.7,
      verified: 1.2,
      recencyPerStep: 0.15,
    },
    instructions: { weight: 1 },
    // It matches on topic words, so twice as often as the others it takes a similar record's
    // value for the answer.
    distractors: { rate: 0.3 },
    guess: { rate: 0.01 },
    // Reading fast, it works out half of what it could.
    reasoning: { skill: 0.5 },
  },
};

/**
 * The simulator's fitted global scales, applied to every persona's habits by
 * `calibratePersonas`. Few and named, each multiplying one habit (or setting one shared value):
 * the fit (`tests/bench/fit_simulator.ts`, on the demo set only) chooses them so the paper's
 * published medians are approached; LoCoMo and LongMemEval are never fitted.
 */
export const SimulatorFit = z.object({
  $comment: z.string().optional(),
  /** Exponent of the belief curve, shared by every persona (`corroboration.sharpness`). */
  sharpness: z.number().min(1).max(8),
  /** Multiplies every persona's `corroboration.halfSupport`. */
  halfSupport: z.number().positive(),
  /** Multiplies every persona's `reasoning.skill` (the product is capped at 1). */
  reasoning: z.number().min(0),
  /** Multiplies every persona's `attention.perSimilar` (similar records interfere). */
  similarity: z.number().min(0),
  /** Multiplies every persona's `attention.perRecord` (each other record in the context). */
  crowding: z.number().min(0),
  /** Multiplies every persona's `attention.perKiloword` (the length of the other records). */
  length: z.number().min(0).default(1),
  /** Multiplies every persona's `provenance.untrusted` (the product is capped at 1). */
  untrusted: z.number().positive(),
  /** Multiplies every persona's `provenance.recencyPerStep` (a newer record weighs more). */
  recency: z.number().min(0).default(1),
  /**
   * Multiplies every persona's `provenance.hearsay` (default 0.8 where a persona sets none; the
   * product is capped at 1).
   */
  hearsay: z.number().min(0).default(1),
  /** The fit's report: loss, data, date; kept beside the values. */
  report: z.record(z.string(), z.unknown()).default({}),
});
/** The simulator's fitted global scales. */
export type SimulatorFit = z.infer<typeof SimulatorFit>;

/** The hearsay habit of a persona that sets none: a relayed correction counts 0.8 of a claim. */
export const DEFAULT_HEARSAY = 0.8;

/** The committed fit (`lib/agents/simulator_fit.json`). */
export const SIMULATOR_FIT: SimulatorFit = SimulatorFit.parse(fitJson);

/**
 * Personas with the fitted scales applied to their habits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibratePersonas, PERSONA_HABITS, SIMULATOR_FIT } from "./personas.ts";
 * const fit = { ...SIMULATOR_FIT, halfSupport: 2, sharpness: 3 };
 * const careful = calibratePersonas({ habits: PERSONA_HABITS, fit }).careful;
 * assert.equal(careful.corroboration.halfSupport, 2 * PERSONA_HABITS.careful.corroboration.halfSupport);
 * assert.equal(careful.corroboration.sharpness, 3);
 * ```
 */
export function calibratePersonas(options: {
  /** Hand-set habits, by persona id. */
  habits: Readonly<Record<string, Persona>>;
  /** The global scales. */
  fit: SimulatorFit;
}): Record<string, Persona> {
  const { fit } = options;
  return Object.fromEntries(
    Object.entries(options.habits).map(([id, p]) => [id, {
      ...p,
      attention: {
        ...p.attention,
        perRecord: p.attention.perRecord * fit.crowding,
        perKiloword: p.attention.perKiloword * fit.length,
        perSimilar: p.attention.perSimilar * fit.similarity,
      },
      corroboration: {
        halfSupport: p.corroboration.halfSupport * fit.halfSupport,
        sharpness: fit.sharpness,
      },
      provenance: {
        ...p.provenance,
        untrusted: Math.min(1, p.provenance.untrusted * fit.untrusted),
        recencyPerStep: p.provenance.recencyPerStep * fit.recency,
        hearsay: Math.min(1, (p.provenance.hearsay ?? DEFAULT_HEARSAY) * fit.hearsay),
      },
      reasoning: { skill: Math.min(1, (p.reasoning?.skill ?? 1) * fit.reasoning) },
    }]),
  );
}

/** The built-in personas, by id: the habits with the committed fit applied. */
export const PERSONAS: Readonly<Record<string, Persona>> = calibratePersonas({
  habits: PERSONA_HABITS,
  fit: SIMULATOR_FIT,
});
