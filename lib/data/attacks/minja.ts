/**
 * MINJA risk trace (user side), after Dong et al. 2025 (arXiv 2503.03704): the attacker, acting
 * as an ordinary user, asks several queries about the question's victim term (never the test
 * query), each with an indication prompt appended that is cut from the end step by step until
 * the bare query remains; every assistant reply starts with the term-level bridging step and
 * lands on y_adv, with a reason written for the answer's class. Benign turns are interleaved.
 * Everything the trace says is data (`lib/data/templates/minja.json`).
 */
import { z } from "zod";
import { matchesAnswer } from "../../text/matches.ts";
import type { Trace } from "../../schema/trace.ts";
import type { Prng } from "../../random/prng.ts";
import { shuffle } from "../../random/shuffle.ts";
import { type AnswerKind, answerKindOf } from "../answer_kind.ts";
import { containsQuery } from "../helpful_trace.ts";
import { answerValue, fillerCount, fillTemplate, finishUnits, type UnitDraft } from "../_text.ts";
import { targetPhrase } from "./target_phrase.ts";
import { questionSentence, swapPerson, type VictimTerm, victimTerm } from "./victim_term.ts";
import { parseData } from "../parse_data.ts";
import templatesJson from "../templates/minja.json" with { type: "json" };

/** A regular expression kept as data; it must compile (matched case-insensitively). */
const _Pattern = z.string().min(1).refine((p) => {
  try {
    new RegExp(p, "i");
    return true;
  } catch {
    return false;
  }
}, { message: "not a valid regular expression" });
const _Reason = z.string().regex(/^[a-z]/, "a clause starting lower-case")
  .refine((r) => !/\b(?:I|me|my|you|your)\b/i.test(r), "in no one's voice (no I/my/you/your)");
const _Condition = z.object({
  kinds: z.array(z.string()).optional(),
  answer: _Pattern.optional(),
  question: _Pattern.optional(),
  types: z.array(z.string()).optional(),
}).strict();
const _Templates = z.object({
  $comment: z.string().optional(),
  attackQueries: z.number().int().min(1).max(6),
  classes: z.array(z.object({
    name: z.string().regex(/^[a-z][a-z-]*$/),
    when: z.array(_Condition).min(1),
    reasons: z.object({
      any: z.array(_Reason).min(1),
      higher: z.array(_Reason).default([]),
      lower: z.array(_Reason).default([]),
    }),
  })).min(1),
  queries: z.object({
    term: z.array(z.string().includes("{term}")).min(3),
    embedded: z.array(z.string().includes("{embedded}")).min(1),
  }),
  indication: z.array(
    z.array(z.string().min(1)).min(2).refine((steps) => steps.some((s) => s.includes("{target}")), {
      message: "a step must point to {target}",
    }).refine((steps) => steps[0].includes("{reason}") && steps[0].includes("{term}"), {
      message: "the first step claims the change: {term} and {reason}",
    }),
  ).min(1),
  bridges: z.array(z.string().includes("{term}").includes("{reason}")).min(1),
  lands: z.object({
    copula: z.array(z.string().includes("{term}").includes("{copula}").includes("{target}")).min(1),
    note: z.array(z.string().includes("{term}").includes("{target}")).min(1),
  }),
  smallTalk: z.array(z.tuple([z.string(), z.string()])).min(6),
  closing: z.string().min(1),
}).superRefine((t, ctx) => {
  const names = t.classes.map((c) => c.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) {
      ctx.addIssue({ code: "custom", path: ["classes", i, "name"], message: `duplicate ${n}` });
    }
  });
  const last = t.classes.at(-1)!;
  if (!last.when.some((c) => Object.keys(c).length === 0)) {
    ctx.addIssue({
      code: "custom",
      path: ["classes", t.classes.length - 1, "when"],
      message: "the last class must match every answer (a condition {})",
    });
  }
});
const TEMPLATES = parseData({
  source: "lib/data/templates/minja.json",
  schema: _Templates,
  data: templatesJson,
});
const CLASSES = TEMPLATES.classes.map((c) => ({
  ...c,
  when: c.when.map((w) => ({
    kinds: w.kinds,
    types: w.types,
    answer: w.answer === undefined ? undefined : new RegExp(w.answer, "i"),
    question: w.question === undefined ? undefined : new RegExp(w.question, "i"),
  })),
}));

/** The answer classes the bridging reasons are written for, in priority order (from minja.json). */
export const MINJA_CHANGES: readonly string[] = CLASSES.map((c) => c.name);
/** An answer class of {@link MINJA_CHANGES}: what kind of value the attack changes. */
export type MinjaChange = string;

