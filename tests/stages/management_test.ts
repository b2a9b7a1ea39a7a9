import assert from "node:assert/strict";
import fc from "fast-check";
import type { MemoryRecord } from "../../lib/model/memory_record.ts";
import { BUILTIN_POLICIES, resolvePolicy } from "../../lib/stages/management/policies.ts";
import { quarantineWhere } from "../../lib/stages/management/policy.ts";

const FC = { seed: 7, numRuns: 300 };

const recordArb = fc.record({
  trusted: fc.boolean(),
  verified: fc.boolean(),
  writtenAt: fc.integer({ min: 0, max: 2 }),
  numbers: fc.array(
    fc.record({ key: fc.constantFrom("a", "b"), value: fc.integer({ min: 1, max: 3 }) }),
    {
      maxLength: 2,
    },
  ),
});

const memoryArb = fc.array(recordArb, { maxLength: 12 }).map((specs) =>
  specs.map((s, i): MemoryRecord => ({
    id: `r${i}`,
    text: `record ${i}`,
    role: s.writtenAt === 0 ? "background" : s.writtenAt === 1 ? "helpful" : "risk",
    sourceUnitIds: [],
    provenance: {
      session: "s",
      channels: ["user"],
      trusted: s.trusted,
      verified: s.verified,
      writtenAt: s.writtenAt,
    },
    numbers: s.numbers,
    asserts: null,
  }))
);

/** The spec's definition of a numeric conflict, written independently of the library. */
function conflicts(r: MemoryRecord, all: MemoryRecord[]): boolean {
  if (r.provenance.writtenAt === 0) return false;
  for (const t of all) {
    if (t === r || !t.provenance.trusted || t.provenance.writtenAt >= r.provenance.writtenAt) {
      continue;
    }
    for (const a of t.numbers) {
      for (const b of r.numbers) if (a.key === b.key && a.value !== b.value) return true;
    }
  }
  return false;
}

const ids = (rs: MemoryRecord[]) => rs.map((r) => r.id);

Deno.test("every policy partitions memory into kept and quarantined, keeping order", () => {
  fc.assert(
    fc.property(memoryArb, (records) => {
      for (const policy of Object.values(BUILTIN_POLICIES)) {
        const { kept, quarantined } = policy.apply({ records });
        assert.deepEqual([...ids(kept), ...ids(quarantined)].toSorted(), ids(records).toSorted());
        assert.deepEqual(ids(kept), ids(records).filter((id) => ids(kept).includes(id)));
      }
    }),
    FC,
  );
});

Deno.test("UM quarantines nothing", () => {
  fc.assert(
    fc.property(
      memoryArb,
      (records) => assert.deepEqual(BUILTIN_POLICIES.UM.apply({ records }).quarantined, []),
    ),
    FC,
  );
});

Deno.test("PQ quarantines exactly the untrusted-source records", () => {
  fc.assert(
    fc.property(
      memoryArb,
      (records) =>
        assert.deepEqual(
          ids(BUILTIN_POLICIES.PQ.apply({ records }).quarantined),
          ids(records.filter((r) => !r.provenance.trusted)),
        ),
    ),
    FC,
  );
});

Deno.test("NC quarantines exactly the numeric conflicts with earlier trusted records", () => {
  fc.assert(
    fc.property(
      memoryArb,
      (records) =>
        assert.deepEqual(
          ids(BUILTIN_POLICIES.NC.apply({ records }).quarantined),
          ids(records.filter((r) => conflicts(r, records))),
        ),
    ),
    FC,
  );
});

Deno.test("SC quarantines exactly the unverified records", () => {
  fc.assert(
    fc.property(
      memoryArb,
      (records) =>
        assert.deepEqual(
          ids(BUILTIN_POLICIES.SC.apply({ records }).quarantined),
          ids(records.filter((r) => !r.provenance.verified)),
        ),
    ),
    FC,
  );
});

Deno.test("NC keeps a risk record that conflicts only with an untrusted record", () => {
  const rec = (id: string, trusted: boolean, writtenAt: number, value: number): MemoryRecord => ({
    id,
    text: id,
    role: "risk",
    sourceUnitIds: [],
    provenance: { session: "s", channels: ["tool"], trusted, verified: false, writtenAt },
    numbers: [{ key: "k", value }],
    asserts: null,
  });
  const records = [rec("h", false, 1, 1), rec("r", true, 2, 2)];
  assert.deepEqual(BUILTIN_POLICIES.NC.apply({ records }).quarantined, []);
});

Deno.test("resolvePolicy() accepts a user policy and names an unknown one", () => {
  const custom = quarantineWhere({
    id: "NOTOOL",
    description: "no tools",
    quarantine: (r) => r.provenance.channels.includes("tool"),
  });
  assert.equal(resolvePolicy({ id: "NOTOOL", extra: { NOTOOL: custom } }), custom);
  assert.throws(() => resolvePolicy({ id: "XX" }), /unknown policy "XX"/);
});
