/**
 * The trajectory sidecar (`--trajectories`): one line per pair trial beside the rows, in their
 * order, offline and over a loopback model alike; no key in it; kept in step with the rows by
 * resume and --retry-errors (no line twice, none missing, the same bytes as an uninterrupted run).
 */
import assert from "node:assert/strict";
import { RANKER_PROMPT } from "../../lib/stages/writing/rankers/llm.ts";
import { decodeSidecar } from "../../lib/schema/trajectory_sidecar.ts";
import type { PairTrajectory } from "../../lib/schema/pair_trajectory.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { majorityReply, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const SENTINEL = "sk-SENTINEL-sidecar-never-0451";

async function run(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

const readRows = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
const readLines = async (path: string): Promise<PairTrajectory[]> =>
  decodeSidecar({ text: await Deno.readTextFile(path) }).trajectories;
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);
const key = (r: { pairId: string; trial?: number }) => `${r.pairId}#${r.trial ?? 0}`;

/** One line per pair trial of the rows, in the rows' order, agreeing with them. */
function assertInStep(rows: readonly TrialRow[], lines: readonly PairTrajectory[]) {
  const keys = [...new Set(rows.map(key))];
  assert.deepEqual(lines.map(key), keys, "one line per pair trial, in the rows' order");
  const byKey = new Map(lines.map((l) => [key(l), l]));
  for (const row of rows) {
    if ((row.counterfactualOf ?? null) !== null) continue;
    const line = byKey.get(key(row))!;
    const run = row.condition === "clean" ? line.clean : line.poisoned;
    assert.deepEqual(run.context, row.contextIds);
    assert.equal(run.output, row.output);
    assert.equal(run.correct, row.correct);
    assert.equal(run.matchesTarget, row.matchesTarget);
    assert.equal(run.error, row.error);
    assert.equal(
      run.context.some((id) => line.records[id]?.role === "risk"),
      row.riskInContext,
      "the risk record is marked exactly where the row says the agent saw it",
    );
  }
}

async function syntheticData(dir: string) {
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 6 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  return data;
}

