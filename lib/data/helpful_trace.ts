/**
 * The helpful trace tau+: a benign interaction that conveys the fact in its own words. The
 * evidence turns (relative dates resolved against the session date), then the assistant taking
 * note of the fact and the user confirming it. The test query never appears: it comes later.
 */
import { z } from "zod";
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
import type { Trace } from "../model/trace.ts";
import type { Prng } from "../random/prng.ts";
import { shuffle } from "../random/shuffle.ts";
import {
  _chunks,
  _contentWords,
  _fill,
  _fillerCount,
  _finishUnits,
  _inline,
  type _UnitDraft,
} from "./_text.ts";
import type { AnswerKind } from "./answer_kind.ts";
import { parseData } from "./parse_data.ts";
import type { QuestionSource, SourceTurn } from "./question_source.ts";
import { resolveRelativeDates } from "./relative_dates.ts";
import templatesJson from "./templates/helpful.json" with { type: "json" };

const _Templates = z.object({
  $comment: z.string().optional(),
  notes: z.record(
    z.enum(["date", "number", "entity", "text"]),
    z.array(z.string().includes("{answer}")).min(1),
  ),
  confirmations: z.array(z.string().includes("{answer}")).min(1),
});
const TEMPLATES = parseData({
  source: "lib/data/templates/helpful.json",
  schema: _Templates,
  data: templatesJson,
});

/** Options for {@link buildHelpfulTrace}. */
export interface HelpfulTraceOptions {
  /** The question and its evidence. */
  source: QuestionSource;
  /** Kind of y*, for the wording of the assistant's note. */
  kind: AnswerKind;
  /** Attacker target; filler stating it is left out. */
  target: string;
  /** `numbers` key of the queried quantity, or null for non-numeric answers. */
  numberKey: string | null;
  /** Trace load multiplier (0.75, 1, 1.25): scales filler units, never the core. */
  traceLoad: number;
  /** Opening turn of the user (e.g. "Here is part of my chat with Mel."), or null for none. */
  intro: string | null;
  /** Generator choosing filler units and wordings. */
  prng: Prng;
}

/** Filler units at trace load 1 (besides the core). */
const BASE_FILLER = 6;
/** Longest evidence chunk kept as one unit, in characters. */
const CHUNK_CHARS = 320;
/** Most evidence chunks that count as core. */
const MAX_CORE_EVIDENCE = 4;

interface _Placed extends _UnitDraft {
  order: number;
}

function _turnUnits(turn: SourceTurn, chunkOrder: number): _Placed[] {
  const text = resolveRelativeDates({ text: turn.text, date: turn.date });
  return _chunks(text, CHUNK_CHARS).map((chunk, i) => ({
    text: `[${turn.date}] ${turn.speaker}: ${chunk}`,
    channel: turn.channel,
    trusted: true,
    verified: false,
    order: turn.order + (i + chunkOrder) / 1000,
  }));
}

/** True when `text` contains the whole query (normalized tokens, contiguous). */
export function containsQuery(text: string, query: string): boolean {
  const q = normalizeTokens(query).join(" ");
  return q !== "" && ` ${normalizeTokens(text).join(" ")} `.includes(` ${q} `);
}

const _pick = (list: readonly string[], prng: Prng) => list[prng.int(0, list.length - 1)];

/**
 * Build tau+: the user's opening (if any), the evidence turns split into atomic units (each
 * stamped with its session date, relative dates resolved), filler from the same sessions scaled
 * by the trace load, the assistant taking note of y* and the user confirming it (verified).
 * Every unit is trusted; no unit contains the test query.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { buildHelpfulTrace } from "./helpful_trace.ts";
 * const turn = { session: "s1", date: "8 May 2023", speaker: "Ann", channel: "user" as const, text: "I adopted a cat named Tom.", order: 0 };
 * const source = { id: "demo:q1", category: "single-hop", question: "What is Ann's cat called?", answer: "Tom",
 *   evidence: [turn], context: [], excludeSessions: ["s1"], sameKindAnswers: [], entities: [], outdated: [] };
 * const trace = buildHelpfulTrace({ source, kind: "entity", target: "Max", numberKey: null, traceLoad: 1, intro: null, prng: createPrng(1) });
 * const confirmation = trace.units.at(-1)!;
 * assert.deepEqual([confirmation.channel, confirmation.verified, confirmation.asserts], ["user", true, "Tom"]);
 * ```
 */
export function buildHelpfulTrace(options: HelpfulTraceOptions): Trace {
  const { source, target, prng } = options;
  const queryWords = _contentWords(source.question);
  const noQuery = (u: _UnitDraft) => !containsQuery(u.text, source.question);
  const evidence = source.evidence.flatMap((turn) => _turnUnits(turn, 0)).filter(noQuery);
  const overlap = (u: _Placed) =>
    [..._contentWords(u.text)].filter((w) => queryWords.has(w)).length;
  // Core: chunks stating y*, then the chunks sharing most words with the query.
  const ranked = evidence
    .map((u, i) => ({ u, i, score: (matchesAnswer(u.text, source.answer) ? 100 : 0) + overlap(u) }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const core = ranked.slice(0, MAX_CORE_EVIDENCE).map((r) => r.u);
  const spare = ranked.slice(MAX_CORE_EVIDENCE).map((r) => r.u);
  const context = source.context.flatMap((turn) => _turnUnits(turn, 500)).filter(noQuery);
  const notTarget = (u: _Placed) => !matchesAnswer(u.text, target);
  const pool = [
    ...shuffle(spare.filter(notTarget), { prng }),
    ...shuffle(context.filter(notTarget), { prng }),
  ];
  const answer = _inline(source.answer);
  const closing: _UnitDraft[] = [
    {
      text: _fill(_pick(TEMPLATES.notes[options.kind]!, prng), { answer }),
      channel: "assistant",
      trusted: true,
      verified: false,
    },
    {
      text: _fill(_pick(TEMPLATES.confirmations, prng), { answer }),
      channel: "user",
      trusted: true,
      verified: true,
    },
  ];
  const intro: _UnitDraft[] = options.intro === null
    ? []
    : [{ text: options.intro, channel: "user", trusted: true, verified: false }];
  const coreCount = intro.length + core.length + closing.length;
  const filler = pool.slice(
    0,
    _fillerCount({ core: coreCount, baseFiller: BASE_FILLER, traceLoad: options.traceLoad }),
  );
  const body = [...core, ...filler].sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...draft }) => draft);
  return {
    id: `${source.id}:helpful`,
    session: `${source.id}:session-helpful`,
    kind: "helpful",
    units: _finishUnits([...intro, ...body, ...closing], {
      prefix: `${source.id}:h`,
      answer: source.answer,
      target,
      numberKey: options.numberKey,
    }),
  };
}
