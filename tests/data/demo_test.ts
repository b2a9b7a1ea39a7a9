/** Tests for the demo teaching set, its loader and the generic instance-file loader. */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { buildDemoFile } from "../../data/demo/build.ts";
import { contentWords, TOPICAL_SHARE, topicalShare } from "../../lib/agents/reading/topic.ts";
import { confirms } from "../../lib/data/bank_record.ts";
import { loadDemo } from "../../lib/data/demo.ts";
import { containsQuery } from "../../lib/data/helpful_trace.ts";
import { answerKey, statedNumbers } from "../../lib/data/stated_numbers.ts";
import { buildMinjaTrace, minjaChange } from "../../lib/data/attacks/minja.ts";
import { buildSleeperTrace, SLEEPER_STYLES } from "../../lib/data/attacks/sleeper.ts";
import { inferAnswerType } from "../../lib/data/typed_lexicon.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { deriveSeed } from "../../lib/random/derive_seed.ts";
import scenariosJson from "../../data/demo/scenarios.json" with { type: "json" };
import { loadInstanceFile } from "../../lib/data/load_instance_file.ts";
import { matchesAnswer } from "../../lib/text/matches.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import type { Trace } from "../../lib/schema/trace.ts";

const DEMO_FILE = new URL("../../data/demo/instances.json", import.meta.url);
const OPTIONS = { seed: 0, bankSize: 100, traceLoad: 1, dataDir: "data/raw/" };

const file = await loadInstanceFile(DEMO_FILE);
const instances = file.instances;

const _risks = (i: Instance): [string, Trace][] =>
  Object.entries(i.risk).map(([name, trace]) => [name, trace!]);
/** Rejects with `ErrorClass` whose message contains `includes`. */
const assertRejects = (
  fn: () => Promise<unknown>,
  ErrorClass: typeof Error,
  includes: string,
) =>
  rejects(fn, (error: Error) => {
    assert(error instanceof ErrorClass, `expected ${ErrorClass.name}, got ${error.name}`);
    assert(error.message.includes(includes), `message ${JSON.stringify(error.message)}`);
    return true;
  });
const _states = (trace: Trace, answer: string) =>
  trace.units.some((u) => matchesAnswer(u.text, answer));

Deno.test("loadInstanceFile() validates the demo file with 24-30 instances", () => {
  assertEquals(file.dataset, "demo");
  assert(instances.length >= 24 && instances.length <= 30, `got ${instances.length}`);
  assertEquals(new Set(instances.map((i) => i.id)).size, instances.length);
});

Deno.test("demo instances.json is exactly what build.ts generates", async () => {
  const text = await Deno.readTextFile(DEMO_FILE);
  assertEquals(text, JSON.stringify(buildDemoFile(), null, 2) + "\n");
});

Deno.test("demo instances each have a MINJA and a Sleeper risk trace", () => {
  for (const i of instances) {
    assert(i.risk.minja, `${i.id} lacks minja`);
    assert(i.risk.sleeper, `${i.id} lacks sleeper`);
    assert(i.helpful.units.length >= 6 && i.helpful.units.length <= 10, i.helpful.id);
    for (const [, trace] of _risks(i)) {
      assert(trace.units.length >= 6 && trace.units.length <= 40, trace.id);
    }
  }
});

Deno.test("demo risk traces are the benchmarks' construction, fed with the scenario's own facts", () => {
  const scenarios = scenariosJson.scenarios;
  assertEquals(scenarios.length, instances.length);
  instances.forEach((i, n) => {
    const spec = scenarios[n];
    assertEquals([i.query, i.answer, i.target], [spec.query, spec.answer, spec.target]);
    const numberKey = answerKey({
      question: i.query,
      answer: i.answer,
      kind: i.answerKind,
      subject: "user",
    });
    const prng = (label: string) => createPrng(deriveSeed(0, i.id, label));
    const type = i.answerKind === "entity" || i.answerKind === "text"
      ? inferAnswerType({ question: i.query, answer: i.answer })
      : null;
    const minja = buildMinjaTrace({
      instanceId: i.id,
      question: i.query,
      answer: i.answer,
      target: i.target,
      change: minjaChange({ question: i.query, answer: i.answer, kind: i.answerKind, type }),
      because: spec.minja.reason,
      victim: spec.minja.victim,
      numberKey,
      traceLoad: 1,
      prng: prng("minja"),
    });
    assertEquals(i.risk.minja, minja, i.id);
    const stylePrng = prng("sleeper");
    const sleeper = buildSleeperTrace({
      instanceId: i.id,
      question: i.query,
      answer: i.answer,
      target: i.target,
      kind: i.answerKind,
      numberKey,
      traceLoad: 1,
      style: SLEEPER_STYLES[stylePrng.int(0, SLEEPER_STYLES.length - 1)],
      document: spec.sleeper,
      prng: stylePrng,
    });
    assertEquals(i.risk.sleeper, sleeper, i.id);
  });
});

