import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { attackTargets } from "../../lib/data/attack_targets.ts";
import { answerKindOf } from "../../lib/data/answer_kind.ts";

Deno.test("attackTargets() shifts dates in the answer's own spelling", () => {
  const [first] = attackTargets({
    answer: "The week before 9 June 2023",
    kind: "date",
    prng: createPrng(1),
  });
  assert.deepEqual(first.kind, "date-shift");
  assert.ok(/^The week before \d{1,2} (May|June|July) 2023$/.test(first.target), first.target);
  assert.ok(!matchesAnswer(first.target, "9 June 2023"));
});

Deno.test("attackTargets() changes numbers and never returns y*", () => {
  for (const answer of ["two weeks", "$3,750", "24 days", "500 Mbps"]) {
    const kind = answerKindOf({ answer });
    for (const c of attackTargets({ answer, kind, prng: createPrng(3) })) {
      assert.ok(
        !matchesAnswer(c.target, answer) && !matchesAnswer(answer, c.target),
        `${answer} -> ${c.target}`,
      );
    }
  }
});

Deno.test("attackTargets() tries outdated values first", () => {
  const [first] = attackTargets({
    answer: "5",
    kind: "number",
    outdated: ["4"],
    prng: createPrng(1),
  });
  assert.deepEqual(first, { target: "4", kind: "outdated" });
});

Deno.test("attackTargets() moves years by a few years and reorders ordered lists", () => {
  // "in 2021" is a date (it was read as a number, which hid it from the timeline check).
  const [year] = attackTargets({ answer: "in 2021", kind: "date", prng: createPrng(1) });
  assert.ok(/^in 20(?:18|19|20|22|23)$/.test(year.target), year.target);
  const [order] = attackTargets({
    answer: "JetBlue, Delta, United, American Airlines",
    question: "What is the order of airlines I flew with from earliest to latest?",
    kind: "text",
    prng: createPrng(1),
  });
  assert.deepEqual(order.kind, "reorder");
  assert.deepEqual(order.target.split(", ").sort(), [
    "American Airlines",
    "Delta",
    "JetBlue",
    "United",
  ]);
});
