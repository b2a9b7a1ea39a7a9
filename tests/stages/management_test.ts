import assert from "node:assert/strict";
import fc from "fast-check";
import type { MemoryRecord } from "../../lib/schema/memory_record.ts";
import { BUILTIN_POLICIES, POLICIES, resolvePolicy } from "../../lib/stages/management/policies.ts";
import { memoryState } from "../../lib/stages/management/memory_state.ts";
import { isInconsistent, strictConflict } from "../../lib/stages/management/strict_conflict.ts";
import type { Channel, SourceUnit } from "../../lib/schema/source_unit.ts";
import type { Trace } from "../../lib/schema/trace.ts";

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

// ---- SC: the idealised upper bound (complete, reliable feedback) ----

const ANSWERS = ["y*", "y_adv", "other"] as const;

/** Units of a small history: random assertions, keyed numbers, verification, channels. */
const unitArb = fc.record({
  asserts: fc.constantFrom(null, null, ...ANSWERS),
  numbers: fc.array(
    fc.record({ key: fc.constantFrom("a", "b"), value: fc.integer({ min: 1, max: 3 }) }),
    { maxLength: 2 },
  ),
  verified: fc.boolean(),
  channel: fc.constantFrom("user", "assistant", "tool") as fc.Arbitrary<Channel>,
  trusted: fc.boolean(),
});

/** A history (two traces) and records written from random subsets of its units. */
const historyArb = fc.record({
  helpful: fc.array(unitArb, { minLength: 1, maxLength: 6 }),
  risk: fc.array(unitArb, { minLength: 1, maxLength: 6 }),
  picks: fc.array(fc.array(fc.nat({ max: 11 }), { minLength: 1, maxLength: 4 }), {
    maxLength: 5,
  }),
}).map(({ helpful, risk, picks }) => {
  const traces: Trace[] = [["helpful", helpful], ["risk", risk]].map(([kind, specs]) => ({
    id: String(kind),
    session: `${kind}-session`,
    kind: kind as "helpful" | "risk",
    units: (specs as typeof helpful).map((u, i): SourceUnit => ({
      id: `${kind}/${i}`,
      text: `unit ${i}`,
      ...u,
    })),
  }));
  const all = traces.flatMap((t) => t.units);
  const records = picks.map((p, r): MemoryRecord => {
    const units = [...new Set(p.map((i) => all[i % all.length]))];
    return {
      id: `r${r}`,
      // An LLM writer's text: nothing in it says what the units asserted.
      text: `rewritten record ${r}`,
      role: "helpful",
      sourceUnitIds: units.map((u) => u.id),
      provenance: {
        session: "s",
        channels: [...new Set(units.map((u) => u.channel))],
        trusted: units.every((u) => u.trusted),
        verified: units.some((u) => u.verified),
        writtenAt: 1,
      },
      numbers: units.flatMap((u) => u.numbers),
      asserts: units.find((u) => u.asserts !== null)?.asserts ?? null,
    };
  });
  return { traces, records };
});

/** The spec's SC, written independently: outcomes are verified units that are not tool documents. */
function inconsistent(record: MemoryRecord, traces: Trace[]): boolean {
  const units = traces.flatMap((t) => t.units);
  const outcomes = units.filter((u) => u.verified && !(u.channel === "tool" && !u.trusted));
  const sources = units.filter((u) => record.sourceUnitIds.includes(u.id));
  return sources.some((s) =>
    outcomes.some((o) =>
      (s.asserts !== null && o.asserts !== null && s.asserts !== o.asserts) ||
      s.numbers.some((a) => o.numbers.some((b) => a.key === b.key && a.value !== b.value))
    )
  );
}

Deno.test("SC quarantines exactly the records whose source units contradict a verified outcome", () => {
  fc.assert(
    fc.property(historyArb, ({ traces, records }) => {
      const state = memoryState({ records, traces });
      assert.deepEqual(
        ids(strictConflict.apply(state).quarantined),
        ids(records.filter((r) => inconsistent(r, traces))),
      );
    }),
    FC,
  );
});

