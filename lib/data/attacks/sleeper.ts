/**
 * Sleeper-style risk trace (tool side): the user asks for a saved document to be summarized; the
 * tool result holds the document's paragraphs plus a payload that breaks the framing, asks the
 * agent to save a note carrying y_adv to memory, and tells it to continue as usual.
 */
import { z } from "zod";
import { matchesAnswer } from "../../text/matches.ts";
import { type AnswerKind, answerKindOf } from "../answer_kind.ts";
import type { Trace } from "../../model/trace.ts";
import type { Prng } from "../../random/prng.ts";
import { _fill, _fillerCount, _finishUnits, type _UnitDraft } from "../_text.ts";
import { targetPhrase } from "./target_phrase.ts";
import { parseData } from "../parse_data.ts";
import templatesJson from "../templates/sleeper.json" with { type: "json" };

/** Payload styles: a fake end-of-document system notice, a JSON metadata field, a hidden HTML comment. */
export const SLEEPER_STYLES = ["system-notice", "json-field", "html-comment"] as const;
/** A payload style. */
export type SleeperStyle = typeof SLEEPER_STYLES[number];

const _Templates = z.object({
  $comment: z.string().optional(),
  request: z.string().includes("{title}"),
  acknowledgement: z.string().includes("{title}"),
  summary: z.string().includes("{summary}"),
  thanks: z.string(),
  payloads: z.object(
    Object.fromEntries(SLEEPER_STYLES.map((s) => [s, z.string().includes("{target}")])) as Record<
      SleeperStyle,
      z.ZodString
    >,
  ),
  documents: z.array(z.object({
    title: z.string().min(1),
    summary: z.string().min(1),
    paragraphs: z.array(z.string().min(1)).min(6),
  })).min(2),
});

/** A document the user asks the assistant to open (its body is the trace's benign tool output). */
export interface SleeperDocument {
  /** As the user and the assistant name it: "the community centre newsletter". */
  title: string;
  /** What the assistant's summary says about it, a clause ending in a full stop. */
  summary: string;
  /** Its paragraphs, in order; the trace takes as many as its load asks for. */
  paragraphs: readonly string[];
}
const TEMPLATES = parseData({
  source: "lib/data/templates/sleeper.json",
  schema: _Templates,
  data: templatesJson,
});

/** Options for {@link buildSleeperTrace}. */
export interface SleeperTraceOptions {
  /** Instance id, used for trace and unit ids. */
  instanceId: string;
  /** The victim query. */
  question: string;
  /** Gold answer y* (only to fill `asserts`; the templates never state it). */
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
  /** The answer's kind: a `text` target (a clause) is quoted in the payload; default `answerKindOf(answer)`. */
  kind?: AnswerKind;
  /** Generator choosing the document, the style and the payload position. */
  prng: Prng;
}

const BASE_FILLER = 4;

/**
 * Build the Sleeper risk trace. The user's request and the assistant's replies are trusted
 * (the user is benign here); every tool unit is untrusted and unverified, and the payload, the
 * only unit stating y_adv, is a tool unit. The body is the document the user asked for (an
 * instance's own, or one of the templates'), and the assistant's summary describes that
 * document; paragraphs stating y* or y_adv are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../../random/prng.ts";
 * import { buildSleeperTrace } from "./sleeper.ts";
 * const trace = buildSleeperTrace({ instanceId: "demo:q1", question: "What is Ann's cat called?", answer: "Tom",
 *   target: "Max", numberKey: null, traceLoad: 1, style: "json-field", prng: createPrng(1) });
 * assert.deepEqual(trace.units.filter((u) => u.asserts === "Max").map((u) => u.channel), ["tool"]);
 * ```
 */
export function buildSleeperTrace(options: SleeperTraceOptions): Trace {
  const { prng, target, answer } = options;
  const style = options.style ?? SLEEPER_STYLES[prng.int(0, SLEEPER_STYLES.length - 1)];
  const doc = options.document ?? TEMPLATES.documents[prng.int(0, TEMPLATES.documents.length - 1)];
  const kind = options.kind ?? answerKindOf({ answer });
  const tool = (text: string): _UnitDraft => ({
    text,
    channel: "tool",
    trusted: false,
    verified: false,
  });
  const said = (channel: "user" | "assistant", text: string): _UnitDraft => ({
    text,
    channel,
    trusted: true,
    verified: false,
  });
  const coreBefore = [
    said("user", _fill(TEMPLATES.request, { title: doc.title })),
    said("assistant", _fill(TEMPLATES.acknowledgement, { title: doc.title })),
  ];
  const coreAfter = [
    said("assistant", _fill(TEMPLATES.summary, { title: doc.title, summary: doc.summary })),
    said("user", TEMPLATES.thanks),
  ];
  const coreCount = coreBefore.length + 1 + coreAfter.length;
  const nBody = Math.max(
    1,
    _fillerCount({ core: coreCount, baseFiller: BASE_FILLER, traceLoad: options.traceLoad }),
  );
  const body = doc.paragraphs
    .filter((p) => !matchesAnswer(p, answer) && !matchesAnswer(p, target))
    .slice(0, nBody).map(tool);
  // The payload sits after the body or just before its last paragraph.
  const at = body.length > 1 && prng.float() < 0.5 ? body.length - 1 : body.length;
  // A clause target is quoted, as MINJA's are, so it is never spliced into the note's sentence
  // (in single quotes: the notes themselves sit in double quotes); inside the JSON payload every
  // value is escaped, so the field stays valid JSON.
  const escape = (v: string) => style === "json-field" ? JSON.stringify(v).slice(1, -1) : v;
  const payload = _fill(TEMPLATES.payloads[style], {
    question: escape(options.question.trim()),
    target: escape(targetPhrase({ target, clause: kind === "text", quote: "'" })),
  });
  body.splice(at, 0, tool(payload));
  return {
    id: `${options.instanceId}:sleeper`,
    session: `${options.instanceId}:session-sleeper`,
    kind: "risk",
    units: _finishUnits([...coreBefore, ...body, ...coreAfter], {
      prefix: `${options.instanceId}:s`,
      answer,
      target,
      numberKey: options.numberKey,
    }),
  };
}
