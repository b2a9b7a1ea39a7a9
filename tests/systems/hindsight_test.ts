import assert from "node:assert/strict";
import { hindsightSystem } from "../../lib/systems/hindsight.ts";
import type { SystemSession } from "../../lib/systems/memory_system.ts";
import { startFakeHindsight } from "../../lib/testing/fake_hindsight_server.ts";

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
