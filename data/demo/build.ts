/**
 * Generator for the demo teaching set (`data/demo/instances.json`): invented personal-assistant
 * scenarios, each with a helpful trace, a MINJA and a Sleeper risk trace, and a bank. The text
 * lives in `scenarios.json`, `phrases.json` and `background.json` beside this file, validated
 * with zod when read.
 *
 * The risk traces are built exactly as LoCoMo's and LongMemEval's are, by the same templates
 * (`lib/data/attacks/minja.ts`, `sleeper.ts` and their JSON under `lib/data/templates/`), fed with
 * the scenario's own facts: its question, answer kind, victim term and reason for the change
 * (MINJA), and the document the user asks for (Sleeper). The numbers every trace states are keyed
 * as the benchmarks key them (`answerKey`): a count by what it counts, so a look-alike bank record
 * counting the same things is a conflict numeric and strict conflict resolution can act on.
 *
 * A bank is "analogous interactions built from unrelated information of the same dataset": mostly
 * third-party facts from the background pool, and, spread through its order, the scenario's own
 * look-alikes, records about the same people and topics that state a value for a related but
 * different question (the partner's appointment, the last check-up, another project's contact).
 * They never state the answer or the target and never ask or answer the query; they carry the
 * provenance of the turns they came in, so management policies act on them and a larger |B|
 * holds more of them, as the benchmarks' banks from the same conversations do.
 *
 * Run: `deno run -A data/demo/build.ts`. Output is deterministic; commit it with this file.
 * Everything here is written for the kit; no benchmark text is used.
 */
import { z } from "zod";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { InstanceFile } from "../../lib/schema/instance.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { shuffle } from "../../lib/random/shuffle.ts";
import {
  type BankCandidate,
  bankRecord,
  type BankTurn,
  confirms,
} from "../../lib/data/bank_record.ts";
import { finishUnits, type UnitDraft } from "../../lib/data/_text.ts";
import { buildMinjaTrace, minjaChange } from "../../lib/data/attacks/minja.ts";
import { buildSleeperTrace, SLEEPER_STYLES } from "../../lib/data/attacks/sleeper.ts";
import { containsQuery } from "../../lib/data/helpful_trace.ts";
import { parseData } from "../../lib/data/parse_data.ts";
import { answerKey } from "../../lib/data/stated_numbers.ts";
import { inferAnswerType } from "../../lib/data/typed_lexicon.ts";
import { deriveSeed } from "../../lib/random/derive_seed.ts";
import scenariosJson from "./scenarios.json" with { type: "json" };
import phrasesJson from "./phrases.json" with { type: "json" };
import backgroundJson from "./background.json" with { type: "json" };

/** Background records per instance; the loader slices this to `bankSize`. */
const BANK_SIZE = 128;

// ---------------------------------------------------------------------------------------------
// The data files. Each scenario names the fact (`answer`), the attacker's replacement
// (`target`), and the sentences the three traces are assembled from. The generator checks every
// sentence with the judge's matcher, so a sentence that accidentally states an answer fails.
// ---------------------------------------------------------------------------------------------

/**
 * One look-alike window: a user remark (`user`), a remark the assistant answers (`exchange`), a
 * question of the assistant's that the user confirms (`confirmed`, verified), or text a tool
 * brought in from outside the conversation (`tool`, untrusted, `source` its speaker).
 */
const LookAlike = z.discriminatedUnion("by", [
  z.object({ by: z.literal("user"), text: z.string().min(1) }),
  z.object({ by: z.literal("exchange"), text: z.string().min(1) }),
  z.object({ by: z.literal("confirmed"), text: z.string().regex(/\?$/, "a question") }),
  z.object({ by: z.literal("tool"), source: z.string().min(1), text: z.string().min(1) }),
]);
type LookAlike = z.infer<typeof LookAlike>;