full.test("an offline sweep writes the sidecar beside the rows by default, and none when asked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = ["--stage", "management", "--limit", "3", "--quiet"];
    const made = await run([...base, "--counterfactual", "loo", "--out", `${dir}/m.jsonl`]);
    assert.equal(made.code, 0, made.out);
    assert.match(made.out, /trajectories -> .*m\.trajectories\.jsonl/);
    const rows = await readRows(`${dir}/m.jsonl`);
    const lines = await readLines(`${dir}/m.trajectories.jsonl`);
    assertInStep(rows, lines);
    // Quarantine comes with its reason; units with rank and admission; ablations with flips.
    const pq = lines.find((l) => l.poisoned.quarantined.length > 0 && l.runId && l.pairId)!;
    assert.ok(pq.poisoned.quarantined.every((q) => /^(PQ|NC|SC): \S/.test(q.reason)));
    assert.ok(lines.every((l) => l.traces[0].units.every((u) => u.rank !== null)));
    const reruns = rows.filter((r) => (r.counterfactualOf ?? null) !== null);
    assert.equal(lines.reduce((n, l) => n + l.ablations.length, 0), reruns.length);
    assert.ok(lines.some((l) => l.ablations.some((a) => a.role === "risk" && a.flipped !== null)));
    assert.ok(!await exists(`${dir}/m.trajectories.jsonl.partial`));

    const none = await run([...base, "--trajectories", "none", "--out", `${dir}/n.jsonl`]);
    assert.equal(none.code, 0, none.out);
    assert.ok(!await exists(`${dir}/n.trajectories.jsonl`));
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      // Beside each rows file its run's manifest (for --retry-errors), beside m its sidecar.
      [
        "m.jsonl",
        "m.jsonl.manifest.json",
        "m.trajectories.jsonl",
        "n.jsonl",
        "n.jsonl.manifest.json",
      ],
    );

    const same = await run([
      ...base,
      "--trajectories",
      `${dir}/x.jsonl`,
      "--out",
      `${dir}/x.jsonl`,
    ]);
    assert.equal(same.code, 2, same.out);
    assert.match(same.out, /^memgauge sweep: --trajectories: .* is the rows file \(--out\)/m);
    assert.ok(!await exists(`${dir}/x.jsonl`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("a loopback sweep's sidecar holds the transcript, reasoning collapsed, and never the key", async () => {
  const server = startFakeOpenAIServer({ modes: { reasoning: "reasoning_content" } });
  const dir = await Deno.makeTempDir();
  try {
    const data = await syntheticData(dir);
    const made = await run([
      ...["--stage", "writing", "--grid", "0.5,1", "--dataset", data, "--attack", "minja"],
      ...["--agent", "llm:fake-1", "--base-url", server.baseUrl, "--bank-size", "20"],
      ...["--cache", `${dir}/cache.sqlite`, "--out", `${dir}/w.jsonl`, "--quiet"],
    ]);
    assert.equal(made.code, 0, made.out);
    const text = await Deno.readTextFile(`${dir}/w.trajectories.jsonl`);
    assert.ok(!text.includes(SENTINEL) && !text.includes(SENTINEL.slice(3, 15)));
    const lines = decodeSidecar({ text }).trajectories;
    assertInStep(await readRows(`${dir}/w.jsonl`), lines);
    const messages = lines[0].poisoned.messages!;
    assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant"]);
    const answer = messages.at(-1)!;
    assert.equal(answer.content, lines[0].poisoned.output);
    assert.ok(answer.reasoningChars! > 0 && answer.reasoning!.length <= 401);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("resume after SIGTERM and --retry-errors keep the sidecar in step: the bytes of an uninterrupted run", async () => {
  let broken = false;
  const isRanker = (b: { messages: { content: string }[] }) =>
    b.messages[0]?.content === RANKER_PROMPT;
  const server = startFakeOpenAIServer({
    latencyMs: 15,
    reply: (b) => broken && isRanker(b) ? "not a ranking" : majorityReply(b),
  });
  const dir = await Deno.makeTempDir();
  try {
    const data = await syntheticData(dir);
    const args = (out: string, extra: string[] = []) => [
      ...["--stage", "writing", "--grid", "0,0.5,1", "--dataset", data, "--trials", "2"],
      ...["--agent", "llm:fake-1", "--base-url", server.baseUrl, "--bank-size", "20"],
      ...["--cache", `${dir}/${out}.sqlite`, "--concurrency", "2", "--out", `${dir}/${out}`],
      "--quiet",
      ...extra,
    ];
    const reference = await run(args("ref.jsonl"));
    assert.equal(reference.code, 0, reference.out);

    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SWEEP, ...args("rows.jsonl")],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
    }).spawn();
    const partial = `${dir}/rows.trajectories.jsonl.partial`;
    for (let i = 0; i < 1000; i++) {
      const text = await Deno.readTextFile(partial).catch(() => "");
      if (text.split('{"t":"pair"').length > 6) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGTERM");
    assert.equal((await child.output()).code, 143);
    // A torn last line, as a kill mid-write leaves it.
    await Deno.writeTextFile(partial, '{"t":"pair","format":"memgauge.traj', { append: true });
    const resumed = await run(args("rows.jsonl", ["--resume"]));
    assert.equal(resumed.code, 0, resumed.out);
    const rows = await readRows(`${dir}/rows.jsonl`);
    assertInStep(rows, await readLines(`${dir}/rows.trajectories.jsonl`));
    assert.equal(
      await Deno.readTextFile(`${dir}/rows.trajectories.jsonl`),
      await Deno.readTextFile(`${dir}/ref.trajectories.jsonl`),
    );

    // Ranker replies that fail validation: error rows, and failed lines for their pairs.
    broken = true;
    const failing = await run(args("e.jsonl", ["--allow-errors"]));
    assert.equal(failing.code, 0, failing.out);
    const errorRows = await readRows(`${dir}/e.jsonl`);
    assert.ok(errorRows.some((r) => r.error !== null));
    const failedLines = await readLines(`${dir}/e.trajectories.jsonl`);
    assertInStep(errorRows, failedLines);
    assert.ok(failedLines.some((l) => l.error !== null && l.written.length === 0));
    broken = false;
    const fixed = await run(args("e.jsonl", ["--retry-errors"]));
    assert.equal(fixed.code, 0, fixed.out);
    const fixedRows = await readRows(`${dir}/e.jsonl`);
    assert.equal(fixedRows.filter((r) => r.error !== null).length, 0);
    const fixedLines = await readLines(`${dir}/e.trajectories.jsonl`);
    assertInStep(fixedRows, fixedLines);
    assert.ok(fixedLines.every((l) => l.error === null));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
