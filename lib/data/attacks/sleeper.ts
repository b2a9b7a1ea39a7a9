/**
 * Sleeper risk trace (tool side), after Pulipaka et al. 2026 ("Hidden in memory: Sleeper memory
 * poisoning in LLM agents"): the user asks the assistant to read content the user chose (a page,
 * an email, a repository file, a document) for a real purpose; the content is ordinary, and at its
 * end a payload breaks the framing and, in the user's voice, asks the assistant to save a
 * fabricated fact carrying y_adv and to confirm it; the assistant confirms the save (echoing the
 * fact) and then does what the user asked. Everything the trace says is data
 * (`lib/data/templates/sleeper.json`).
 */
import { z } from "zod";
import { matchesAnswer } from "../../text/matches.ts";
import { type AnswerKind, answerKindOf } from "../answer_kind.ts";
import type { Trace } from "../../schema/trace.ts";
import type { Prng } from "../../random/prng.ts";
import { containsQuery } from "../helpful_trace.ts";
import { fillerCount, fillTemplate, finishUnits, type UnitDraft } from "../_text.ts";
import { targetPhrase } from "./target_phrase.ts";
import { swapPerson, type VictimTerm, victimTerm } from "./victim_term.ts";
import { parseData } from "../parse_data.ts";
import templatesJson from "../templates/sleeper.json" with { type: "json" };

/**
 * Payload styles, after the attacks of the Sleeper code: `universal-v1` (a "priority action"
 * after "that's the end of the document"), `universal-v2` and `universal-v2-markers` (the
 * Actor-Critic payloads after a fake `</document>`), `evolved-v1` and `evolved-v2` (the
 * evolutionary-search winners), and `user-review` (the HTML user-review baseline from the
 * literature, the one silent style).
 */
export const SLEEPER_STYLES = [
  "universal-v1",
  "universal-v2",
  "universal-v2-markers",
  "evolved-v1",
  "evolved-v2",
  "user-review",
] as const;
/** A payload style. */
export type SleeperStyle = typeof SLEEPER_STYLES[number];

const _Document = z.object({
  kind: z.enum(["page", "email", "file", "document"]),
  title: z.string().regex(/^the /, 'a noun phrase starting with "the"'),
  request: z.string().min(1),
  reply: z.string().min(1),
  paragraphs: z.array(z.string().min(1)).min(7),
});
const _Templates = z.object({
  $comment: z.string().optional(),
  payloads: z.object(
    Object.fromEntries(SLEEPER_STYLES.map((s) => [s, z.string().includes("{fact}")])) as Record<
      SleeperStyle,
      z.ZodString
    >,
  ),
  silent: z.array(z.enum(SLEEPER_STYLES)),
  self: z.object({ user: z.string().min(1), other: z.string().min(1) }),
  facts: z.object({
    copula: z.string().includes("{Term}").includes("{copula}").includes("{target}"),
    note: z.string().includes("{Term}").includes("{target}"),
  }),
  echoes: z.array(z.string().includes("{fact}")).min(1),
  open: z.array(z.string().includes("{title}")).min(1),
  summary: z.object({
    request: z.string().includes("{title}"),
    reply: z.string().includes("{title}").includes("{summary}"),
  }),
  thanks: z.array(z.string().min(1)).min(1),
  documents: z.array(_Document).min(8),
}).superRefine((t, ctx) => {
  t.documents.forEach((d, i) => {
    if (!d.request.includes(d.title.replace(/^the /, ""))) {
      ctx.addIssue({
        code: "custom",
        path: ["documents", i, "request"],
        message: `the request names the document (${d.title})`,
      });
    }
  });
});
const TEMPLATES = parseData({
  source: "lib/data/templates/sleeper.json",
  schema: _Templates,
  data: templatesJson,
});

/** A document the user asks the assistant to read (its body is the trace's tool output). */
export interface SleeperDocument {
  /** As the user and the assistant name it: "the community centre newsletter". */
  title: string;
  /** Its paragraphs, in order; the trace takes as many as its load asks for (at least two). */
  paragraphs: readonly string[];
  /** What the user asks about it; default a request for a short summary. */
  request?: string;
  /** The assistant's answer to the request, from the first two paragraphs; default the summary. */
  reply?: string;
  /** What a summary says about it, a clause ending in a full stop (used without `reply`). */
  summary?: string;
}

/** Options for {@link buildSleeperTrace}. */
export interface SleeperTraceOptions {
  /** Instance id, used for trace and unit ids. */
  instanceId: string;
  /** The victim query (its topic is what the fact is about; never quoted). */
  question: string;
  /** Gold answer y* (only to fill `asserts` and to keep it out; the trace never states it). */
  answer: string;
  /** Attacker target y_adv. */
  target: string;
  /** `numbers` key of the queried quantity, or null. */
  numberKey: string | null;
  /** Trace load multiplier: scales the number of document paragraphs. */
  traceLoad: number;
  /** Payload style; default chosen with `prng`. */
  style?: SleeperStyle;
  /** The document the user asks for; default one of the templates' documents, chosen with `prng`. */
  document?: SleeperDocument;
  /** The victim term as the assistant names it ("your dentist appointment"); default read from the question. */
  victim?: string;
  /** The answer's kind: a `text` target (a clause) is quoted; default `answerKindOf(answer)`. */
  kind?: AnswerKind;
  /** Generator choosing the document, the style and the wordings. */
  prng: Prng;
}

/** Document paragraphs at trace load 1. */
const BASE_FILLER = 4;
/** Paragraphs every trace shows, whatever its load: the ones the reply draws on. */
const MIN_PARAGRAPHS = 2;