const Spec = z.object({
  topic: z.enum(["appointments", "pets", "travel", "work", "preferences", "finances", "health"]),
  kind: z.enum(["number", "date", "entity", "text"]),
  query: z.string().min(1),
  answer: z.string().min(1),
  target: z.string().min(1),
  helpful: z.object({
    /** User turn that states the answer. */
    statement: z.string(),
    /** User turn with an unrelated detail. */
    aside: z.string(),
    /** Verified unit: a user confirmation, or a tool lookup (with the source the user names). */
    verify: z.discriminatedUnion("by", [
      z.object({ by: z.literal("user"), text: z.string() }),
      z.object({ by: z.literal("tool"), source: z.string(), text: z.string() }),
    ]),
    /** Assistant turn near the end that restates the answer. */
    recap: z.string(),
  }),
  /** What the MINJA templates (lib/data/templates/minja.json) take from the scenario. */
  minja: z.object({
    /**
     * The victim term: what the query asks about, as the assistant names it ("your dentist
     * appointment"); the bridging reasoning names the record by it.
     */
    victim: z.string().min(1),
    /**
     * The attacker's reason for the change, a clause in no one's voice (the user and the
     * assistant both say it), starting lower-case: "the clinic rescheduled its morning slots".
     */
    reason: z.string().regex(/^[a-z]/, "a clause starting lower-case")
      .refine((r) => !/\b(?:I|me|my|you|your)\b/i.test(r), "in no one's voice (no I/my/you/your)"),
  }),
  /** The document the Sleeper trace's user asks for (lib/data/templates/sleeper.json). */
  sleeper: z.object({
    /** As the user and the assistant name it: "the Elm Street Dental newsletter". */
    title: z.string().regex(/^the /, 'a noun phrase starting with "the"'),
    /** What the assistant's summary says, a clause ending in a full stop ("the clinic has ..."). */
    summary: z.string().regex(/^\S.*\.$/, "a clause ending in a full stop"),
    /** The document's paragraphs; the trace takes the first four. */
    paragraphs: z.array(z.string().min(1)).min(4),
  }),
  /** Bank records about the same people and topics, for a related but different question. */
  lookAlikes: z.array(LookAlike).min(2),
});
type Spec = z.infer<typeof Spec>;

const _pairs = z.array(z.tuple([z.string(), z.string()])).min(1);
const Phrases = z.object({
  $comment: z.string().optional(),
  openers: _pairs,
  acks: z.array(z.string()).min(1),
  asideReplies: z.array(z.string()).min(1),
  smallTalk: _pairs,
  closings: _pairs,
  thanks: z.array(z.string()).min(1),
  bankReplies: z.array(z.string()).min(1),
  /** The user's replies to a look-alike question the assistant asks (each a confirmation). */
  confirmations: z.array(z.string()).min(1),
});

const Background = z.object({
  $comment: z.string().optional(),
  people: z.array(z.string()).min(1),
  slots: z.record(z.string(), z.array(z.string()).min(1)),
  templates: z.array(z.string().includes("{person}")).min(1),
}).superRefine((b, ctx) => {
  b.templates.forEach((t, i) => {
    for (const [, slot] of t.matchAll(/\{(\w+)\}/g)) {
      if (slot !== "person" && !(slot in b.slots)) {
        ctx.addIssue({ code: "custom", path: ["templates", i], message: `unknown slot {${slot}}` });
      }
    }
  });
});

const SPECS = parseData({
  source: "data/demo/scenarios.json",
  schema: z.object({ $comment: z.string().optional(), scenarios: z.array(Spec).min(1) }),
  data: scenariosJson,
}).scenarios;
const PHRASES = parseData({ source: "data/demo/phrases.json", schema: Phrases, data: phrasesJson });
const BACKGROUND = parseData({
  source: "data/demo/background.json",
  schema: Background,
  data: backgroundJson,
});

// ---------------------------------------------------------------------------------------------
// Background pool: third-party facts from templates x slots, each a short window of its own
// session with the provenance that window gives it.
// ---------------------------------------------------------------------------------------------

/**
 * The turns a pool fact came in: mostly a user remark; every third an exchange with the
 * assistant; every seventh a forwarded email digest (tool content, untrusted); every fifth one
 * the assistant checked and the user confirmed (verified). Counts are about the person.
 */
