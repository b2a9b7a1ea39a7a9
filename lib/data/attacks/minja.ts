/**
 * MINJA-style risk trace (user side, after Dong et al. 2025): the attacker, acting as an ordinary
 * user, asks the victim query with an indication prompt that shortens turn by turn, and the
 * assistant's reasoning carries the bridging steps from the query to y_adv, with a plausible
 * reason for the change; the session ends in benign turns.
 */
import { z } from "zod";
import type { Trace } from "../../model/trace.ts";
import type { Prng } from "../../random/prng.ts";
import { shuffle } from "../../random/shuffle.ts";
import { _fill, _fillerCount, _finishUnits, type _UnitDraft } from "../_text.ts";
import { targetPhrase } from "./target_phrase.ts";
import { parseData } from "../parse_data.ts";
import templatesJson from "../templates/minja.json" with { type: "json" };
import type { AnswerKind } from "../answer_kind.ts";

/** Kinds of change the bridging reasoning claims, one per kind of answer. */
export const MINJA_CHANGES = [
  "date",
  "count",
  "place",
  "person",
  "list",
  "entity",
  "text",
] as const;
/** A kind of change. */
export type MinjaChange = typeof MINJA_CHANGES[number];

const _Templates = z.object({
  $comment: z.string().optional(),
  changes: z.record(z.enum(MINJA_CHANGES), z.object({ reason: z.string(), because: z.string() })),
  ownReason: z.string().includes("{Because}"),
  record: z.object({
    question: z.string().includes("{question}"),
    victim: z.string().includes("{victim}"),
  }),
  rounds: z.array(z.object({ user: z.string(), assistant: z.string() })).length(4),
  smallTalk: z.array(z.tuple([z.string(), z.string()])).min(4),
  closing: z.string(),
}).refine((t) => MINJA_CHANGES.every((c) => t.changes[c] !== undefined), {
  message: `every change kind needs a reason (${MINJA_CHANGES.join(", ")})`,
  path: ["changes"],
});
const TEMPLATES = parseData({
  source: "lib/data/templates/minja.json",
  schema: _Templates,
  data: templatesJson,
});

/** Options for {@link buildMinjaTrace}. */
export interface MinjaTraceOptions {
  /** Instance id, used for trace and unit ids. */
  instanceId: string;
  /** The victim query. */
  question: string;
  /** Gold answer y* (only to fill `asserts`; the templates never state it). */
  answer: string;
  /** Attacker target y_adv. */
  target: string;
  /** What kind of change the bridging reasoning claims (see `minjaChange`). */
  change: MinjaChange;
  /**
   * The instance's own reason for the change, a clause that starts lower-case ("the clinic
   * rescheduled its morning slots"); default the generic reason of `change`.
   */
  because?: string;
  /**
   * The victim term: what the question asks about, as the assistant names it ("your dentist
   * appointment"); default none, and the reasoning names the record by the question.
   */
  victim?: string;
  /** `numbers` key of the queried quantity, or null. */
  numberKey: string | null;
  /** Trace load multiplier: scales the benign small-talk filler. */
  traceLoad: number;
  /** Generator choosing filler. */
  prng: Prng;
}

const BASE_FILLER = 4;

/**
 * The kind of change that makes a swap of y* for y_adv plausible: a date moved, a count
 * changed, a place changed, a person or thing replaced, list items swapped, a note rewritten.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minjaChange } from "./minja.ts";
 * assert.equal(minjaChange({ question: "Where did Ann move?", answer: "Lisbon", kind: "entity" }), "place");
 * assert.equal(minjaChange({ question: "What does Ann grow?", answer: "tomatoes, basil", kind: "entity" }), "list");
 * ```
 */
export function minjaChange(options: {
  question: string;
  answer: string;
  kind: AnswerKind;
  /** The answer's semantic type, when known ("city", "family", ...); default none. */
  type?: string | null;
}): MinjaChange {
  const { question, answer, kind, type } = options;
  if (kind === "date") return "date";
  if (kind === "number") return "count";
  if (/,|\band\b/.test(answer) && answer.split(/\s*,\s*|\s+and\s+/).length >= 2) return "list";
  const place = new Set(["city", "country", "us-state", "place", "national-park", "home-spot"]);
  if (/^\s*where\b/i.test(question.split(/(?<=[.!?])\s+/).at(-1) ?? "") || place.has(type ?? "")) {
    return "place";
  }
  if (/\bwho(?:m|se)?\b/i.test(question) || type === "family") return "person";
  return kind === "text" ? "text" : "entity";
}

