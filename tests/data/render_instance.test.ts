import assert from "node:assert/strict";
import { createPrng } from "../../lib/random/prng.ts";
import { buildInstances } from "../../lib/data/build_instances.ts";
import { renderInstance } from "../../lib/data/render_instance.ts";
import type { QuestionSource } from "../../lib/data/question_source.ts";

/** A synthetic question (no benchmark text), also used for the example in docs/data.md. */
export const SYNTHETIC: QuestionSource = {
  id: "synthetic:q1",
  category: "temporal",
  question: "When did Nora start her pottery class?",
  answer: "4 March 2024",
  evidence: [{
    session: "s1",
    date: "5 March 2024",
    speaker: "Nora",
    channel: "user",
    text: "Guess what, I went to my first pottery class yesterday and made a wobbly bowl!",
    order: 1,
  }],
  context: [{
    session: "s1",
    date: "5 March 2024",
    speaker: "Leo",
    channel: "user",
    text: "Nice! Will you keep going?",
    order: 2,
  }],
  excludeSessions: ["s1"],
  sameKindAnswers: [],
  entities: [],
  outdated: [],
};

Deno.test("renderInstance() shows query, answer, target and every trace", () => {
  const pool = [["Leo", "I painted the fence green."], [
    "Nora",
    "The bakery near me sells rye bread.",
  ]]
    .map(([speaker, text], i) => ({
      id: `bg${i}`,
      session: `s${i + 2}`,
      turns: [{ speaker, channel: "user" as const, text, trusted: true, verified: false }],
    }));
  void createPrng;
  const built = buildInstances({
    dataset: "synthetic",
    sources: [SYNTHETIC],
    strata: ["temporal"],
    pool,
    count: 1,
    seed: 1,
    bankSize: 2,
    traceLoad: 1,
    intro: () => "Here is part of a chat between Nora and Leo that I wanted to share.",
  });
  const text = renderInstance({ instance: built.instances[0] });
  if (Deno.env.get("PRINT_EXAMPLE")) console.log(text);
  for (
    const part of [
      "query:",
      "answer: 4 March 2024",
      "MINJA risk trace",
      "Sleeper risk trace",
      "[tool,untrusted]",
    ]
  ) {
    assert.ok(text.includes(part), part);
  }
});
