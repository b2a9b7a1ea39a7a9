import assert from "node:assert/strict";
import { cohensKappa } from "../../lib/stats/cohens_kappa.ts";
import { fleissKappa } from "../../lib/stats/fleiss_kappa.ts";
import { majorityVote } from "../../lib/stats/majority_vote.ts";
import { percentAgreement } from "../../lib/stats/percent_agreement.ts";
import { rsr } from "../../lib/stats/rsr.ts";
import { writingRetention } from "../../lib/stats/writing_retention.ts";

Deno.test("fleissKappa() reproduces Fleiss (1971) as worked on Wikipedia: 0.210", () => {
  // 10 items, 14 raters, 5 categories; counts per category per item.
  const counts = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];
  const items = counts.map((row) => row.flatMap((n, k) => Array(n).fill(k)));
  assert.ok(Math.abs(fleissKappa(items) - 0.20993070442195522) < 1e-12);
});

Deno.test("cohensKappa() is 0 for independent marginals and 1 for identical raters", () => {
  assert.equal(cohensKappa([1, 1, 0, 0], [1, 0, 1, 0]), 0);
  assert.equal(cohensKappa([1, 0, 1], [1, 0, 1]), 1);
  assert.throws(() => cohensKappa([1], [1, 0]), /equal length, got 1 and 2/);
});

Deno.test("majorityVote() and percentAgreement() score a judge against 5 annotators", () => {
  const annotators = [[1, 1, 1, 0, 0], [0, 0, 0, 0, 1], [1, 1, 0, 1, 1], [0, 1, 0, 1, 0]];
  const majority = majorityVote(annotators, {});
  assert.deepEqual(majority, [1, 0, 1, 0]);
  assert.equal(percentAgreement([1, 0, 0, 0], majority), 0.75);
  assert.throws(() => majorityVote([[1, 0]], { onTie: "error" }), /item 0 is tied/);
});

Deno.test("rsr() and writingRetention() follow Tables 1 and 2", () => {
  assert.equal(rsr([true, false, true, true]), 0.75);
  assert.ok(Number.isNaN(rsr([null])));
  const wr = writingRetention([
    { retained: 1, units: 2 },
    { retained: 2, units: 2 },
    { retained: 0, units: 2 },
  ]);
  assert.equal(wr.mean, 0.5);
  assert.equal(wr.sd, 0.5); // sample sd of 0.5, 1, 0
  assert.throws(() => writingRetention([{ retained: 3, units: 2 }]), /trial 0/);
});