const _capitalized = (s: string): string => s[0].toUpperCase() + s.slice(1);

/**
 * Build the MINJA risk trace. Units are on the user and assistant channels, trusted (they come
 * from a user session, which provenance-aware quarantine trusts) and unverified.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../../random/prng.ts";
 * import { buildMinjaTrace } from "./minja.ts";
 * const trace = buildMinjaTrace({ instanceId: "demo:q1", question: "What is Ann's cat called?", answer: "Tom",
 *   target: "Max", change: "entity", numberKey: null, traceLoad: 1, prng: createPrng(1) });
 * assert.ok(trace.units.some((u) => u.asserts === "Max"));
 * assert.ok(trace.units.every((u) => !u.verified && u.trusted && u.channel !== "tool"));
 * // An instance's own reason and victim term replace the generic ones.
 * const own = buildMinjaTrace({ instanceId: "demo:q1", question: "What is Ann's cat called?", answer: "Tom",
 *   target: "Max", change: "entity", numberKey: null, traceLoad: 1, prng: createPrng(1),
 *   because: "the shelter mixed up two kittens", victim: "Ann's cat" });
 * assert.ok(own.units.some((u) => u.text.includes("The record of Ann's cat was updated because the shelter mixed up two kittens.")));
 * ```
 */
export function buildMinjaTrace(options: MinjaTraceOptions): Trace {
  const { question, target, change, because, victim } = options;
  const generic = TEMPLATES.changes[change]!;
  for (const [name, value] of [["because", because], ["victim", victim]] as const) {
    if (value !== undefined && value.trim() === "") {
      throw new RangeError(`buildMinjaTrace: ${name} must be a non-empty phrase, got ""`);
    }
  }
  const record = victim === undefined
    ? _fill(TEMPLATES.record.question, { question: question.trim() })
    : _fill(TEMPLATES.record.victim, { victim: victim.trim() });
  const values = {
    question: question.trim(),
    target: targetPhrase({ target, clause: change === "text", quote: '"' }),
    reason: because === undefined
      ? generic.reason
      : _fill(TEMPLATES.ownReason, { Because: _capitalized(because.trim()) }),
    because: because?.trim() ?? generic.because,
    Record: _capitalized(record),
  };
  const draft = (channel: "user" | "assistant", text: string): _UnitDraft => ({
    text,
    channel,
    trusted: true,
    verified: false,
  });
  // The indication prompt shrinks round by round (progressive shortening); the last round is
  // the plain query, answered with the bridging steps alone.
  const core = TEMPLATES.rounds.map((r) => [
    draft("user", _fill(r.user, values)),
    draft("assistant", _fill(r.assistant, values)),
  ]);
  const fillerUnits = _fillerCount({
    core: core.flat().length + 1,
    baseFiller: BASE_FILLER,
    traceLoad: options.traceLoad,
  });
  const filler = shuffle(TEMPLATES.smallTalk, { prng: options.prng })
    .flatMap(([u, a]) => [draft("user", u), draft("assistant", a)]).slice(0, fillerUnits);
  // Small talk opens the session and sits between attack rounds; the closing thanks is benign.
  const drafts: _UnitDraft[] = [];
  const half = Math.ceil(filler.length / 2);
  drafts.push(...filler.slice(0, half));
  core.forEach((pair, i) => {
    drafts.push(...pair);
    if (i === 1) drafts.push(...filler.slice(half));
  });
  drafts.push(draft("user", TEMPLATES.closing));
  return {
    id: `${options.instanceId}:minja`,
    session: `${options.instanceId}:session-minja`,
    kind: "risk",
    units: _finishUnits(drafts, {
      prefix: `${options.instanceId}:m`,
      answer: options.answer,
      target,
      numberKey: options.numberKey,
    }),
  };
}
