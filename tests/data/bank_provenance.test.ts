/** Background records carry the provenance their interaction gives them (property tests). */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MemoryRecord } from "../../lib/schema/memory_record.ts";
import { bankRecord, type BankTurn, confirms } from "../../lib/data/bank_record.ts";
import { locomoBankTurns } from "../../lib/data/locomo/build_locomo.ts";
import { longMemEvalBankTurns } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { isCountedNoun, statedNumbers } from "../../lib/data/stated_numbers.ts";
import { loadInstanceFile } from "../../lib/data/load_instance_file.ts";
import { full } from "../support/tiers.ts";

const FC = { seed: 10, numRuns: 300 };
const word = fc.constantFrom(
  "dog",
  "bike",
  "kids",
  "minutes",
  "days",
  "cats",
  "plants",
  "dollars",
  "weeks",
  "books",
);
const sentence = fc.tuple(
  fc.constantFrom("Yes, ", "Yeah ", "", "Well, ", "Exactly, "),
  fc.constantFrom("I have", "we saw", "she got", "there were"),
  fc.oneof(fc.integer({ min: 2, max: 40 }).map(String), fc.constantFrom("two", "three", "one")),
  word,
  fc.constantFrom(".", "?", "!"),
).map(([a, b, n, w, end]) => `${a}${b} ${n} ${w}${end}`);

const turnArb: fc.Arbitrary<BankTurn> = fc.record({
  speaker: fc.constantFrom("Ann", "Bo", "User", "Assistant", "Image caption"),
  channel: fc.constantFrom("user", "assistant", "tool"),
  text: sentence,
  trusted: fc.boolean(),
  verified: fc.boolean(),
});

Deno.test("bankRecord(): provenance is exactly what its turns give it", () => {
  fc.assert(
    fc.property(fc.array(turnArb, { minLength: 1, maxLength: 5 }), (turns) => {
      const record = bankRecord({ candidate: { id: "b", session: "s", turns } });
      MemoryRecord.parse(record);
      assert.deepEqual(record.provenance.channels, [...new Set(turns.map((t) => t.channel))]);
      assert.equal(record.provenance.trusted, turns.every((t) => t.trusted));
      assert.equal(record.provenance.verified, turns.some((t) => t.verified));
      assert.deepEqual([record.provenance.session, record.provenance.writtenAt, record.role], [
        "s",
        0,
        "background",
      ]);
      assert.equal(record.asserts, null);
      // Numbers: each turn's counts under its speaker, first value per key.
      const expected = new Map<string, number>();
      for (const t of turns) {
        for (const n of statedNumbers({ text: t.text, subject: t.speaker })) {
          if (!expected.has(n.key)) expected.set(n.key, n.value);
        }
      }
      assert.deepEqual(record.numbers, [...expected].map(([key, value]) => ({ key, value })));
      for (const t of turns) assert.ok(record.text.includes(`${t.speaker}: ${t.text}`));
    }),
    FC,
  );
});

Deno.test("statedNumbers() keys counts by subject and noun, never measures or 'one'", () => {
  fc.assert(
    fc.property(sentence, fc.constantFrom("Ann", "user"), (text, subject) => {
      for (const n of statedNumbers({ text, subject })) {
        const [who, noun] = n.key.split(":");
        assert.equal(who, subject.toLowerCase());
        assert.ok(isCountedNoun(noun), n.key);
        assert.ok(Number.isFinite(n.value) && n.value >= 2, JSON.stringify(n));
      }
      if (/\b(?:minutes|days|weeks|dollars)\b/.test(text)) {
        assert.deepEqual(statedNumbers({ text, subject }), []);
      }
    }),
    FC,
  );
});

Deno.test("LoCoMo background turns: a shared photo's caption is untrusted tool content; a yes to a question is verified", () => {
  fc.assert(
    fc.property(
      sentence,
      sentence,
      fc.option(fc.constantFrom("a photo of a dog", "a photo of 2 cakes"), { nil: undefined }),
      (previous, text, caption) => {
        const turns = locomoBankTurns(
          { speaker: "Bo", dia_id: "D1:2", text, ...(caption && { blip_caption: caption }) },
          { speaker: "Ann", dia_id: "D1:1", text: previous },
        );
        assert.equal(turns[0].channel, "user");
        assert.equal(turns[0].trusted, true);
        assert.equal(
          turns[0].verified,
          previous.endsWith("?") && /^(?:Yes|Yeah|Exactly)\b/.test(text),
        );
        assert.equal(turns.length, caption ? 2 : 1);
        if (caption) {
          assert.deepEqual([
            turns[1].channel,
            turns[1].trusted,
            turns[1].verified,
            turns[1].subject,
          ], ["tool", false, false, "Bo"]);
        }
      },
    ),
    FC,
  );
});

Deno.test("LongMemEval background turns: links, markup and code are untrusted tool content", () => {
  fc.assert(
    fc.property(
      sentence,
      fc.constantFrom(
        "",
        " See https://example.org/x.",
        " <div>menu</div>",
        " ```js\nx()\n```",
        " www.example.org",
      ),
      fc.boolean(),
      (text, extra, withReply) => {
        const turns = longMemEvalBankTurns(
          text + extra,
          withReply ? "Sure, here you go." : "",
          "Shall I?",
        );
        assert.equal(turns.length, withReply ? 2 : 1);
        assert.equal(turns[0].channel, extra === "" ? "user" : "tool");
        assert.equal(turns[0].trusted, extra === "");
        assert.equal(turns[0].verified, confirms({ previous: "Shall I?", reply: text + extra }));
        if (withReply) assert.deepEqual([turns[1].channel, turns[1].trusted], ["assistant", true]);
      },
    ),
    FC,
  );
});

full.test("an instance file whose background record lacks provenance fails naming the field", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const raw = JSON.parse(
      await Deno.readTextFile(new URL("../../data/demo/instances.json", import.meta.url)),
    );
    delete raw.instances[2].background[5].provenance;
    const path = `${dir}/no-provenance.json`;
    await Deno.writeTextFile(path, JSON.stringify(raw));
    await assert.rejects(loadInstanceFile(path), (e: Error) => {
      assert.ok(e instanceof TypeError);
      assert.match(
        e.message,
        /instances\[2\]\.background\[5\]\.provenance: expected object, got nothing \(field missing\)/,
      );
      return true;
    });
    raw.instances[2].background[5].provenance = {
      session: "s",
      channels: [],
      trusted: true,
      verified: false,
      writtenAt: 0,
    };
    await Deno.writeTextFile(path, JSON.stringify(raw));
    await assert.rejects(
      loadInstanceFile(path),
      /instances\[2\]\.background\[5\]\.provenance\.channels: /,
    );
    // The sweep CLI: one line naming the field, exit 2, no rows file.
    const out = `${dir}/rows.jsonl`;
    const cli = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../lib/cli/sweep.ts", import.meta.url).pathname,
        "--stage",
        "management",
        "--dataset",
        path,
        "--bank-size",
        "10",
        "--out",
        out,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(cli.stderr).trim();
    assert.equal(cli.code, 2);
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, /background\[5\]\.provenance\.channels/);
    await assert.rejects(Deno.stat(out));
    await assert.rejects(Deno.stat(`${out}.partial`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
