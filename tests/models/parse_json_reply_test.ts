import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { parseJsonReply } from "../../lib/models/parse_json_reply.ts";

const Verdict = z.object({ reasoning: z.string(), score: z.boolean() });
const Ranking = z.object({ ranking: z.array(z.string()) });
const verdict = { reasoning: "the answer says 11", score: true };

// How real models wrap one JSON object.
const wrappings: [string, (json: string) => string][] = [
  ["bare", (j) => j],
  ["json fence", (j) => "```json\n" + j + "\n```"],
  ["plain fence", (j) => "```\n" + j + "\n```"],
  ["prose before", (j) => `Here is my verdict:\n${j}`],
  ["prose around", (j) => `Sure! ${j} Let me know if you need more.`],
  ["think then fence", (j) => `<think>maybe {"score": false}</think>\n\`\`\`json\n${j}\n\`\`\``],
  ["unclosed think before", (j) => `thinking about {"x": 1}</think>${j}`],
  ["pretty printed", (j) => JSON.stringify(JSON.parse(j), null, 2)],
  ["two values, first wrong shape", (j) => `{"draft": "x"}\nFinal: ${j}`],
  ["braces in strings", (j) => `Note: "}{" is not JSON. ${j}`],
];

for (const [name, wrap] of wrappings) {
  Deno.test(`parseJsonReply() reads a reply with ${name}`, () => {
    const text = wrap(JSON.stringify(verdict));
    assert.deepEqual(parseJsonReply({ text, schema: Verdict, label: "judge" }), verdict);
  });
}

Deno.test("parseJsonReply() finds any schema-valid object embedded in random prose", () => {
  const prose = fc.string({ unit: fc.constantFrom("a", " ", ".", "\n", "b", ":") });
  fc.assert(
    fc.property(prose, prose, fc.array(fc.string(), { maxLength: 5 }), (before, after, ids) => {
      const text = `${before}${JSON.stringify({ ranking: ids })}${after}`;
      assert.deepEqual(parseJsonReply({ text, schema: Ranking, label: "ranker" }), {
        ranking: ids,
      });
    }),
  );
});

Deno.test("parseJsonReply() names the label, the schema's complaint and the reply", () => {
  assert.throws(
    () => parseJsonReply({ text: '{"score": "yes"}', schema: Verdict, label: "judge m: correct" }),
    /^TypeError: judge m: correct: no JSON value in the reply has the expected shape \(reasoning: .*\), got "\{\\"score\\": \\"yes\\"\}"$/,
  );
  assert.throws(
    () => parseJsonReply({ text: "I cannot grade this.", schema: Verdict, label: "judge" }),
    /judge: no JSON value in the reply, got "I cannot grade this\."/,
  );
  // Reasoning is never parsed: a verdict only inside <think> is no verdict.
  assert.throws(
    () =>
      parseJsonReply({
        text: '<think>{"reasoning": "r", "score": true}</think>no idea',
        schema: Verdict,
        label: "judge",
      }),
    /no JSON value/,
  );
});