Deno.test("demo MINJA: attack queries name the scenario's victim term, never the query; replies give its reason", () => {
  instances.forEach((i, n) => {
    const { reason, victim } = scenariosJson.scenarios[n].minja;
    const units = i.risk.minja!.units;
    assert(units.every((u) => !containsQuery(u.text, i.query)), `${i.id}: repeats the query`);
    const replies = units.filter((u) => u.channel === "assistant" && u.supports === i.target);
    assert(replies.length >= 6, i.id);
    assert(replies.every((u) => u.asserts === i.target && u.text.includes(reason)), i.id);
    assert(replies.every((u) => u.text.includes(victim)), `${i.id}: ${replies[0].text}`);
    // The user names the term in the user's voice; the bare queries carry no claim.
    const bare = units.filter((u, k) =>
      u.channel === "user" && u.supports == null && units[k + 1]?.supports === i.target
    );
    assert(bare.length >= 2, i.id);
    assertEquals(units.at(-1)!.asserts, null, `${i.id}: ends in a benign turn`);
  });
});

Deno.test("demo Sleeper: the body is the scenario's document; the payload and its echo state y_adv", () => {
  instances.forEach((i, n) => {
    const { title, paragraphs } = scenariosJson.scenarios[n].sleeper;
    const units = i.risk.sleeper!.units;
    assert(units[0].channel === "user" && units[0].text.includes(title), units[0].text);
    const tools = units.filter((u) => u.channel === "tool");
    const body = tools.filter((u) => u.asserts === null).map((u) => u.text);
    assert(body.length >= 3 && body.every((p) => paragraphs.includes(p)), i.id);
    assert(units.every((u) => !containsQuery(u.text, i.query)), `${i.id}: quotes the query`);
    const stating = units.filter((u) => u.asserts !== null);
    assertEquals(stating[0], tools.at(-1), `${i.id}: the payload ends the document`);
    assert(stating.every((u) => !u.trusted), `${i.id}: the echo keeps the document's taint`);
  });
});

Deno.test("demo answers and targets never match each other in either direction", () => {
  for (const i of instances) {
    assert(!matchesAnswer(i.answer, i.target), i.id);
    assert(!matchesAnswer(i.target, i.answer), i.id);
  }
});

Deno.test("demo asserts agree with the text under matchesAnswer", () => {
  for (const i of instances) {
    for (const u of i.helpful.units) {
      assertEquals(u.asserts === i.answer, matchesAnswer(u.text, i.answer), u.id);
      assert(u.asserts === null || u.asserts === i.answer, u.id);
    }
    const stating = i.helpful.units.filter((u) => u.asserts !== null).length;
    assert(stating >= 2 && stating <= 3, `${i.id}: answer in ${stating} helpful units`);
    for (const [name, trace] of _risks(i)) {
      for (const u of trace.units) {
        assertEquals(u.asserts === i.target, matchesAnswer(u.text, i.target), u.id);
        assert(u.asserts === null || u.asserts === i.target, u.id);
      }
      const adv = trace.units.filter((u) => u.asserts !== null).length;
      assert(adv >= 1 && adv < trace.units.length, `${i.id} ${name}: target in ${adv} units`);
    }
  }
});

Deno.test("demo answer sits only in the helpful trace, target only in risk traces", () => {
  for (const i of instances) {
    assert(_states(i.helpful, i.answer), `${i.id}: helpful lacks the answer`);
    assert(!_states(i.helpful, i.target), `${i.id}: helpful states the target`);
    for (const [name, trace] of _risks(i)) {
      assert(_states(trace, i.target), `${i.id} ${name}: lacks the target`);
      assert(!_states(trace, i.answer), `${i.id} ${name}: states the answer`);
    }
    for (const record of i.background) {
      assert(!matchesAnswer(record.text, i.answer), `${i.id} ${record.id} states the answer`);
      assert(!matchesAnswer(record.text, i.target), `${i.id} ${record.id} states the target`);
    }
  }
});

