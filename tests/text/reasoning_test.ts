import assert from "node:assert/strict";
import { splitReasoning } from "../../lib/text/reasoning.ts";

const cases: [string, string, string | null][] = [
  ["Paris.", "Paris.", null],
  ["<think>hmm</think>Paris.", "Paris.", "hmm"],
  ["<THINK>\nhmm\n</THINK>\n\nParis.", "Paris.", "hmm"],
  ["<think>a</think> Paris <think>b</think>", "Paris", "a\n\nb"],
  ['<thinking>a</thinking>{"x":1}', '{"x":1}', "a"],
  [
    "reasoning without an opening tag</think>\nParis.",
    "Paris.",
    "reasoning without an opening tag",
  ],
  ["Paris.<think>cut off", "Paris.", "cut off"],
  ["<think></think>Paris.", "Paris.", null],
  ["<think>only thinking</think>", "", "only thinking"],
  // Doubao Seed, Kimi and Mistral reasoning delimiters.
  ["<seed:think>hmm</seed:think>Paris.", "Paris.", "hmm"],
  ["◁think▷hmm◁/think▷Paris.", "Paris.", "hmm"],
  ["[THINK]hmm[/THINK]Paris.", "Paris.", "hmm"],
  // gpt-oss channels passed through unparsed.
  [
    "<|channel|>analysis<|message|>hmm<|end|><|start|>assistant<|channel|>final<|message|>Paris.<|return|>",
    "Paris.",
    "hmm",
  ],
];

for (const [reply, answer, reasoning] of cases) {
  Deno.test(`splitReasoning() splits ${JSON.stringify(reply)}`, () => {
    assert.deepEqual(splitReasoning(reply), { answer, reasoning });
  });
}
