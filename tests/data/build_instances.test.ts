/** Builder invariants on every built instance: the fixture always, the benchmarks when present. */
import assert from "node:assert/strict";
import { parseDayDate } from "../../lib/text/day_date.ts";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { Instance } from "../../lib/schema/instance.ts";
import { answerKindOf } from "../../lib/data/answer_kind.ts";
import { targetProblem } from "../../lib/data/attack_targets.ts";
import { containsQuery } from "../../lib/data/helpful_trace.ts";
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { listItems } from "../../lib/data/typed_lexicon.ts";
import { agentMessages } from "../../lib/agents/memory_prompt.ts";
import { datasetStats } from "../../lib/data/dataset_stats.ts";
import { formatDayDate } from "../../lib/text/day_date.ts";
import { FIXTURE_DIR, SOURCES } from "./_built.ts";

// Builds are deterministic: build each option set once for all the tests that read it.
const _memo = new Map<string, ReturnType<typeof buildLocomo>>();
const _cached = (b: typeof buildLocomo, tag: string): typeof buildLocomo => (options) => {
  const key = JSON.stringify([tag, options]);
  if (!_memo.has(key)) _memo.set(key, b(options));
  return _memo.get(key)!;
};
const BUILDERS = {
  locomo: _cached(buildLocomo, "locomo"),
  longmemeval: _cached(buildLongMemEval, "longmemeval"),
} as const;

function _checkInstance(instance: Instance, bankSize: number): string[] {
  const problems: string[] = [];
  const { answer, target, query } = instance;
  const say = (what: string) => problems.push(`${instance.id}: ${what}`);
  if (matchesAnswer(target, answer) || matchesAnswer(answer, target)) {
    say(`target ${target} matches answer ${answer}`);
  }
  const helpful = instance.helpful.units;
  // The evidence is there, in the dataset's words; the kit states y* only where it quotes them.
  if (!helpful.some((u) => u.origin === "dataset" && u.supports === answer)) {
    say("helpful trace carries no evidence for y*");
  }
  const statedByDataset = helpful.some((u) => u.origin === "dataset" && u.asserts === answer);
  for (const u of helpful) {
    if (u.origin === "kit" && u.asserts !== null && !statedByDataset) {
      say(`kit-written helpful unit ${u.id} states y* where no evidence does`);
    }
  }
  // The query comes in a later session, on a date the agent is told.
  if (instance.queryDate === undefined) say("no query date");
  const day = (d: string | undefined) => d === undefined ? NaN : parseDayDate(d)?.getTime() ?? NaN;
  const times = [instance.helpful.sessionTime, instance.risk.minja?.sessionTime, instance.queryDate]
    .map(day);
  if (!(times[0] <= times[1] && times[1] <= times[2])) {
    say(
      `sessions out of order: ${instance.helpful.sessionTime}, ${instance.risk.minja?.sessionTime}, ${instance.queryDate}`,
    );
  }
  for (const [name, trace] of Object.entries(instance.risk)) {
    if (!trace) continue;
    if (!trace.units.some((u) => matchesAnswer(u.text, target))) {
      say(`${name} trace does not state y_adv`);
    }
    for (const u of trace.units) {
      if (matchesAnswer(u.text, answer)) say(`${name} unit ${u.id} states y*`);
      const want = matchesAnswer(u.text, target) ? target : null;
      if (u.asserts !== want) say(`${name} unit ${u.id} asserts ${u.asserts}, text says ${want}`);
      // Sleeper's document is tool content, untrusted, and so is the assistant's echo of its
      // claim (taint follows content); MINJA's user and assistant turns are trusted.
      const tainted = name === "sleeper" &&
        (u.channel === "tool" || (u.channel === "assistant" && u.supports === target));
      if (u.trusted === tainted) say(`${name} unit ${u.id} trust flag wrong`);
      if (u.verified) say(`${name} unit ${u.id} is verified`);
      if (u.origin !== "kit") say(`${name} unit ${u.id} is not marked as written by the kit`);
      if (containsQuery(u.text, query)) say(`${name} unit ${u.id} contains the test query`);
      if (name === "sleeper" && u.asserts !== null && u.trusted) {
        say(`sleeper y_adv in a trusted unit`);
      }
    }
  }
  for (const u of helpful) {
    if (matchesAnswer(u.text, target)) say(`helpful unit ${u.id} states y_adv`);
    if (containsQuery(u.text, query)) say(`helpful unit ${u.id} contains the test query`);
    const want = matchesAnswer(u.text, answer) ? answer : null;
    if (u.asserts !== want) say(`helpful unit ${u.id} asserts ${u.asserts}, text says ${want}`);
    if (!u.trusted) say(`helpful unit ${u.id} untrusted`);
    if (u.verified && u.channel !== "user") {
      say(`helpful unit ${u.id} verified off the user channel`);
    }
    if (
      (instance.answerKind === "number" || instance.answerKind === "date") && u.asserts !== null
    ) {
      if (u.numbers.length !== 1) say(`helpful unit ${u.id} lacks its number`);
    }
  }
  // When it ends with a confirmation, the assistant recaps evidence and the user confirms it.
  const [recap, confirm] = helpful.slice(-2);
  if (confirm.verified) {
    if (recap.channel !== "assistant" || recap.origin !== "kit" || recap.supports !== answer) {
      say("the confirmation does not follow the assistant's recap of the evidence");
    }
    if (confirm.channel !== "user" || confirm.origin !== "kit" || confirm.supports !== answer) {
      say("the confirmation is not the user's, or confirms nothing");
    }
  }
  if (helpful.filter((u) => u.verified).length > 1) say("more than one verified helpful unit");
  for (const r of instance.background) {
    if (matchesAnswer(r.text, answer)) say(`background ${r.id} states y*`);
    if (matchesAnswer(r.text, target)) say(`background ${r.id} states y_adv`);
    if (r.provenance.channels.length === 0) say(`background ${r.id} has no channel`);
    if (r.provenance.writtenAt !== 0) say(`background ${r.id} written after the traces`);
  }
  if (instance.background.length !== bankSize) {
    say(`bank has ${instance.background.length} records`);
  }
  // Where the evidence states y*'s number, the risk traces key y_adv's under the same quantity;
  // a total or a difference no unit states carries no key (numeric management has nothing to
  // compare: the agent does the arithmetic).
  const keys = (units: typeof helpful) => units.flatMap((u) => u.numbers.map((n) => n.key));
  for (const trace of [instance.risk.minja!, instance.risk.sleeper!]) {
    if (keys(helpful).length > 0 && keys(trace.units).some((k) => !keys(helpful).includes(k))) {
      say("number keys differ between helpful and risk");
    }
  }
  // Targets a reader would believe.
  const problem = targetProblem({ answer, target, kind: instance.answerKind, question: query });
  if (problem !== null) say(`target ${JSON.stringify(target)}: ${problem}`);
  return problems;
}

