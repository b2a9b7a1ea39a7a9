import assert from "node:assert/strict";
import { majorityReply, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { ProvenanceLedger } from "../../lib/systems/provenance.ts";
import { systemSetup } from "../../lib/systems/system_setup.ts";
import { full } from "../support/tiers.ts";

// Scripted mem0 2.4.6 decisions: a fact starting "forget" deletes memory 0, one starting
// "update" updates memory 0, anything else is added.
function _scripted(body: { messages: { role: string; content: string }[] }): string {
  const all = body.messages.map((m) => m.content).join("\n");
  if (all.includes("Personal Information Organizer")) {
    const input = all.slice(all.lastIndexOf("Input:") + 6).trim();
    return JSON.stringify({ facts: [input] });
  }
  if (all.includes("smart memory manager")) {
    const fact =
      /should be added, updated, or deleted in the memory\.\s*\[\s*"([^"]*)"/.exec(all)![1];
    const event = fact.startsWith("forget")
      ? "DELETE"
      : fact.startsWith("update")
      ? "UPDATE"
      : "ADD";
    return JSON.stringify({ memory: [{ id: event === "ADD" ? "new" : "0", text: fact, event }] });
  }
  return majorityReply(body as never);
}

full.test("mem0-classic: provenance survives UPDATE and DELETE in M1; M0 adds every fact without a decision call", async () => {
  const server = startFakeOpenAIServer({ reply: _scripted });
  try {
    const system = systemSetup({
      name: "mem0-classic",
      chatModel: "fake",
      baseUrl: server.baseUrl,
      embeddingModel: "fake-embed",
      env: { OPENAI_API_KEY: "test-key" },
    });
    const session = await system.open({
      scope: "p",
      modes: ["M0", "M1"],
      seed: 0,
      trial: 0,
      sessionDate: "2025-01-01",
      fingerprint: "p",
    });
    const write = (id: string, text: string) =>
      session.write({ unit: { id, text, channel: "user" }, background: false });
    await write("u1", "the appointment is on March 14");
    const [added] = await session.records({ mode: "M1" });
    assert.deepEqual(added.unitIds, ["u1"]);
    await write("u2", "update: the appointment is on March 21");
    // mem0's UPDATE rewrote the record; the kit still traces it to both units.
    assert.deepEqual(await session.records({ mode: "M1" }), [
      {
        storeId: added.storeId,
        text: "update: the appointment is on March 21",
        unitIds: ["u1", "u2"],
      },
    ]);
    await write("u3", "forget the appointment");
    assert.deepEqual(await session.records({ mode: "M1" }), []);
    // M0 never asked for a decision: every fact stayed, each with its own unit.
    assert.deepEqual((await session.records({ mode: "M0" })).map((r) => r.unitIds), [
      ["u1"],
      ["u2"],
      ["u3"],
    ]);
    // Writing ran once per unit: 3 extraction calls, plus M1's 3 decision calls.
    assert.equal(system.port!.usage.get("writing")!.chatRequests, 3);
    assert.equal(system.port!.usage.get("M1")!.chatRequests, 3);
    assert.equal(system.port!.usage.get("M0")?.chatRequests ?? 0, 0);
    assert.deepEqual(session.received({ mode: "M0" }), session.received({ mode: "M1" }));
  } finally {
    await server.close();
  }
});

Deno.test("ProvenanceLedger.retained() counts a unit only when a live record traces to it", () => {
  const ledger = new ProvenanceLedger();
  ledger.apply({ inputUnitIds: ["u1"], after: [{ id: "r1", text: "a" }] });
  // u2 produced no record (nothing extracted): not retained.
  ledger.apply({ inputUnitIds: ["u2"], after: [{ id: "r1", text: "a" }] });
  // u3 produced a record whose text happens to equal r1's: retained through its own record only.
  ledger.apply({ inputUnitIds: ["u3"], after: [{ id: "r1", text: "a" }, { id: "r3", text: "a" }] });
  assert.deepEqual(ledger.retained({ unitIds: ["u1", "u2", "u3"] }), ["u1", "u3"]);
  // A system-reported touch without a text change still unions provenance (Mem0 UPDATE to same text).
  ledger.apply({
    inputUnitIds: ["u4"],
    after: [{ id: "r1", text: "a" }, { id: "r3", text: "a" }],
    touched: ["r1"],
  });
  assert.deepEqual(ledger.unitsOf("r1"), ["u1", "u4"]);
});