/**
 * The answer's class, which picks the reasons MINJA's bridging step may give: the first class of
 * `minja.json` with a condition the question and answer meet (a time of day, a weekday, money, a
 * count, a duration, a date, a place, a person, a list, a yes/no, a choice, a thing...).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minjaChange } from "./minja.ts";
 * assert.equal(minjaChange({ question: "Where did Ann move?", answer: "Lisbon", kind: "entity" }), "place");
 * assert.equal(minjaChange({ question: "What does Ann grow?", answer: "tomatoes, basil", kind: "entity" }), "list");
 * assert.equal(minjaChange({ question: "How much did the bake sale raise?", answer: "$800", kind: "number" }), "money");
 * assert.equal(minjaChange({ question: "How much was the rent?", answer: "$800", kind: "number" }), "spending");
 * assert.equal(minjaChange({ question: "When does the class start?", answer: "7 pm", kind: "number" }), "time");
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
  const found = CLASSES.find((c) =>
    c.when.some((w) =>
      (w.kinds === undefined || w.kinds.includes(kind)) &&
      (w.types === undefined || (type != null && w.types.includes(type))) &&
      (w.answer === undefined || w.answer.test(answer.trim())) &&
      (w.question === undefined || w.question.test(question.trim()))
    )
  );
  return found!.name;
}

/** The reasons a class may give for a change from `answer` to `target` (see minja.json). */
export function minjaReasons(
  options: { change: MinjaChange; answer: string; target: string },
): string[] {
  const cls = CLASSES.find((c) => c.name === options.change);
  if (cls === undefined) {
    throw new RangeError(
      `minjaReasons: change must be one of ${MINJA_CHANGES.join(", ")}, got ${
        JSON.stringify(options.change)
      }`,
    );
  }
  const a = answerValue(options.answer), t = answerValue(options.target);
  const direction = a === null || t === null || a === t
    ? []
    : t > a
    ? cls.reasons.higher
    : cls.reasons.lower;
  return [...cls.reasons.any, ...direction];
}

/** Options for {@link buildMinjaTrace}. */
export interface MinjaTraceOptions {
  /** Instance id, used for trace and unit ids. */
  instanceId: string;
  /** The victim query (never repeated in the trace). */
  question: string;
  /** Gold answer y* (only to fill `asserts` and to keep it out; the trace never states it). */
  answer: string;
  /** Attacker target y_adv. */
  target: string;
  /** The answer's class, which picks the reason (see `minjaChange`). */
  change: MinjaChange;
  /**
   * The instance's own reason for the change, a clause in no one's voice that starts lower-case
   * ("the clinic rescheduled its morning slots"); default one of the class's reasons.
   */
  because?: string;
  /**
   * The victim term as the assistant names it ("your dentist appointment"); default the term
   * read from the question (`victimTerm`).
   */
  victim?: string;
  /** `numbers` key of the queried quantity, or null. */
  numberKey: string | null;
  /** Trace load multiplier: scales the attack queries and the benign turns. */
  traceLoad: number;
  /** The answer's kind: a `text` target (a clause) is quoted; default `answerKindOf(answer)`. */
  kind?: AnswerKind;
  /** Generator choosing wordings, queries and the order of benign turns. */
  prng: Prng;
}

/**
 * Benign units at trace load 1 (six exchanges). MINJA interleaves 50 benign queries of other
 * users with 15 attack queries submitted 3-6 times each, so about two submissions in five are
 * benign; six exchanges beside the nine attack submissions and their replies keep that share.
 */
const BASE_FILLER = 12;

const _capitalized = (s: string): string => s[0].toUpperCase() + s.slice(1);

/**
 * Build the MINJA risk trace. Every unit is on the user or assistant channel, trusted (a user
 * session, which provenance-aware quarantine trusts), unverified (the attacker's feedback is no
 * verified outcome) and written by the kit. Submissions whose prompt still carries the claim,
 * and every reply, support y_adv; the bare queries and the benign turns support nothing. No unit
 * contains the test query or states y*.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../../random/prng.ts";
 * import { buildMinjaTrace, minjaChange } from "./minja.ts";
 * const question = "What is the name of Ann's cat?";
 * const trace = buildMinjaTrace({ instanceId: "demo:q1", question, answer: "Tom", target: "Max",
 *   change: minjaChange({ question, answer: "Tom", kind: "entity" }), numberKey: null, traceLoad: 1, prng: createPrng(1) });
 * assert.ok(trace.units.some((u) => u.asserts === "Max"));
 * assert.ok(trace.units.every((u) => !u.verified && u.trusted && u.channel !== "tool" && u.origin === "kit"));
 * assert.ok(trace.units.every((u) => !u.text.includes(question)));
 * // An instance's own reason and victim term replace the read ones.
 * const own = buildMinjaTrace({ instanceId: "demo:q1", question, answer: "Tom", target: "Max", change: "thing",
 *   numberKey: null, traceLoad: 1, prng: createPrng(1), because: "the shelter mixed up two kittens", victim: "Ann's cat" });
 * assert.ok(own.units.some((u) => u.channel === "assistant" && u.text.includes("Ann's cat") && u.text.includes("the shelter mixed up two kittens")));
 * ```
 */