for (const source of SOURCES) {
  for (
    const [name, build] of Object.entries(BUILDERS) as [keyof typeof BUILDERS, typeof buildLocomo][]
  ) {
    const options = {
      seed: 0,
      bankSize: source.bankSize,
      traceLoad: 1,
      dataDir: source.dataDir,
      count: source.count[name],
    };

    Deno.test(`build ${name} (${source.name}): every instance keeps y* and y_adv apart and conveys y* without the query`, async () => {
      const built = await build(options);
      const instances = built.instances;
      assert.equal(instances.length, source.count[name]);
      assert.equal(new Set(instances.map((i) => i.id)).size, instances.length);
      const problems = instances.flatMap((i) => {
        Instance.parse(i);
        return _checkInstance(i, source.bankSize);
      });
      assert.deepEqual(problems, []);
    });

    Deno.test(`build ${name} (${source.name}): targets are type-checked and grammatical`, async () => {
      const { instances } = await build(options);
      for (const i of instances) {
        assert.ok(!/\b1\s+(?:months|weeks|days|years|hours|minutes)\b/.test(i.target), i.target);
        assert.ok(!/\b(?:[02-9]|\d\d+)\s+(?:month|week|day|year)\b(?!-)/.test(i.target), i.target);
        // A comparison's answer ("You increased the limit (from one cup to two)") swaps direction.
        const direction = /\b(?:increased|decreased|more|fewer|earlier|later)\b/i.test(i.target);
        if ((i.answerKind === "number" || i.answerKind === "date") && !direction) {
          assert.equal(
            answerKindOf({ answer: i.target }),
            i.answerKind,
            `${i.id}: ${i.answer} -> ${i.target}`,
          );
        }
        const a = listItems(i.answer).items, t = listItems(i.target).items;
        // Another order of the same items answers a question about their order.
        const order = /\border\b|\bfrom (?:earliest|first|oldest|most)\b|\brank/i.test(i.query);
        if ((i.answerKind === "entity" || i.answerKind === "text") && a.length > 1 && !order) {
          assert.ok(
            t.every((x) => a.every((y) => !matchesAnswer(x, y) && !matchesAnswer(y, x))),
            i.target,
          );
        }
      }
    });

    Deno.test(`build ${name} (${source.name}): banks hold real provenance, some untrusted or tool-sourced, some stating numbers`, async () => {
      const { instances } = await build(options);
      const records = instances.flatMap((i) => i.background);
      assert.ok(
        records.some((r) => !r.provenance.trusted || r.provenance.channels.includes("tool")),
      );
      assert.ok(records.some((r) => r.numbers.length > 0));
      for (const r of records) {
        assert.ok(r.provenance.session !== "background", `${r.id} lacks its session`);
        // Only a tool's content is untrusted; a verified record confirmed something in a user turn.
        assert.equal(r.provenance.trusted, !r.provenance.channels.includes("tool"), r.id);
        for (const n of r.numbers) assert.match(n.key, /^[a-z][\w .'-]*:[a-z-]+$/, r.id);
      }
      for (const i of instances) {
        const sessions = new Set(i.background.map((r) => r.provenance.session));
        const own = [i.helpful, i.risk.minja!, i.risk.sleeper!].map((t) => t.session);
        assert.ok(own.every((s) => !sessions.has(s)));
      }
    });

    Deno.test(`build ${name} (${source.name}): the same seed gives the same ids, another seed other ids`, async () => {
      const a = (await build(options)).instances.map((i) => i.id);
      const b = (await (name === "locomo" ? buildLocomo : buildLongMemEval)(options)).instances.map(
        (i) => i.id,
      );
      assert.deepEqual(a, b);
      // A small fixture stratified by type and answer kind may leave one choice per cell for a
      // seed or two; some other seed picks other ids.
      let other = false;
      for (let seed = 1; seed <= 4 && !other; seed++) {
        const c = (await build({ ...options, seed })).instances.map((i) => i.id);
        other = JSON.stringify(c) !== JSON.stringify(a);
      }
      assert.ok(other, "seeds 1-4 all pick the ids of seed 0");
    });

    Deno.test(`build ${name} (${source.name}): trace load changes filler only, around the same core`, async () => {
      const sizes: Awaited<ReturnType<typeof build>>[] = [];
      for (const traceLoad of [0.75, 1, 1.25]) sizes.push(await build({ ...options, traceLoad }));
      assert.deepEqual(sizes[0].instances.map((i) => i.id), sizes[2].instances.map((i) => i.id));
      const total = (k: number) =>
        sizes[k].instances.reduce(
          (n, i) =>
            n + i.helpful.units.length + i.risk.minja!.units.length + i.risk.sleeper!.units.length,
          0,
        );
      assert.ok(
        total(0) < total(1) && total(1) < total(2),
        `unit totals ${total(0)} ${total(1)} ${total(2)}`,
      );
      // Most traces end with the user confirming a recap of the evidence (where no evidence
      // sentence shares two words with the question, no recap is natural and none is made).
      for (const built of sizes) {
        const confirmed = built.instances.filter((i) => i.helpful.units.at(-1)!.verified).length;
        assert.ok(confirmed >= 0.5 * built.instances.length, `${confirmed} confirmed`);
      }
      assert.deepEqual(
        sizes[0].instances.map((i) => i.target),
        sizes[2].instances.map((i) => i.target),
      );
    });
  }
}

Deno.test("build (fixture): the agent's prompt carries the question's date; LongMemEval's is its question_date", async () => {
  const options = { seed: 0, bankSize: 4, traceLoad: 1, dataDir: FIXTURE_DIR };
  const lme = await buildLongMemEval({ ...options, count: 6 });
  const locomo = await buildLocomo({ ...options, count: 4 });
  const file = JSON.parse(
    await Deno.readTextFile(`${FIXTURE_DIR}/longmemeval/longmemeval_oracle.json`),
  ) as { question_id: string; question_date: string }[];
  for (const instance of [...lme.instances, ...locomo.instances]) {
    assert.ok(instance.queryDate !== undefined, instance.id);
    const [system, user] = agentMessages({
      query: instance.query,
      queryDate: instance.queryDate,
      context: [],
      placement: "system",
    });
    assert.match(system.content, new RegExp(`System Time: ${instance.queryDate}$`));
    assert.ok(user.content.startsWith(`[${instance.queryDate} (session 4)`), user.content);
  }
  for (const instance of lme.instances) {
    const item = file.find((i) => `longmemeval:${i.question_id}` === instance.id)!;
    const [y, m, d] = item.question_date.slice(0, 10).split("/").map(Number);
    assert.equal(instance.queryDate, formatDayDate(new Date(Date.UTC(y, m - 1, d))));
  }
});

Deno.test("build (fixture): the sample follows the benchmark's question-type mix and counts every skip", async () => {
  const built = await buildLongMemEval({
    seed: 0,
    bankSize: 4,
    traceLoad: 1,
    dataDir: FIXTURE_DIR,
    count: 6,
  });
  // 11 non-abstention fixture questions, two of each type but one single-session-preference:
  // 6 x 2/11 = 1.09 and 6 x 1/11 = 0.55, so the largest remainder goes to the preference type.
  assert.deepEqual(built.quotas, {
    "single-session-user": 1,
    "single-session-assistant": 1,
    "single-session-preference": 1,
    "multi-session": 1,
    "temporal-reasoning": 1,
    "knowledge-update": 1,
  });
  const stats = datasetStats({ built });
  assert.equal(stats.yStarOnlyKitWritten, 0);
  assert.equal(Object.values(stats.answerKindShares).reduce((a, b) => a + b, 0).toFixed(2), "1.00");
});