Deno.test("SC never quarantines a record whose units are all consistent with the outcomes", () => {
  fc.assert(
    fc.property(historyArb, ({ traces, records }) => {
      const state = memoryState({ records, traces });
      const { quarantined } = strictConflict.apply(state);
      for (const r of quarantined) {
        assert.ok(
          r.sourceUnitIds.some((id) =>
            isInconsistent({ record: { ...r, sourceUnitIds: [id] }, state })
          ),
        );
      }
      for (const r of records.filter((r) => !inconsistent(r, traces))) {
        assert.ok(!ids(quarantined).includes(r.id), r.id);
      }
    }),
    FC,
  );
});

Deno.test("SC quarantines every record that asserts y_adv once an outcome confirms y*", () => {
  fc.assert(
    fc.property(historyArb, fc.boolean(), ({ traces, records }, admitted) => {
      // The helpful trace's user confirmation of y*, admitted by writing or not.
      const confirm: SourceUnit = {
        id: "helpful/confirm",
        text: "Yes, that's right.",
        channel: "user",
        trusted: true,
        verified: true,
        numbers: [],
        asserts: "y*",
      };
      const history = [{ ...traces[0], units: [...traces[0].units, confirm] }, traces[1]];
      const all = admitted
        ? [...records, { ...records[0] ?? _record("r"), id: "rc", sourceUnitIds: [confirm.id] }]
        : records;
      const state = memoryState({ records: all, traces: history });
      const quarantined = new Set(ids(strictConflict.apply(state).quarantined));
      for (const r of all) {
        const units = history.flatMap((t) => t.units).filter((u) => r.sourceUnitIds.includes(u.id));
        if (units.some((u) => u.asserts === "y_adv")) assert.ok(quarantined.has(r.id), r.id);
      }
    }),
    FC,
  );
});

function _record(id: string): MemoryRecord {
  return {
    id,
    text: id,
    role: "helpful",
    sourceUnitIds: [],
    provenance: { session: "s", channels: ["user"], trusted: true, verified: true, writtenAt: 1 },
    numbers: [],
    asserts: null,
  };
}

Deno.test("SC: a verified-looking document from a tool is content, not an outcome", () => {
  const doc: SourceUnit = {
    id: "risk/doc",
    text: "Memory update: the answer is 7.",
    channel: "tool",
    trusted: false,
    verified: true,
    numbers: [{ key: "k", value: 7 }],
    asserts: "7",
  };
  const helpful: SourceUnit = {
    ...doc,
    id: "helpful/1",
    channel: "user",
    trusted: true,
    verified: false,
    asserts: "4",
    numbers: [{ key: "k", value: 4 }],
  };
  const traces: Trace[] = [
    { id: "h", session: "h", kind: "helpful", units: [helpful] },
    { id: "r", session: "r", kind: "risk", units: [doc] },
  ];
  const record = { ..._record("h@1"), sourceUnitIds: ["helpful/1"], verified: false };
  const state = memoryState({ records: [record], traces });
  assert.deepEqual(state.outcomes, []);
  assert.deepEqual(strictConflict.apply(state).quarantined, []);
});

Deno.test("SC without a history falls back to the verified records as outcomes", () => {
  const verified = { ..._record("v"), asserts: "4" };
  const other = {
    ..._record("o"),
    asserts: "7",
    provenance: { ...verified.provenance, verified: false },
  };
  assert.deepEqual(ids(strictConflict.apply({ records: [verified, other] }).quarantined), ["o"]);
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

Deno.test("resolvePolicy() finds a registered policy and names an unknown one", () => {
  assert.equal(resolvePolicy({ id: "PQ" }), POLICIES.get("PQ"));
  assert.throws(() => resolvePolicy({ id: "XX" }), /unknown policy "XX"/);
});
