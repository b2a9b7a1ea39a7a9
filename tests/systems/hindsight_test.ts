import assert from "node:assert/strict";
import { hindsightSystem } from "../../lib/systems/hindsight.ts";
import type { SystemSession } from "../../lib/systems/memory_system.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { startPipelineCheck } from "../../lib/systems/pipeline_check.ts";
import { startFakeHindsight } from "../../lib/testing/fake_hindsight_server.ts";
import { demoInstances, pipelineRun } from "./_setup.ts";
import { full } from "../support/tiers.ts";

const UNITS = [
  { id: "u1", text: "The dentist appointment with Dr. Nkemelu is on March 14, 2025." },
  { id: "u2", text: "My car needs its winter tires put on before the first snow." },
  { id: "u3", text: "The dentist appointment with Dr. Nkemelu moved to March 21, 2025." },
];

async function _session(delayMs: number) {
  const server = startFakeHindsight({ consolidationDelayMs: delayMs });
  const system = hindsightSystem({ baseUrl: server.baseUrl, pollMs: 1 });
  const session: SystemSession = await system.open({
    scope: "t",
    modes: ["M0", "M1"],
    seed: 0,
    trial: 0,
    sessionDate: "2025-01-01",
    fingerprint: `hs-${delayMs}`,
  });
  return { server, session, system };
}

Deno.test("hindsightSystem() waits for asynchronous consolidation and traces observations through source_memory_ids", async () => {
  // The stand-in consolidates 40 ms after each retain returns, as Hindsight's background job does.
  const { server, session } = await _session(40);
  try {
    for (const u of UNITS) {
      await session.write({ unit: { ...u, channel: "user" }, background: false });
      // Right after each write the unit's observation exists and traces to the unit.
      const obs = (await session.records({ mode: "M1" })).filter((r) => r.storeId.startsWith("o"));
      assert.ok(obs.some((o) => o.unitIds.includes(u.id)), `no observation for ${u.id} yet`);
    }
    const m1 = await session.records({ mode: "M1" });
    const observations = m1.filter((r) => r.storeId.startsWith("o"));
    // Two observations: the dentist one consolidates u1 and u3, the car one is u2's alone.
    assert.deepEqual(
      observations.map((o) => o.unitIds.sort()).sort(),
      [["u1", "u3"], ["u2"]],
    );
    // M0 reads the same bank without observations: the same facts, nothing consolidated.
    const m0 = await session.records({ mode: "M0" });
    assert.ok(m0.every((r) => r.storeId.startsWith("f")));
    assert.deepEqual(m0, m1.filter((r) => r.storeId.startsWith("f")));
    assert.deepEqual(session.received({ mode: "M0" }), session.received({ mode: "M1" }));
    const hits = await session.search({
      mode: "M1",
      query: "When is the dentist appointment?",
      k: 5,
    });
    assert.ok(hits.some((h) => h.storeId.startsWith("o")));
    const m0Hits = await session.search({
      mode: "M0",
      query: "When is the dentist appointment?",
      k: 5,
    });
    assert.ok(m0Hits.every((h) => h.storeId.startsWith("f")));
    // The adapter polled the operations endpoint while consolidation was pending.
    assert.ok(server.calls.filter((c) => c === "GET /operations").length > UNITS.length);
  } finally {
    await session.close();
    await server.close();
  }
});

Deno.test("hindsightSystem() turns a consolidation that never finishes into an error", async () => {
  const server = startFakeHindsight({ consolidationDelayMs: 60_000 });
  const system = hindsightSystem({
    baseUrl: server.baseUrl,
    pollMs: 1,
    consolidationTimeoutMs: 30,
  });
  try {
    const session = await system.open({
      scope: "t",
      modes: ["M1"],
      seed: 0,
      trial: 0,
      sessionDate: "2025-01-01",
      fingerprint: "timeout",
    });
    await assert.rejects(
      session.write({ unit: { ...UNITS[0], channel: "user" }, background: false }),
      /consolidation of bank .* did not finish within 30 ms/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("the Hindsight stand-in answers as hindsight-api 0.9.1: no lineage in lists, facts-only recall without types", async () => {
  const server = startFakeHindsight({ consolidationDelayMs: 1 });
  const base = `${server.baseUrl}/v1/default/banks/b`;
  const get = async (path: string, init?: RequestInit) =>
    await (await fetch(`${base}${path}`, init)).json();
  const post = (path: string, body: unknown) =>
    get(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  try {
    await get("", { method: "PUT", body: JSON.stringify({ enable_observations: true }) });
    await post("/memories", { items: [{ content: UNITS[0].text, document_id: "u1" }] });
    await new Promise((r) => setTimeout(r, 30));
    const { items } = await get("/memories/list");
    assert.ok(items.length === 2 && items.every((i: object) => !("source_memory_ids" in i)));
    const observation = items.find((i: { fact_type: string }) => i.fact_type === "observation");
    const one = await get(`/memories/${observation.id}`);
    assert.equal(one.type, "observation");
    assert.equal(one.source_memory_ids.length, 1);
    const recall = await post("/memories/recall", { query: "dentist appointment" });
    assert.deepEqual(recall.results.map((r: { type: string }) => r.type), ["world"]);
    assert.equal((await (await fetch(`${server.baseUrl}/version`)).json()).api_version, "0.9.1");
  } finally {
    await server.close();
  }
});

Deno.test("hindsight rows record the server's version and the models its LLM traces name, replayed alike", async () => {
  // Before issue 22 rows said only the client version, and M1's recall (no `types`) returned
  // facts only against 0.9.1, where no listed observation traced to a unit.
  const instances = await demoInstances(2, 5);
  const cache = new ResponseCache({ path: ":memory:" });
  const check = await startPipelineCheck({});
  try {
    const first = await pipelineRun({ name: "hindsight", instances, cache, check });
    const again = await pipelineRun({ name: "hindsight", instances, cache, check });
    assert.equal(again.hindsightRequests, 0);
    for (const { rows } of [first, again]) {
      assert.deepEqual(
        [...new Set(rows.map((r) => [r.systemVersion, r.systemModel].join(" | ")))],
        [
          "@vectorize-io/hindsight-client@0.9.1 + hindsight-api@0.9.1 | stand-in/fake-hindsight-llm",
        ],
      );
    }
    // M1 contexts hold observations, each traced to the units it consolidates.
    const m1 = first.rows.filter((r) => r.management === "M1" && r.condition === "clean");
    assert.ok(m1.some((r) => r.helpfulInContext));
    assert.ok(first.rows.every((r) => !r.contextIds.some((id) => id.startsWith("unlisted:"))));
  } finally {
    cache.close();
    await check.close();
  }
});

full.test("systems CLI refuses a Hindsight server older than 0.9.1 in one line, before any file", async () => {
  const server = startFakeHindsight({ version: "0.8.6" });
  const dir = await Deno.makeTempDir({ prefix: "mg-hs-old-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../lib/cli/systems.ts", import.meta.url).pathname,
        ...["--system", "hindsight", "--agent", "llm:m", "--base-url", "http://127.0.0.1:9/v1"],
        ...["--judge", "deterministic", "--hindsight-url", server.baseUrl],
        ...["--cache", `${dir}/c.sqlite`, "--out", `${dir}/rows.jsonl`],
      ],
      env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-Hq3Zr8Lw2Kp6" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n");
    assert.equal(out.code, 2, stderr.join("\n"));
    assert.equal(stderr.length, 1);
    assert.match(
      stderr[0],
      /--hindsight-url .*: the server runs hindsight-api 0\.8\.6; the adapter needs 0\.9\.1 or later/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
