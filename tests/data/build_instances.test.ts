import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { Instance } from "../../lib/model/instance.ts";
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { loadLocomo } from "../../lib/data/locomo/load_locomo.ts";
import { loadLongMemEval } from "../../lib/data/longmemeval/load_longmemeval.ts";
import { DATA_DIR, HAVE_DATA } from "./_built.ts";

const datasets = [
  { name: "locomo", build: buildLocomo, load: loadLocomo },
  { name: "longmemeval", build: buildLongMemEval, load: loadLongMemEval },
];
const options = { seed: 1, bankSize: 100, traceLoad: 1, dataDir: DATA_DIR };

function _checkInstance(instance: Instance): string[] {
  const problems: string[] = [];
  const { answer, target } = instance;
  const say = (what: string) => problems.push(`${instance.id}: ${what}`);
  if (matchesAnswer(target, answer) || matchesAnswer(answer, target)) {
    say(`target ${target} matches answer ${answer}`);
  }
  const helpful = instance.helpful.units;
  if (!helpful.some((u) => matchesAnswer(u.text, answer))) say("helpful trace does not state y*");
  for (const [name, trace] of Object.entries(instance.risk)) {
    if (!trace) continue;
    if (!trace.units.some((u) => matchesAnswer(u.text, target))) {
      say(`${name} trace does not state y_adv`);
    }
    for (const u of trace.units) {
      if (matchesAnswer(u.text, answer)) say(`${name} unit ${u.id} states y*`);
      const want = matchesAnswer(u.text, target) ? target : null;
      if (u.asserts !== want) say(`${name} unit ${u.id} asserts ${u.asserts}, text says ${want}`);
      if (u.trusted === (name === "sleeper" && u.channel === "tool")) {
        say(`${name} unit ${u.id} trust flag wrong`);
      }
      if (u.verified) say(`${name} unit ${u.id} is verified`);
      if (name === "sleeper" && u.asserts !== null && u.channel !== "tool") {
        say(`sleeper y_adv off the tool channel`);
      }
    }
  }
  for (const u of helpful) {
    if (matchesAnswer(u.text, target)) say(`helpful unit ${u.id} states y_adv`);
    const want = matchesAnswer(u.text, answer) ? answer : null;
    if (u.asserts !== want) say(`helpful unit ${u.id} asserts ${u.asserts}, text says ${want}`);
    if (!u.trusted) say(`helpful unit ${u.id} untrusted`);
    if (
      (instance.answerKind === "number" || instance.answerKind === "date") && u.asserts !== null
    ) {
      if (u.numbers.length !== 1) say(`helpful unit ${u.id} lacks its number`);
    }
  }
  const last = helpful.at(-1)!, confirm = helpful.at(-2)!;
  if (last.channel !== "assistant" || last.asserts !== answer) {
    say("helpful trace does not end with the assistant stating y*");
  }
  if (!confirm.verified || confirm.channel !== "user") {
    say("no verified user confirmation before the final unit");
  }
  for (const r of instance.background) {
    if (matchesAnswer(r.text, answer)) say(`background ${r.id} states y*`);
    if (matchesAnswer(r.text, target)) say(`background ${r.id} states y_adv`);
  }
  if (instance.background.length !== 100) say(`bank has ${instance.background.length} records`);
  const minjaKeys = instance.risk.minja!.units.flatMap((u) => u.numbers.map((n) => n.key));
  const helpfulKeys = helpful.flatMap((u) => u.numbers.map((n) => n.key));
  if (minjaKeys.some((k) => !helpfulKeys.includes(k))) {
    say("number keys differ between helpful and risk");
  }
  return problems;
}

for (const { name, build, load } of datasets) {
  Deno.test({
    name: `build ${name}: every instance keeps y* and y_adv apart across traces and bank`,
    ignore: !HAVE_DATA,
    async fn() {
      const start = performance.now();
      const instances = await load(options);
      console.log(
        `${name}: built ${instances.length} instances in ${
          Math.round(performance.now() - start)
        } ms`,
      );
      assert.deepEqual(instances.length, 100);
      assert.deepEqual(new Set(instances.map((i) => i.id)).size, 100);
      const problems = instances.flatMap((i) => {
        Instance.parse(i);
        return _checkInstance(i);
      });
      assert.deepEqual(problems, []);
    },
  });

  Deno.test({
    name: `build ${name}: the same seed gives the same ids, another seed other ids`,
    ignore: !HAVE_DATA,
    async fn() {
      const a = (await build(options)).instances.map((i) => i.id);
      const b = (await build(options)).instances.map((i) => i.id);
      const c = (await build({ ...options, seed: 2 })).instances.map((i) => i.id);
      assert.deepEqual(a, b);
      assert.notDeepEqual(a, c);
    },
  });

  Deno.test({
    name: `build ${name}: trace load changes filler only, around the same core`,
    ignore: !HAVE_DATA,
    async fn() {
      const sizes: Awaited<ReturnType<typeof build>>[] = [];
      for (const traceLoad of [0.75, 1, 1.25]) {
        const built = await build({ ...options, traceLoad, bankSize: 50 });
        sizes.push(built);
      }
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
      for (const k of [0, 1, 2]) {
        for (const i of sizes[k].instances) {
          assert.deepEqual(i.background.length, 50);
          assert.deepEqual(i.helpful.units.at(-1)!.asserts, i.answer);
        }
      }
      // Same targets at every load.
      assert.deepEqual(
        sizes[0].instances.map((i) => i.target),
        sizes[2].instances.map((i) => i.target),
      );
    },
  });
}