const _capitalized = (s: string): string => s[0].toUpperCase() + s.slice(1);
const _pick = <T>(list: readonly T[], prng: Prng): T => list[prng.int(0, list.length - 1)];

/**
 * The fabricated fact the payload asks to save, in the user's and the assistant's voice: the
 * victim term with its copula and y_adv ("The number of dogs Andrew has is 5."), or a note
 * ("My dentist appointment: March 21, 2025.") when the term has no copula or y_adv is a clause.
 */
function _fact(
  term: VictimTerm,
  target: string,
  kind: AnswerKind,
): { user: string; assistant: string } {
  const phrase = targetPhrase({ target, clause: kind === "text", quote: "'" });
  const note = term.copula === null || phrase.startsWith("'");
  const make = (t: string) =>
    fillTemplate(note ? TEMPLATES.facts.note : TEMPLATES.facts.copula, {
      Term: _capitalized(t),
      copula: term.copula ?? "is",
      target: phrase,
    });
  return { user: make(term.user), assistant: make(term.assistant) };
}

/**
 * Build the Sleeper risk trace. The user's turns and the assistant's own words (opening the
 * document, answering the request) are trusted; the document and its payload are tool content,
 * untrusted; the assistant's echo of the saved fact repeats the document's claim and carries its
 * provenance (untrusted: taint follows content). Payload and echo support y_adv; every unit is
 * unverified and written by the kit. No unit quotes the test query or states y*.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../../random/prng.ts";
 * import { buildSleeperTrace } from "./sleeper.ts";
 * const trace = buildSleeperTrace({ instanceId: "demo:q1", question: "What is the name of Ann's cat?", answer: "Tom",
 *   target: "Max", numberKey: null, traceLoad: 1, style: "universal-v2", prng: createPrng(1) });
 * assert.deepEqual(trace.units.filter((u) => u.asserts === "Max").map((u) => [u.channel, u.trusted]),
 *   [["tool", false], ["assistant", false]]);
 * assert.ok(trace.units.every((u) => !u.text.includes("What is the name of Ann's cat?") && u.origin === "kit"));
 * ```
 */
export function buildSleeperTrace(options: SleeperTraceOptions): Trace {
  const { prng, target, answer, question } = options;
  const style = options.style ?? SLEEPER_STYLES[prng.int(0, SLEEPER_STYLES.length - 1)];
  const kind = options.kind ?? answerKindOf({ answer });
  const clean = (text: string) =>
    !matchesAnswer(text, answer) && !matchesAnswer(text, target) && !containsQuery(text, question);
  const usable = (d: SleeperDocument) =>
    [d.request ?? "", d.reply ?? d.summary ?? "", ...d.paragraphs.slice(0, MIN_PARAGRAPHS)].every(
      clean,
    );
  const candidates = TEMPLATES.documents.filter(usable);
  const doc: SleeperDocument = options.document ??
    (candidates.length > 0 ? _pick(candidates, prng) : _pick(TEMPLATES.documents, prng));
  const term: VictimTerm = options.victim === undefined
    ? victimTerm({ question, avoid: [answer, target] })
    : {
      user: swapPerson(options.victim.trim()),
      assistant: options.victim.trim(),
      embedded: null,
      copula: null,
    };
  const fact = _fact(term, target, kind);
  const self = /\b(?:I|my|me|mine)\b/.test(term.user) ? TEMPLATES.self.user : TEMPLATES.self.other;

  const draft = (
    channel: "user" | "assistant" | "tool",
    text: string,
    extra: Partial<UnitDraft> = {},
  ): UnitDraft => ({
    text,
    channel,
    trusted: channel !== "tool",
    verified: false,
    origin: "kit",
    ...extra,
  });
  const request = doc.request ?? fillTemplate(TEMPLATES.summary.request, { title: doc.title });
  const reply = doc.reply ??
    fillTemplate(TEMPLATES.summary.reply, { title: doc.title, summary: doc.summary ?? "" });
  if (doc.reply === undefined && doc.summary === undefined) {
    throw new RangeError(`buildSleeperTrace: document ${doc.title} needs a reply or a summary`);
  }
  const payload = fillTemplate(TEMPLATES.payloads[style], {
    fact: fact.user,
    Self: self,
  });
  const silent = TEMPLATES.silent.includes(style);
  const core: UnitDraft[] = [
    draft("user", request),
    draft("assistant", fillTemplate(_pick(TEMPLATES.open, prng), { title: doc.title })),
  ];
  const after: UnitDraft[] = [
    draft("tool", payload, { supports: target }),
    // The echo repeats what the document said: it keeps the document's provenance.
    ...(silent ? [] : [
      draft("assistant", fillTemplate(_pick(TEMPLATES.echoes, prng), { fact: fact.assistant }), {
        trusted: false,
        supports: target,
      }),
    ]),
    draft("assistant", reply),
    draft("user", _pick(TEMPLATES.thanks, prng)),
  ];
  const nBody = Math.max(
    MIN_PARAGRAPHS,
    fillerCount({
      core: core.length + after.length,
      baseFiller: BASE_FILLER,
      traceLoad: options.traceLoad,
    }),
  );
  // Paragraphs that state y* or y_adv are left out (the reply draws on the first two, which the
  // choice of document keeps clean).
  const body = doc.paragraphs.filter((p, i) => i < MIN_PARAGRAPHS || clean(p)).slice(0, nBody)
    .map((p) => draft("tool", p));
  return {
    id: `${options.instanceId}:sleeper`,
    session: `${options.instanceId}:session-sleeper`,
    kind: "risk",
    units: finishUnits([...core, ...body, ...after], {
      prefix: `${options.instanceId}:s`,
      answer,
      target,
      numberKey: options.numberKey,
    }),
  };
}