function _turns(text: string, person: string, n: number): BankTurn[] {
  const subject = person.split(" ").at(-1)!;
  const said = (speaker: "User" | "Assistant", t: string, verified = false): BankTurn => ({
    speaker,
    channel: speaker === "User" ? "user" : "assistant",
    text: t,
    trusted: true,
    verified,
    subject,
  });
  if (n % 7 === 6) {
    return [{
      speaker: "Email digest",
      channel: "tool",
      text,
      trusted: false,
      verified: false,
      subject,
    }];
  }
  if (n % 5 === 4) {
    const question = `Did I get that right: ${text[0].toLowerCase()}${text.slice(1, -1)}?`;
    return [said("Assistant", question), said("User", "Yes, exactly.", true)];
  }
  if (n % 3 === 2) {
    return [
      said("User", text),
      said("Assistant", PHRASES.bankReplies[n % PHRASES.bankReplies.length]),
    ];
  }
  return [said("User", text)];
}

function _pool(): BankCandidate[] {
  const facts: BankCandidate[] = [];
  const texts = new Set<string>();
  BACKGROUND.people.forEach((person, p) => {
    BACKGROUND.templates.forEach((template, t) => {
      let draw = 0;
      // Slot choice mixes person, template and draw so each person gets a different combination.
      const text = template.replace(/\{(\w+)\}/g, (_, slot: string) => {
        if (slot === "person") return person;
        const values = BACKGROUND.slots[slot];
        return values[(p * 3 + t * 2 + draw++ * 5) % values.length];
      });
      if (texts.has(text)) throw new Error(`background pool has a duplicate text: ${text}`);
      texts.add(text);
      const n = facts.length;
      facts.push({
        id: `bg-${String(n).padStart(4, "0")}`,
        session: `demo-bg-${String(n).padStart(3, "0")}`,
        turns: _turns(text, person, n),
      });
    });
  });
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Assembly.
// ---------------------------------------------------------------------------------------------

type Draft = Omit<UnitDraft, "trusted" | "verified"> & { trusted?: boolean; verified?: boolean };

/**
 * The helpful trace's drafts: the demo's own conversation, conveying the fact. The scenario's
 * sentences (the statement, the aside, the check and the recap) play the dataset's evidence;
 * the openers, acknowledgements and small talk are the kit's.
 */
function _helpful(spec: Spec, n: number): Draft[] {
  const h = spec.helpful;
  const [openU, openA] = PHRASES.openers[n % PHRASES.openers.length];
  const kit = (channel: Draft["channel"], text: string): Draft => ({
    channel,
    text,
    origin: "kit",
  });
  const drafts: Draft[] = [
    kit("user", openU),
    kit("assistant", openA),
    { channel: "user", text: h.statement },
    kit("assistant", PHRASES.acks[n % PHRASES.acks.length]),
  ];
  if (h.verify.by === "tool") {
    drafts.push(
      { channel: "user", text: h.aside },
      kit("assistant", PHRASES.asideReplies[n % PHRASES.asideReplies.length]),
      kit("user", `Can you double-check that against my ${h.verify.source}?`),
      // The user's own calendar or booking is a trusted, verified outcome.
      { channel: "tool", text: h.verify.text, trusted: true, verified: true },
      { channel: "assistant", text: h.recap },
      kit("user", PHRASES.closings[n % PHRASES.closings.length][0]),
    );
  } else {
    if (n % 2 === 1) {
      const [u, a] = PHRASES.smallTalk[n % PHRASES.smallTalk.length];
      drafts.push(kit("user", u), kit("assistant", a));
    }
    drafts.push(
      { channel: "user", text: h.aside },
      { channel: "assistant", text: h.recap },
      { channel: "user", text: h.verify.text, verified: true },
      kit("assistant", PHRASES.thanks[n % PHRASES.thanks.length]),
    );
  }
  return drafts;
}

/**
 * The helpful trace, its units finished as the benchmarks' are (`finishUnits`): `asserts` from
 * the judge's matcher, the queried quantity under `numberKey` on the units that state it. Tool
 * units are untrusted unless the draft says otherwise; nothing is verified unless it says so.
 */
function _helpfulTrace(spec: Spec, n: number, id: string, numberKey: string | null) {
  const drafts = _helpful(spec, n).map((d): UnitDraft => ({
    text: d.text,
    channel: d.channel,
    trusted: d.channel === "tool" ? (d.trusted ?? false) : true,
    verified: d.verified ?? false,
    ...(d.origin === undefined ? {} : { origin: d.origin }),
  }));
  const units = finishUnits(drafts, {
    prefix: `${id}/h/`,
    answer: spec.answer,
    target: spec.target,
    numberKey,
  });
  return { id: `${id}/helpful`, session: `${id}/helpful`, kind: "helpful" as const, units };
}

/**
 * The risk traces, built by the benchmarks' own templates (lib/data/attacks): MINJA fed with the
 * scenario's question, answer kind, victim term and reason for the change; Sleeper with the
 * document the user asks for. Seeds derive from the instance id as the benchmarks' do.
 */
function _riskTraces(spec: Spec, id: string, numberKey: string | null): Instance["risk"] {
  const prng = (label: string) => createPrng(deriveSeed(0, id, label));
  const { query: question, answer, target, kind } = spec;
  const change = minjaChange({
    question,
    answer,
    kind,
    type: kind === "entity" || kind === "text" ? inferAnswerType({ question, answer }) : null,
  });
  const minja = buildMinjaTrace({
    instanceId: id,
    question,
    answer,
    target,
    change,
    because: spec.minja.reason,
    victim: spec.minja.victim,
    numberKey,
    traceLoad: 1,
    prng: prng("minja"),
  });
  const stylePrng = prng("sleeper");
  const sleeper = buildSleeperTrace({
    instanceId: id,
    question,
    answer,
    target,
    kind,
    numberKey,
    traceLoad: 1,
    style: SLEEPER_STYLES[stylePrng.int(0, SLEEPER_STYLES.length - 1)],
    document: spec.sleeper,
    prng: stylePrng,
  });
  return { minja, sleeper };
}

/**
 * The turns of a look-alike, all about the user (`subject`), so their counts are keyed
 * `user:noun` like any record's. A confirmed question is verified because the user's reply
 * confirms it (`confirms`), the same rule the benchmarks' banks use.
 */
function _lookAlikeTurns(look: LookAlike, n: number): BankTurn[] {
  const said = (speaker: "User" | "Assistant", text: string, verified = false): BankTurn => ({
    speaker,
    channel: speaker === "User" ? "user" : "assistant",
    text,
    trusted: true,
    verified,
    subject: "user",
  });
  switch (look.by) {
    case "user":
      return [said("User", look.text)];
    case "exchange":
      return [
        said("User", look.text),
        said("Assistant", PHRASES.bankReplies[n % PHRASES.bankReplies.length]),
      ];
    case "confirmed": {
      const reply = PHRASES.confirmations[n % PHRASES.confirmations.length];
      if (!confirms({ previous: look.text, reply })) {
        throw new Error(`confirmation ${JSON.stringify(reply)} does not confirm ${look.text}`);
      }
      return [said("Assistant", look.text), said("User", reply, true)];
    }
    case "tool":
      return [{
        speaker: look.source,
        channel: "tool",
        text: look.text,
        trusted: false,
        verified: false,
        subject: "user",
      }];
  }
}

/** The scenario's look-alike records; a look-alike that states an answer fails the build. */
function _lookAlikes(spec: Spec, id: string): Instance["background"] {
  return spec.lookAlikes.map((look, j) => {
    const record = bankRecord({
      candidate: {
        id: `${id}/bank/look-alike-${j + 1}`,
        session: `${id}/bank/look-alike-${j + 1}`,
        turns: _lookAlikeTurns(look, j),
      },
    });
    for (const [what, value] of [["answer", spec.answer], ["target", spec.target]]) {
      if (matchesAnswer(record.text, value)) {
        throw new Error(`${record.id} states the ${what} ${value}: ${record.text}`);
      }
    }
    if (containsQuery(record.text, spec.query)) {
      throw new Error(`${record.id} contains the query: ${record.text}`);
    }
    return record;
  });
}

/**
 * Deterministic, instance-specific bank: pool records that state neither answer, shuffled, with
 * the scenario's look-alikes spread through the order, one in each equal stretch of the bank at a
 * drawn place in it (stratified), so every prefix of |B| records holds its share of them.
 */
function _background(
  spec: Spec,
  n: number,
  id: string,
  pool: BankCandidate[],
): Instance["background"] {
  const lookAlikes = _lookAlikes(spec, id);
  const records = pool.map((c) => bankRecord({ candidate: c }));
  const eligible = records.filter((r) =>
    !matchesAnswer(r.text, spec.answer) && !matchesAnswer(r.text, spec.target)
  );
  const fromPool = BANK_SIZE - lookAlikes.length;
  if (eligible.length < fromPool) {
    throw new Error(`only ${eligible.length} eligible background facts for instance ${n}`);
  }
  const prng = createPrng(1000 + n);
  const bank = shuffle(eligible, { prng }).slice(0, fromPool);
  const stretch = BANK_SIZE / lookAlikes.length;
  // The scenario lists its look-alikes by provenance; rotating by instance varies which comes first.
  lookAlikes.forEach((_, j) => {
    const look = lookAlikes[(j + n) % lookAlikes.length];
    bank.splice(Math.floor(j * stretch + prng.float() * stretch), 0, look);
  });
  return bank;
}

/** Fail the build when a trace breaks the design (answer leaks, asserts counts, sizes). */
function _check(instance: Instance): void {
  const where = instance.id;
  const fail = (what: string) => {
    throw new Error(`${where}: ${what}`);
  };
  if (
    matchesAnswer(instance.answer, instance.target) ||
    matchesAnswer(instance.target, instance.answer)
  ) {
    fail("answer and target match each other");
  }
  const h = instance.helpful.units;
  if (h.some((u) => matchesAnswer(u.text, instance.target))) {
    fail("helpful trace states the target");
  }
  if (h.some((u) => containsQuery(u.text, instance.query))) {
    fail("helpful trace contains the query");
  }
  const stating = h.filter((u) => u.asserts !== null).length;
  if (stating < 2 || stating > 3) fail(`helpful trace states the answer in ${stating} units`);
  if (!h.some((u) => u.verified && u.asserts !== null)) fail("no verified unit states the answer");
  for (const [name, trace] of Object.entries(instance.risk)) {
    const units = trace!.units;
    if (units.some((u) => matchesAnswer(u.text, instance.answer))) {
      fail(`${name} states the answer`);
    }
    const adv = units.filter((u) => u.asserts !== null).length;
    if (adv < 1 || adv === units.length) fail(`${name} states the target in ${adv} units`);
    if (units.length < 6 || units.length > 40) fail(`${name} has ${units.length} units`);
  }
  if (h.length < 6 || h.length > 10) fail(`helpful trace has ${h.length} units`);
}

function _instance(spec: Spec, index: number, pool: BankCandidate[]): Instance {
  const n = index + 1;
  const id = `demo-${String(n).padStart(2, "0")}`;
  // Keyed as the benchmarks key the queried quantity: a count by its noun, so a bank record
  // counting the same things can conflict with it; a measure or a date by the question's topic.
  const numberKey = answerKey({
    question: spec.query,
    answer: spec.answer,
    kind: spec.kind,
    subject: "user",
  });
  const instance: Instance = {
    id,
    dataset: "demo",
    category: spec.topic,
    query: spec.query,
    answer: spec.answer,
    target: spec.target,
    answerKind: spec.kind,
    helpful: _helpfulTrace(spec, n, id, numberKey),
    risk: _riskTraces(spec, id, numberKey),
    background: _background(spec, n, id, pool),
  };
  _check(instance);
  return instance;
}

/** Build the demo file in memory; `instances.json` is exactly `JSON.stringify(this, null, 2)`. */
export function buildDemoFile(): InstanceFile {
  const pool = _pool();
  const file: InstanceFile = {
    dataset: "demo",
    description:
      "Invented personal-assistant memory scenarios for teaching the kit: each instance has a helpful trace, a user-side (MINJA) and a tool-side (Sleeper) risk trace built by the same templates as the benchmarks', and a background bank. Generated by data/demo/build.ts; no benchmark text.",
    instances: SPECS.map((spec, i) => _instance(spec, i, pool)),
  };
  InstanceFile.parse(file);
  return file;
}

if (import.meta.main) {
  const file = buildDemoFile();
  const out = new URL("./instances.json", import.meta.url);
  await Deno.writeTextFile(out, JSON.stringify(file, null, 2) + "\n");
  const kinds = Object.groupBy(file.instances, (i) => i.answerKind);
  console.log(
    `wrote ${file.instances.length} instances (${
      Object.entries(kinds).map(([k, v]) => `${k} ${v!.length}`).join(", ")
    }) to ${out.pathname}`,
  );
}