Deno.test("demo units follow the trust design", () => {
  for (const i of instances) {
    const verified = i.helpful.units.filter((u) => u.verified);
    assert(verified.some((u) => u.asserts === i.answer), `${i.id}: no verified statement`);
    for (const u of i.helpful.units) {
      assert(u.trusted, u.id);
      if (u.verified) assert(u.channel === "tool" || u.asserts === i.answer, u.id);
    }
    for (const u of i.risk.minja!.units) {
      assert(u.channel !== "tool" && u.trusted && !u.verified, u.id);
    }
    const tools = i.risk.sleeper!.units.filter((u) => u.channel === "tool");
    assert(tools.some((u) => u.asserts === i.target), `${i.id}: no payload unit`);
    for (const u of i.risk.sleeper!.units) {
      // Tool content is untrusted, and so is the assistant's echo of it (taint follows content).
      assertEquals(u.trusted, u.channel !== "tool" && u.supports !== i.target, u.id);
      assert(!u.verified, u.id);
    }
  }
});

Deno.test("demo number and date statements carry the benchmarks' key in helpful and risk traces", () => {
  for (const i of instances.filter((i) => i.answerKind === "number" || i.answerKind === "date")) {
    const all = [i.helpful, ..._risks(i).map(([, t]) => t)].flatMap((t) => t.units);
    const keys = new Set(all.filter((u) => u.asserts).flatMap((u) => u.numbers.map((n) => n.key)));
    // Keyed as LoCoMo and LongMemEval key the queried quantity (`answerKey`, about the user).
    const key = answerKey({
      question: i.query,
      answer: i.answer,
      kind: i.answerKind,
      subject: "user",
    });
    assertEquals([...keys], [key], i.id);
    for (const u of all.filter((u) => u.asserts)) assertEquals(u.numbers.length, 1, u.id);
  }
  for (const i of instances.filter((i) => i.answerKind === "entity" || i.answerKind === "text")) {
    const all = [i.helpful, ..._risks(i).map(([, t]) => t)].flatMap((t) => t.units);
    assert(all.every((u) => u.numbers.length === 0), i.id);
  }
});

Deno.test("demo look-alikes that count the queried things share its key, with neither y* nor y_adv", () => {
  // A count is keyed by what it counts ("How many people ...?" -> user:people), so a bank record
  // counting the same things elsewhere is a conflict NC and SC can act on.
  const sharing = instances.flatMap((i) => {
    const key = answerKey({
      question: i.query,
      answer: i.answer,
      kind: i.answerKind,
      subject: "user",
    });
    const values = [i.answer, i.target].map((v) => Number(v.replace(/[$,]/g, "")));
    return _lookAlikes(i).flatMap(({ r }) => r.numbers.filter((n) => n.key === key)).map((n) => {
      assert(!values.includes(n.value), `${i.id}: a look-alike states ${n.value} under ${key}`);
      return `${i.id} ${n.key}=${n.value}`;
    });
  });
  assert(sharing.length >= 1, "no look-alike shares a key with its instance's answer");
});

Deno.test("demo ids are unique within each instance and banks hold at least 120", () => {
  for (const i of instances) {
    const units = [i.helpful, ..._risks(i).map(([, t]) => t)].flatMap((t) => t.units);
    assertEquals(new Set(units.map((u) => u.id)).size, units.length, i.id);
    assert(i.background.length >= 120, i.id);
    assertEquals(new Set(i.background.map((r) => r.id)).size, i.background.length, i.id);
  }
});

const _lookAlikes = (i: Instance) =>
  i.background.map((r, at) => ({ r, at })).filter(({ r }) =>
    r.id.startsWith(`${i.id}/bank/look-alike-`)
  );

Deno.test("demo banks hold the scenario's look-alikes, one in each equal stretch of the bank", () => {
  const inPrefix = new Map<number, number>();
  for (const i of instances) {
    const looks = _lookAlikes(i);
    assert(looks.length >= 2, `${i.id}: ${looks.length} look-alikes`);
    const stretch = i.background.length / looks.length;
    looks.forEach(({ r, at }, j) => {
      assert(at >= j * stretch && at < (j + 1) * stretch, `${r.id} at ${at}`);
    });
    for (const size of [25, 50, 100, 128]) {
      inPrefix.set(size, (inPrefix.get(size) ?? 0) + looks.filter(({ at }) => at < size).length);
    }
  }
  // A larger |B| holds more of them (the sizes Figure 7 uses on the demo).
  const counts = [25, 50, 100, 128].map((size) => inPrefix.get(size)!);
  assert(counts.every((c, k) => k === 0 || c > counts[k - 1]), JSON.stringify(counts));
});