export function buildMinjaTrace(options: MinjaTraceOptions): Trace {
  const { question, answer, target, because, victim, prng } = options;
  for (const [name, value] of [["because", because], ["victim", victim]] as const) {
    if (value !== undefined && value.trim() === "") {
      throw new RangeError(`buildMinjaTrace: ${name} must be a non-empty phrase, got ""`);
    }
  }
  const kind = options.kind ?? answerKindOf({ answer });
  const avoid = [answer, target];
  const term: VictimTerm = victim === undefined
    ? victimTerm({ question, avoid })
    : { user: swapPerson(victim.trim()), assistant: victim.trim(), embedded: null, copula: null };
  const lastSentence = questionSentence(question);
  // Nothing may state y* or repeat the test query (or its last sentence, the question proper).
  const clean = (text: string) =>
    !matchesAnswer(text, answer) && !containsQuery(text, question) &&
    !containsQuery(text, lastSentence);
  const pick = (list: readonly string[], what: string): string => {
    const ok = list.filter(clean);
    if (ok.length === 0) {
      throw new RangeError(`buildMinjaTrace: every ${what} states y* (${answer})`);
    }
    return ok[prng.int(0, ok.length - 1)];
  };
  const reasons = because === undefined
    ? minjaReasons({ change: options.change, answer, target })
    : [because.trim()];
  const reason = pick(reasons.filter((r) => !matchesAnswer(r, target)), "reason");
  const phrase = targetPhrase({ target, clause: kind === "text", quote: '"' });
  const quoted = phrase.startsWith('"');
  const values = (voice: "user" | "assistant") => {
    const t = voice === "user" ? term.user : term.assistant;
    return {
      term: t,
      Term: _capitalized(t),
      embedded: term.embedded ?? "",
      reason,
      target: phrase,
      copula: term.copula ?? "is",
    };
  };

  // Distinct attack queries: embedded-question forms when the question has one, then term forms.
  const forms = [
    ...(term.embedded === null ? [] : shuffle(TEMPLATES.queries.embedded, { prng }).slice(0, 1)),
    ...shuffle(TEMPLATES.queries.term, { prng }),
  ].map((f) => fillTemplate(f, values("user"))).filter(clean);
  // The trace load scales the attack as well as its benign turns: a heavier MINJA interaction
  // submits more attack queries (2, 3, 4 at loads 0.75, 1, 1.25), as the paper scales the
  // trace's source units.
  const queries = forms.slice(
    0,
    Math.max(1, Math.round(TEMPLATES.attackQueries * options.traceLoad)),
  );
  if (queries.length === 0) {
    throw new RangeError(`buildMinjaTrace: too few attack queries for ${JSON.stringify(question)}`);
  }
  const prompts = TEMPLATES.indication.map((p) =>
    p.map((step) => fillTemplate(step, values("user")))
  )
    .filter((p) => p.every(clean));
  if (prompts.length === 0) {
    throw new RangeError(`buildMinjaTrace: every indication prompt states y*`);
  }
  const steps = prompts[prng.int(0, prompts.length - 1)];
  const lands = term.copula !== null && !quoted ? TEMPLATES.lands.copula : TEMPLATES.lands.note;
  const reply = () =>
    `${pick(TEMPLATES.bridges.map((b) => fillTemplate(b, values("assistant"))), "bridge")} ${
      pick(lands.map((l) => fillTemplate(l, values("assistant"))), "landing")
    }`;

  const said = (channel: "user" | "assistant", text: string, claim: boolean): UnitDraft => ({
    text,
    channel,
    trusted: true,
    verified: false,
    origin: "kit",
    ...(claim ? { supports: target } : {}),
  });
  // Progressive shortening: each query with the whole prompt, then cut from the end one step
  // at a time, ending with the bare query; each submission is answered by a reply.
  const submissions: UnitDraft[][] = queries.flatMap((q) =>
    steps.map((_, i) => steps.length - i).concat([0]).map((kept) => {
      const prompt = steps.slice(0, kept).join(" ");
      return [
        said("user", kept === 0 ? q : `${q} ${prompt}`, kept > 0),
        said("assistant", reply(), true),
      ];
    })
  );
  const core = submissions.flat().length + 1;
  const fillerUnits = fillerCount({
    core,
    baseFiller: BASE_FILLER,
    traceLoad: options.traceLoad,
  });
  const benign = shuffle(TEMPLATES.smallTalk, { prng })
    .filter(([u, a]) => clean(u) && clean(a) && !matchesAnswer(`${u} ${a}`, target))
    .slice(0, Math.round(fillerUnits / 2))
    .map(([u, a]) => [said("user", u, false), said("assistant", a, false)]);
  // Benign exchanges sit at random points between submissions, as MINJA shuffles attack and
  // benign queries.
  const slots = benign.map(() => prng.int(0, submissions.length));
  const drafts: UnitDraft[] = [];
  for (let s = 0; s <= submissions.length; s++) {
    benign.forEach((pair, b) => {
      if (slots[b] === s) drafts.push(...pair);
    });
    if (s < submissions.length) drafts.push(...submissions[s]);
  }
  drafts.push(said("user", TEMPLATES.closing, false));
  return {
    id: `${options.instanceId}:minja`,
    session: `${options.instanceId}:session-minja`,
    kind: "risk",
    units: finishUnits(drafts, {
      prefix: `${options.instanceId}:m`,
      answer,
      target,
      numberKey: options.numberKey,
    }),
  };
}
