/**
 * The record-level counterfactual with an LLM agent through the sweep CLI, against the local
 * server: reruns for every selected trial, cached like every call, kept whole by resume.
 */
import assert from "node:assert/strict";
import { trajectoryId } from "../../lib/schema/trajectory_id.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { selectedForCounterfactual } from "../../lib/run/counterfactual.ts";
import { readRowsFile } from "../../lib/run/rows_file.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function run(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-test-counterfactual" },
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

const read = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));

full.test("--counterfactual loo with an llm: agent: one rerun per context record, cached on rerun", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir();
  try {
    const data = `${dir}/instances.json`;
    const instances = Array.from(
      { length: 4 },
      (_, i) =>
        syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
    );
    await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
    const args = (out: string, extra: string[] = []) => [
      ...["--stage", "retrieval", "--grid", "1", "--dataset", data, "--attack", "minja"],
      ...["--agent", "llm:fake-1", "--base-url", server.baseUrl, "--bank-size", "12"],
      ...["--ranker", "usefulness", "--k", "3", "--counterfactual", "loo"],
      ...["--cache", `${dir}/cache.sqlite`, "--out", `${dir}/${out}`, "--quiet", ...extra],
    ];
    const first = await run(args("rows.jsonl", ["--memory-placement", "tool"]));
    assert.equal(first.code, 0, first.out);
    const rows = await read(`${dir}/rows.jsonl`);
    const originals = rows.filter((r) => r.counterfactualOf === null);
    assert.equal(originals.length, 4 * 2);
    const selected = originals.filter(selectedForCounterfactual);
    assert.ok(selected.length >= 4, `selected ${selected.length}`);
    for (const o of selected) {
      const reruns = rows.filter((r) => r.counterfactualOf === trajectoryId(o));
      assert.deepEqual(reruns.map((r) => r.ablatedRecordId), o.contextIds);
      assert.ok(
        reruns.every((r) =>
          r.error === null && r.contextSize === 3 && r.memoryPlacement === "tool" &&
          r.judgeModel === "fake-1"
        ),
      );
    }
    // Full exposure: removing the risk record undoes the fake model's majority for the target.
    const risk = rows.filter((r) => r.ablatedRole === "risk");
    assert.ok(risk.length > 0 && risk.every((r) => r.matchesTarget === false));
    assert.equal(rows.length, originals.length + selected.length * 3);

    const requests = server.requests;
    const again = await run(args("again.jsonl", ["--memory-placement", "tool"]));
    assert.equal(again.code, 0, again.out);
    assert.equal(server.requests, requests, "every call, reruns included, comes from the cache");
    const strip = (rs: TrialRow[]) =>
      rs.map((r) => JSON.stringify({ ...r, latencyMs: 0, cacheHit: null }));
    assert.deepEqual(strip(await read(`${dir}/again.jsonl`)), strip(rows));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRowsFile() keeps a pair trial only with every counterfactual rerun present", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = {
      runId: "r",
      seed: 0,
      agent: "a",
      simulated: true,
      dataset: "d",
      attack: "minja",
      stage: "retrieval",
      thetaW: 0.6,
      policy: "UM",
      thetaR: 1,
      thetaRRisk: 1,
      k: 2,
      fill: "random",
      bankSize: 5,
      ranker: "usefulness",
      traceLoad: 1,
      instanceId: "i",
      unitsHelpful: 1,
      unitsRisk: 1,
      admittedHelpful: 1,
      admittedRisk: 1,
      quarantinedIds: [],
      helpfulExposed: true,
      riskExposed: true,
      helpfulInContext: true,
      riskInContext: false,
      contextIds: ["h", "b1"],
      contextSize: 2,
      output: "x",
      error: null,
      latencyMs: 0,
      trial: 0,
    };
    const pair = (pairId: string) => {
      const clean = {
        ...base,
        pairId,
        condition: "clean",
        correct: true,
        matchesTarget: false,
        counterfactualOf: null,
      };
      const poisoned = {
        ...base,
        pairId,
        condition: "poisoned",
        correct: false,
        matchesTarget: false,
        counterfactualOf: null,
      };
      const rerun = (id: string) => ({
        ...clean,
        counterfactualOf: trajectoryId(clean as never),
        ablatedRecordId: id,
        ablatedRole: id === "h" ? "helpful" : "background",
      });
      return [clean, poisoned, rerun("h"), rerun("b1")];
    };
    const lines = [...pair("p1"), ...pair("p2")].map((r) => JSON.stringify(r));
    // A kill cut the last rerun of p2.
    await Deno.writeTextFile(`${dir}/rows.jsonl`, lines.slice(0, -1).join("\n") + '\n{"torn');
    const { rows, keys } = await readRowsFile({ path: `${dir}/rows.jsonl`, counterfactual: true });
    assert.deepEqual([...keys], ["p1#0"]);
    assert.equal(rows.length, 4);
    // Without the counterfactual setting, reruns do not count against a pair.
    const plain = await readRowsFile({ path: `${dir}/rows.jsonl` });
    assert.equal(plain.keys.size, 0, "reruns of a run without --counterfactual make it incomplete");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