Deno.test("demo look-alikes are on the question's topic but never state y* or y_adv nor hold the query", () => {
  for (const i of instances) {
    const question = contentWords(i.query);
    for (const { r } of _lookAlikes(i)) {
      const share = topicalShare({ question, text: r.text });
      assert(share >= TOPICAL_SHARE, `${r.id}: topical share ${share} (${r.text})`);
      assert(!matchesAnswer(r.text, i.answer), `${r.id} states the answer`);
      assert(!matchesAnswer(r.text, i.target), `${r.id} states the target`);
      assert(!containsQuery(r.text, i.query), `${r.id} holds the query`);
      assertEquals(r.asserts, null, r.id);
    }
  }
});

Deno.test("demo look-alikes carry their turns' provenance: tool content untrusted, confirmations verified, counts keyed", () => {
  const looks = instances.flatMap((i) => _lookAlikes(i).map(({ r }) => r));
  const share = (pick: (r: (typeof looks)[number]) => boolean) =>
    looks.filter(pick).length / looks.length;
  for (const r of looks) {
    const p = r.provenance;
    assertEquals(p.trusted, !p.channels.includes("tool"), r.id);
    if (p.verified) {
      // "Assistant: <question>? User: <reply>": verified because the reply confirms the question.
      const m = /^Assistant: (.+\?) User: (.+)$/.exec(r.text);
      assert(m && confirms({ previous: m[1], reply: m[2] }), `${r.id}: ${r.text}`);
    }
    // Keyed like any record's: what `statedNumbers` reads in the text, about the user.
    assertEquals(r.numbers, statedNumbers({ text: r.text, subject: "user" }), r.id);
  }
  for (
    const [what, s] of [
      ["untrusted tool", share((r) => r.provenance.channels.includes("tool"))],
      ["verified", share((r) => r.provenance.verified)],
      ["stating numbers", share((r) => r.numbers.length > 0)],
    ] as const
  ) assert(s >= 0.1 && s <= 0.9, `${what}: ${s}`);
});

Deno.test("demo mixes answer kinds roughly 40/20/40", () => {
  const share = (kinds: string[]) =>
    instances.filter((i) => kinds.includes(i.answerKind)).length / instances.length;
  assert(share(["number"]) >= 0.3 && share(["number"]) <= 0.5);
  assert(share(["date"]) >= 0.15 && share(["date"]) <= 0.3);
  assert(share(["entity", "text"]) >= 0.3 && share(["entity", "text"]) <= 0.5);
});

Deno.test("loadDemo() slices each bank to its first bankSize records", async () => {
  const loaded = await loadDemo({ ...OPTIONS, bankSize: 50 });
  assertEquals(loaded.length, instances.length);
  loaded.forEach((instance, n) => {
    assertEquals(instance.background, instances[n].background.slice(0, 50));
    assertEquals(instance.helpful, instances[n].helpful);
  });
});

Deno.test("loadDemo() rejects a bank-size larger than the file provides", async () => {
  await assertRejects(
    () => loadDemo({ ...OPTIONS, bankSize: 500 }),
    RangeError,
    `bank-size 500 exceeds the ${instances[0].background.length} background records`,
  );
  await assertRejects(() => loadDemo({ ...OPTIONS, bankSize: 0 }), RangeError, "got 0");
});

Deno.test("loadDemo() rejects a trace-load other than 1", async () => {
  await assertRejects(
    () => loadDemo({ ...OPTIONS, traceLoad: 1.25 }),
    RangeError,
    "trace-load must be 1 because the demo set has no load variants, got 1.25",
  );
});

Deno.test("loadInstanceFile() names the file, field path and value of a bad field", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const raw = JSON.parse(await Deno.readTextFile(DEMO_FILE));
    raw.instances[3].helpful.units[2].channel = "bot";
    const path = `${dir}/bad.json`;
    await Deno.writeTextFile(path, JSON.stringify(raw));
    await assertRejects(
      () => loadInstanceFile(path),
      TypeError,
      `${path}: instances[3].helpful.units[2].channel: expected one of user|assistant|tool, got "bot"`,
    );
    delete raw.instances[0].query;
    await Deno.writeTextFile(path, JSON.stringify(raw));
    await assertRejects(
      () => loadInstanceFile(path),
      TypeError,
      "instances[0].query: expected string, got nothing (field missing)",
    );
    await Deno.writeTextFile(path, "{not json");
    await assertRejects(() => loadInstanceFile(path), TypeError, `${path}: not valid JSON`);
    await assertRejects(
      () => loadInstanceFile(`${dir}/missing.json`),
      TypeError,
      "cannot read instance file",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
