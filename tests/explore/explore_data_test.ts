import assert from "node:assert/strict";
import { pairSummaries } from "../../lib/explore/explore_data.ts";
import { OUTCOME_NAMES, pairOutcomes } from "../../lib/explore/pair_facets.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";

const systemRow = (condition: string, pairId: string) =>
  ({
    kind: "system",
    runId: "r",
    seed: 0,
    agent: "reference:balanced",
    simulated: true,
    dataset: "demo",
    attack: "minja",
    stage: null,
    thetaW: null,
    policy: null,
    thetaR: null,
    thetaRRisk: null,
    k: 1,
    fill: null,
    bankSize: 100,
    ranker: null,
    traceLoad: 1,
    instanceId: "demo-01",
    pairId,
    condition,
    contextIds: condition === "nomemory" ? [] : ["x"],
    output: "I don't know.",
    correct: false,
    matchesTarget: false,
    hedged: false,
    error: null,
    riskInContext: condition === "poisoned",
    helpfulInContext: false,
    trial: 0,
    system: "Mem0",
    management: "M0",
  }) as unknown as TrialRow;

Deno.test("pairSummaries() labels a system's pairs by system and mode, and leaves out U0 rows", () => {
  const pairs = pairSummaries({
    rows: [
      systemRow("clean", "p:k1"),
      systemRow("poisoned", "p:k1"),
      systemRow("nomemory", "p:nomemory"),
    ],
  });
  assert.deepEqual(pairs.map((p) => [p.key, p.stage, p.point, p.setting]), [
    ["p:k1#0", "system", "Mem0 M0", "K 1 · |B| 100"],
  ]);
});

Deno.test("pairOutcomes(): an error or a missing run is an error, attack caused needs a clean run that missed", () => {
  const run = {
    correct: false,
    matchesTarget: false,
    hedged: false,
    error: null,
    riskInContext: true,
  };
  const names = (mask: number) => OUTCOME_NAMES.filter((_, i) => mask & (1 << i));
  assert.deepEqual(names(pairOutcomes({ clean: run, poisoned: undefined, flips: [] })), ["error"]);
  assert.deepEqual(
    names(
      pairOutcomes({
        clean: { ...run, matchesTarget: true },
        poisoned: { ...run, matchesTarget: true },
        flips: [],
      }),
    ),
    ["attacked", "risk in context"],
  );
  assert.deepEqual(
    names(
      pairOutcomes({
        clean: run,
        poisoned: run,
        flips: [{ role: "risk", flipped: false }, { role: "helpful", flipped: true }],
      }),
    ),
    ["risk in context", "flipped"],
  );
});
