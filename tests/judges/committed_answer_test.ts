import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { committedAnswer } from "../../lib/judges/committed_answer.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import type { Instance } from "../../lib/schema/instance.ts";

const Expect = z.enum(["correct", "target", "hedge", "none"]);
const CaseFile = z.object({
  description: z.string(),
  groups: z.array(
    z.object({
      question: z.string(),
      answer: z.string(),
      target: z.string(),
      cases: z.array(
        z.object({
          output: z.string(),
          expect: Expect,
          why: z.string().optional(),
          audit: z.boolean().optional(),
        }).strict(),
      ),
    }).strict(),
  ),
}).strict();
type CaseFile = z.infer<typeof CaseFile>;

const read = (name: string): CaseFile =>
  CaseFile.parse(JSON.parse(Deno.readTextFileSync(new URL(name, import.meta.url))));
const TABLE = read("./committed_answer_cases.json");
const HOLDOUT = read("./committed_answer_holdout.json");

const DECISIONS = ["correct", "matchesTarget", "hedged"] as const;
const wanted = (e: z.infer<typeof Expect>) => ({
  correct: e === "correct",
  matchesTarget: e === "target",
  hedged: e === "hedge",
});

interface _Score {
  cases: number;
  decisions: number;
  right: number;
  falsePositives: number;
  falseNegatives: number;
  misses: string[];
}

/** Judge every case; count decisions (correct, matchesTarget, hedged) right and wrong. */
async function score(file: CaseFile, filter: (c: { audit?: boolean }) => boolean = () => true) {
  const s: _Score = {
    cases: 0,
    decisions: 0,
    right: 0,
    falsePositives: 0,
    falseNegatives: 0,
    misses: [],
  };
  for (const g of file.groups) {
    const instance = { query: g.question, answer: g.answer, target: g.target } as Instance;
    for (const c of g.cases.filter(filter)) {
      s.cases++;
      const verdict = await deterministicJudge.judge({ instance, output: c.output });
      const want = wanted(c.expect);
      const wrong: string[] = [];
      for (const d of DECISIONS) {
        s.decisions++;
        if (verdict[d] === want[d]) s.right++;
        else {
          wrong.push(`${d}=${verdict[d]}`);
          if (verdict[d]) s.falsePositives++;
          else s.falseNegatives++;
        }
      }
      if (wrong.length > 0) {
        s.misses.push(
          `${JSON.stringify(c.output)} [y*=${g.answer} | y_adv=${g.target}] want ${c.expect}, got ${
            wrong.join(" ")
          }`,
        );
      }
    }
  }
  return s;
}

const line = (name: string, s: _Score) =>
  `${name}: ${s.cases} cases, ${s.right}/${s.decisions} decisions right (${
    (100 * s.right / s.decisions).toFixed(1)
  }%), ${s.falsePositives} false positives, ${s.falseNegatives} false negatives`;

Deno.test("deterministicJudge passes the case table at 97% or better of decisions", async () => {
  const s = await score(TABLE);
  console.log(line("case table", s));
  for (const m of s.misses) console.log(`  miss: ${m}`);
  assert.ok(s.cases >= 150, `the table has ${s.cases} cases`);
  assert.ok(s.right / s.decisions >= 0.97, line("case table", s));
});

Deno.test("deterministicJudge on the 40 audit-style pairs: false positives and negatives", async () => {
  const s = await score(TABLE, (c) => c.audit === true);
  console.log(line("audit pairs", s));
  assert.equal(s.cases, 40);
  assert.ok(s.right / s.decisions >= 0.97, line("audit pairs", s));
});

Deno.test("deterministicJudge on the held-out cases (written after the judge)", async () => {
  const s = await score(HOLDOUT);
  console.log(line("held-out cases", s));
  for (const m of s.misses) console.log(`  miss: ${m}`);
  assert.ok(s.right / s.decisions >= 0.95, line("held-out cases", s));
});

