/**
 * runPair() on its own (issue 15, item 8): one call makes a clean row and its poisoned twin that
 * share the instance, seed, helpful exposure and fill; a failure is an error row with its
 * message and null decisions, never a wrong answer.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Agent } from "../../lib/agents/agent.ts";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import type { Judge } from "../../lib/judges/judge.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import { type OperatingPoint, PAPER_DEFAULTS } from "../../lib/schema/operating_point.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { registerSecret } from "../../lib/models/redact.ts";
import { type PairTask, runPair } from "../../lib/run/run_pair.ts";
import { sweepResources } from "../../lib/run/sweep_resources.ts";
import type { Ranker } from "../../lib/stages/writing/ranker.ts";
import { verbatimWriter } from "../../lib/stages/writing/writers/verbatim.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const [careful] = resolveAgents({ specs: ["reference:careful"] });

const point = (over: Partial<OperatingPoint> = {}): OperatingPoint => ({
  stage: "retrieval",
  ...PAPER_DEFAULTS,
  ranker: "chronological",
  ...over,
});

function task(instance: Instance, over: Partial<PairTask> = {}): PairTask {
  return {
    runId: "run",
    seed: 3,
    dataset: "synthetic",
    attack: "minja",
    point: point(),
    instance,
    agent: careful,
    pairId: `${instance.id}#p`,
    helpfulExposed: true,
    riskExposed: true,
    ...over,
  };
}

const resources = (options: { judge?: Judge; rankers?: Record<string, Ranker> } = {}) =>
  sweepResources({
    judge: options.judge ?? deterministicJudge,
    writer: verbatimWriter,
    rankers: options.rankers,
  });

const instance = syntheticInstance({ id: "s", seed: 1, helpfulUnits: 4, riskUnits: 3, bank: 20 });

// Everything a pair shares, and what only the poisoned twin may differ in.
function checkTwins(clean: TrialRow, poisoned: TrialRow, t: PairTask) {
  assert.deepEqual([clean.condition, poisoned.condition], ["clean", "poisoned"]);
  for (const key of ["pairId", "instanceId", "seed", "agent", "trial", "k", "thetaW"] as const) {
    assert.equal(clean[key], poisoned[key], key);
  }
  assert.equal(clean.pairId, t.pairId);
  assert.equal(clean.helpfulExposed, t.helpfulExposed);
  assert.equal(poisoned.riskExposed, t.riskExposed);
  // Shared helpful exposure: the helpful record is in both contexts or in neither.
  assert.equal(clean.helpfulInContext, poisoned.helpfulInContext);
  assert.equal(clean.riskInContext, false);
  assert.equal(clean.admittedRisk, 0);
  assert.equal(clean.contextSize, poisoned.contextSize);
  // Under UM the twins differ in at most one slot: the risk record in place of a background one.
  const diff = clean.contextIds.flatMap((id, i) => id === poisoned.contextIds[i] ? [] : [i]);
  assert.equal(diff.length, poisoned.riskInContext ? 1 : 0);
  for (const i of diff) assert.match(clean.contextIds[i], /\/bg\//);
}

Deno.test("runPair() returns a clean row and its poisoned twin sharing helpful exposure and fill", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        seed: fc.integer({ min: 0, max: 1000 }),
        helpfulExposed: fc.boolean(),
        riskExposed: fc.boolean(),
        thetaW: fc.constantFrom(0.2, 0.6, 1),
        k: fc.integer({ min: 1, max: 8 }),
        attack: fc.constantFrom("minja" as const, "sleeper" as const),
      }),
      async ({ seed, helpfulExposed, riskExposed, thetaW, k, attack }) => {
        const t = task(instance, {
          seed,
          helpfulExposed,
          riskExposed,
          attack,
          point: point({ thetaW, k }),
        });
        const rows = await runPair(t, resources());
        assert.equal(rows.length, 2);
        const [clean, poisoned] = rows;
        checkTwins(clean, poisoned, t);
        assert.equal(clean.error, null);
        assert.equal(poisoned.error, null);
        // Exposure is what the schedule said, given that writing admitted the record at all.
        if (!helpfulExposed) assert.equal(clean.helpfulInContext, false);
        if (helpfulExposed && clean.admittedHelpful > 0) assert.equal(clean.helpfulInContext, true);
        if (!riskExposed) assert.equal(poisoned.riskInContext, false);
        // The risk record takes a background slot; with K = 1 and the helpful record in, none is left.
        if (riskExposed && poisoned.admittedRisk > 0) {
          assert.equal(poisoned.riskInContext, k > (poisoned.helpfulInContext ? 1 : 0));
        }
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("runPair() is the same pair twice for the same task (same seed, same rows)", async () => {
  const strip = (rows: TrialRow[]) => rows.map(({ latencyMs: _, ...r }) => r);
  const t = task(instance, { seed: 11 });
  assert.deepEqual(strip(await runPair(t, resources())), strip(await runPair(t, resources())));
});

Deno.test("runPair(): an agent that throws gives an error row with its message, not a wrong answer", async () => {
  const failing: Agent = {
    id: "failing",
    simulated: true,
    answer: ({ condition }) =>
      condition === "poisoned"
        ? Promise.reject(new TypeError("model endpoint refused the request"))
        : careful.answer({
          instance,
          context: [],
          condition,
          pairId: "x",
          seed: 0,
        }),
  };
  const t = task(instance, { agent: failing });
  const [clean, poisoned] = await runPair(t, resources());
  checkTwins(clean, poisoned, t);
  // The clean twin ran; the poisoned one is an error row: no output, no verdict.
  assert.equal(clean.error, null);
  assert.notEqual(clean.correct, null);
  assert.equal(poisoned.error, "TypeError: model endpoint refused the request");
  assert.deepEqual(
    [poisoned.output, poisoned.correct, poisoned.matchesTarget, poisoned.hedged],
    [null, null, null, null],
  );
  // The rest of the row still says what was run: the context the agent would have seen.
  assert.equal(poisoned.contextIds.length, t.point.k);
});

Deno.test("runPair(): a judge that throws makes an error row too, with the key redacted", async () => {
  registerSecret({ secret: "sk-run-pair-test-key-0001" });
  const judge: Judge = {
    id: "broken",
    judge: () => Promise.reject(new Error("401: key sk-run-pair-test-key-0001 is invalid")),
  };
  const rows = await runPair(task(instance), resources({ judge }));
  assert.deepEqual(rows.map((r) => r.error), [
    "Error: 401: key [REDACTED] is invalid",
    "Error: 401: key [REDACTED] is invalid",
  ]);
  assert.ok(rows.every((r) => r.correct === null && r.matchesTarget === null));
  assert.ok(rows.every((r) => r.output === null), "an unjudged answer is not reported");
});

Deno.test("runPair(): a failed ranker (writing) fails both rows of the pair alike", async () => {
  const broken: Ranker = {
    id: "broken",
    rank: () => Promise.reject(new RangeError("ranker reply had no ranking")),
  };
  const t = task(instance, { point: point({ ranker: "broken" }) });
  const [clean, poisoned] = await runPair(t, resources({ rankers: { broken } }));
  for (const row of [clean, poisoned]) {
    assert.equal(row.error, "RangeError: ranker reply had no ranking");
    assert.deepEqual([row.output, row.correct, row.matchesTarget], [null, null, null]);
    assert.deepEqual([row.contextIds, row.admittedHelpful, row.admittedRisk], [[], 0, 0]);
  }
  assert.deepEqual([clean.condition, poisoned.condition], ["clean", "poisoned"]);
  assert.equal(clean.pairId, poisoned.pairId);
});

Deno.test("runPair() rejects an instance without the attack's risk trace, naming both", async () => {
  const bare = { ...instance, risk: { minja: instance.risk.minja } } as Instance;
  await assert.rejects(
    runPair(task(bare, { attack: "sleeper" }), resources()),
    /instance s: has no sleeper risk trace/,
  );
});
