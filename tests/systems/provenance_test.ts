import assert from "node:assert/strict";
import { majorityReply } from "../../lib/testing/fake_openai_server.ts";
import { mem0System } from "../../lib/systems/mem0.ts";
import { ProvenanceLedger } from "../../lib/systems/provenance.ts";
import type { MemorySystem } from "../../lib/systems/memory_system.ts";
import { endpointOf, startSystemsServer } from "./_setup.ts";

// Scripted Mem0 decisions: a fact starting "forget" deletes memory 0, one starting "update"
// updates memory 0, anything else is added.
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

async function _write(system: MemorySystem, ledger: ProvenanceLedger, id: string, text: string) {
  const res = await system.write({ units: [{ id, text, channel: "user" }], background: false });
  return ledger.apply({ inputUnitIds: [id], after: await system.list(), touched: res.touched });
}

Deno.test("ProvenanceLedger keeps provenance through Mem0 UPDATE and DELETE", async () => {
  const server = startSystemsServer({ reply: _scripted });
  try {
    const system = await mem0System({ endpoint: endpointOf(server) })({
      scope: "p",
      management: "M1",
    });
    const ledger = new ProvenanceLedger();
    const add = await _write(system, ledger, "u1", "the appointment is on March 14");
    assert.equal(add.added.length, 1);
    const id = add.added[0];
    const update = await _write(system, ledger, "u2", "update: the appointment is on March 21");
    assert.deepEqual(update.updated, [id]);
    // Mem0's UPDATE rewrote the record; the kit still traces it to both units.
    assert.deepEqual(ledger.unitsOf(id), ["u1", "u2"]);
    assert.deepEqual((await system.list()).map((r) => r.text), [
      "update: the appointment is on March 21",
    ]);
    const del = await _write(system, ledger, "u3", "forget the appointment");
    assert.deepEqual(del.deleted, [id]);
    assert.deepEqual(ledger.unitsOf(id), []);
    assert.deepEqual(ledger.retained({ unitIds: ["u1", "u2", "u3"] }), []);
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