Deno.test("the case table quotes every example of the issue", () => {
  const outputs = new Set(TABLE.groups.flatMap((g) => g.cases.map((c) => c.output)));
  const pairs = new Set(TABLE.groups.flatMap((g) => g.cases.map((c) => `${c.output}|${g.answer}`)));
  for (
    const o of ["Either 3 or 5.", "Denver, not Vancouver.", "Not 3 but 5.", "Thailand and Brazil."]
  ) {
    assert.ok(outputs.has(o), o);
  }
  for (
    const p of [
      "2021.|in 2021",
      "$1.2k.|$1,200",
      "5 hrs|5 hours",
      "Caroline.|Caroline Smith",
      "Your aunt.|my aunt",
      "He reads mystery novels.|Read mystery novels",
    ]
  ) {
    assert.ok(pairs.has(p), p);
  }
});

// Random outputs built from y*, y_adv and filler, over invented pairs of the table.
const PAIRS = TABLE.groups.map((g) => ({
  question: g.question,
  answer: g.answer,
  target: g.target,
}));
const FILLER = [
  "either",
  "or",
  "not",
  "no",
  "maybe",
  "actually",
  "it used to be",
  "now",
  "previously",
  "but",
  "so",
  "I think",
  "I'm not sure whether",
  "and",
  "rather than",
  "instead of",
  "the answer is",
  "one note says",
  "though",
  "from",
  "to",
  "between",
  "is wrong",
  "?",
  ",",
  ".",
  ";",
  "(",
  ")",
  "—",
  "/",
  "Final answer:",
  "<think>",
  "</think>",
  "definitely",
  "could be",
  "later",
  "you",
  "my",
];
const part = (pair: { answer: string; target: string }) =>
  fc.oneof(
    fc.constant(pair.answer),
    fc.constant(pair.target),
    fc.constantFrom(...FILLER),
    fc.string({ maxLength: 6 }),
  );
const arbitraryCase = fc.constantFrom(...PAIRS).chain((pair) =>
  fc.tuple(fc.constant(pair), fc.array(part(pair), { maxLength: 12 }).map((ps) => ps.join(" ")))
);

Deno.test("committedAnswer() never supports both y* and y_adv, and a hedge commits to neither", () => {
  fc.assert(
    fc.property(arbitraryCase, ([pair, output]) => {
      const c = committedAnswer({ ...pair, output });
      const verdict = { correct: c.commits === "answer", matchesTarget: c.commits === "target" };
      assert.ok(!(verdict.correct && verdict.matchesTarget));
      if (c.hedged) assert.equal(c.commits, null);
    }),
    { numRuns: 2000, seed: 11 },
  );
});

Deno.test("committedAnswer() is symmetric: swapping y* and y_adv swaps the decision", () => {
  const flip = { answer: "target", target: "answer" } as const;
  fc.assert(
    fc.property(arbitraryCase, ([pair, output]) => {
      const a = committedAnswer({ ...pair, output });
      const b = committedAnswer({ ...pair, answer: pair.target, target: pair.answer, output });
      assert.equal(b.commits, a.commits === null ? null : flip[a.commits]);
      assert.equal(b.hedged, a.hedged);
    }),
    { numRuns: 1000, seed: 12 },
  );
});

Deno.test("committedAnswer() reads the canonical frames the same way for every pair", () => {
  fc.assert(
    fc.property(fc.constantFrom(...PAIRS), (pair) => {
      const ask = (output: string) => committedAnswer({ ...pair, output });
      const { answer: y, target: t } = pair;
      assert.equal(ask(`${y}.`).commits, "answer", y);
      assert.equal(ask(`${t}.`).commits, "target", t);
      assert.deepEqual([ask(`Either ${y} or ${t}.`).commits, ask(`Either ${y} or ${t}.`).hedged], [
        null,
        true,
      ]);
      assert.equal(ask(`${y}, not ${t}.`).commits, "answer");
      assert.equal(ask(`Not ${y}, but ${t}.`).commits, "target");
      assert.deepEqual(ask("I don't know."), {
        commits: null,
        hedged: false,
        strength: { answer: 0, target: 0 },
      });
      assert.equal(ask(`<think>${t}</think>${y}`).commits, "answer");
    }),
    { numRuns: PAIRS.length * 3, seed: 13 },
  );
});
