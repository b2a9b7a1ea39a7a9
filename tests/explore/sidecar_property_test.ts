/**
 * Properties of the sidecar encoding and of the page's pair details (fast-check): whatever the
 * lines, decoding gives back exactly what was encoded; a trace or record is defined once per
 * file even when a thousand pairs use it, and a second content under a taken id gets its own
 * definition; a torn last line costs only its own pair.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { PairTrajectory } from "../../lib/schema/pair_trajectory.ts";
import { decodeSidecar, SidecarEncoder } from "../../lib/schema/trajectory_sidecar.ts";
import type { PairSummary } from "../../lib/explore/explore_data.ts";
import { decodePairDetail, encodePairDetail, StringTable } from "../../lib/explore/pair_detail.ts";

const text = fc.string({ minLength: 1, maxLength: 12 });
const id = fc.constantFrom("a", "b", "c", "d");

const record = fc.record({
  text,
  role: fc.constantFrom("helpful", "risk", "background"),
  sourceUnitIds: fc.array(id, { maxLength: 2 }),
  channels: fc.constant(["user"] as "user"[]),
  trusted: fc.boolean(),
  verified: fc.boolean(),
  session: id,
  writtenAt: fc.integer({ min: 0, max: 2 }),
  asserts: fc.option(text, { nil: null }),
});

const trace = (kind: "helpful" | "risk") =>
  fc.record({
    kind: fc.constant(kind),
    id,
    session: id,
    units: fc.array(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 3 }),
        text,
        channel: fc.constantFrom("user", "assistant", "tool"),
        trusted: fc.boolean(),
        verified: fc.boolean(),
        asserts: fc.option(text, { nil: null }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }).chain((t) =>
    fc.integer({ min: 0, max: t.units.length }).map((admitted) => ({
      ...t,
      // Ranks are a permutation; the admitted prefix is the top ranks, as `admit` makes it.
      units: t.units.map((u, i) => ({
        ...u,
        rank: t.units.length - i,
        admitted: t.units.length - i <= admitted,
      })),
    }))
  );

const run = fc.record({
  quarantined: fc.constant([]),
  context: fc.array(id, { maxLength: 3 }),
  output: fc.option(text, { nil: null }),
  correct: fc.option(fc.boolean(), { nil: null }),
  matchesTarget: fc.option(fc.boolean(), { nil: null }),
  hedged: fc.option(fc.boolean(), { nil: null }),
  error: fc.constant(null),
});

const trajectory = fc.record({
  pairId: fc.string({ minLength: 1, maxLength: 6 }),
  trial: fc.integer({ min: 0, max: 2 }),
  traces: fc.tuple(trace("helpful"), trace("risk")),
  records: fc.dictionary(id, record, { maxKeys: 4 }),
  clean: run,
  poisoned: run,
}).map((t): PairTrajectory => ({
  format: "memgauge.trajectory/1",
  runId: "r",
  instanceId: "i",
  agent: "a",
  attack: "minja",
  query: "q",
  answer: "y",
  target: "z",
  helpfulExposed: true,
  riskExposed: false,
  written: [],
  ablations: [],
  error: null,
  ...t,
  traces: [...t.traces],
} as unknown as PairTrajectory));

// fast-check builds null-prototype objects; compare plain JSON values.
const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
const key = (t: { pairId: string; trial: number }) => `${t.pairId}#${t.trial}`;
const firstOfEachKey = (lines: PairTrajectory[]) =>
  lines.filter((t, i) => lines.findIndex((u) => key(u) === key(t)) === i);

Deno.test("decodeSidecar(encode(lines)) gives back every line, the first of each key once", () => {
  fc.assert(
    fc.property(fc.array(trajectory, { maxLength: 12 }), (lines) => {
      const encoder = new SidecarEncoder();
      const file = lines.map((t) => encoder.encode(t)).join("");
      const decoded = decodeSidecar({ text: file });
      assert.equal(decoded.skipped, 0);
      assert.deepEqual(plain(decoded.trajectories), plain(firstOfEachKey(lines)));
    }),
    { numRuns: 200 },
  );
});

Deno.test("every trace and record content is defined once per file, under its id or a fresh one", () => {
  fc.assert(
    fc.property(fc.array(trajectory, { minLength: 1, maxLength: 12 }), (lines) => {
      const encoder = new SidecarEncoder();
      const file = lines.map((t) => encoder.encode(t)).join("");
      const defs = file.trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.t !== "pair");
      const contents = defs.map(({ ref: _ref, ...rest }) => JSON.stringify(rest));
      assert.equal(new Set(contents).size, contents.length, "no content twice");
      const refs = defs.map((d) => `${d.t}:${d.ref}`);
      assert.equal(new Set(refs).size, refs.length, "no ref twice");
    }),
    { numRuns: 200 },
  );
});

Deno.test("a torn last line loses only its own pair, and keys select exactly their pairs", () => {
  fc.assert(
    fc.property(
      fc.array(trajectory, { minLength: 1, maxLength: 8 }),
      fc.nat(),
      (lines, cut) => {
        const encoder = new SidecarEncoder();
        const chunks = lines.map((t) => encoder.encode(t));
        const last = chunks.at(-1)!;
        const torn = chunks.slice(0, -1).join("") + last.slice(0, cut % last.length);
        const before = firstOfEachKey(lines.slice(0, -1)).map(key);
        const got = decodeSidecar({ text: torn }).trajectories.map(key);
        // The torn pair may survive only when the cut fell after its pair line's end.
        assert.deepEqual(got.slice(0, before.length), before);
        const keys = new Set(lines.filter((_, i) => i % 2 === 0).map(key));
        const kept = decodeSidecar({ text: chunks.join(""), keys }).trajectories.map(key);
        assert.deepEqual(kept, [
          ...new Set(firstOfEachKey(lines).map(key).filter((k) => keys.has(k))),
        ]);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("a pair's page detail decodes to the pair it encodes", () => {
  const runSummary = fc.record({
    contextIds: fc.array(text, { maxLength: 5 }),
    output: fc.option(text, { nil: null }),
    correct: fc.option(fc.boolean(), { nil: null }),
    matchesTarget: fc.option(fc.boolean(), { nil: null }),
    hedged: fc.option(fc.boolean(), { nil: null }),
    error: fc.option(text, { nil: null }),
    riskInContext: fc.boolean(),
    helpfulInContext: fc.boolean(),
    judgeModel: fc.option(text, { nil: null }),
    stopReason: fc.option(text, { nil: null }),
  });
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          clean: fc.option(runSummary, { nil: null }),
          poisoned: fc.option(runSummary, { nil: null }),
          helpfulExposed: fc.option(fc.boolean(), { nil: null }),
          riskExposed: fc.option(fc.boolean(), { nil: null }),
          runId: text,
          pairId: text,
          ablations: fc.array(
            fc.record({
              condition: text,
              ablated: text,
              role: fc.constantFrom("helpful", "risk", "background"),
              replacement: fc.option(text, { nil: null }),
              output: fc.option(text, { nil: null }),
              flipped: fc.option(fc.boolean(), { nil: null }),
              error: fc.option(text, { nil: null }),
            }),
            { maxLength: 3 },
          ),
        }),
        { maxLength: 10 },
      ),
      (parts) => {
        const labels = {
          key: "k",
          trial: 0,
          instanceId: "i",
          agent: "a",
          simulated: true,
          dataset: "d",
          attack: "minja",
          stage: "writing",
          point: "θw 0.5",
          policy: "UM",
          setting: "K 5",
        };
        const table = new StringTable();
        const pairs = parts.map((p): PairSummary => ({ ...labels, ...p, trajectory: null }));
        const lines = pairs.map((pair) =>
          JSON.stringify(encodePairDetail({ pair, table, trajectory: 0 }))
        );
        const strings = JSON.parse(JSON.stringify(table.strings));
        lines.forEach((line, i) => {
          const back = decodePairDetail({ detail: JSON.parse(line), strings, labels });
          assert.deepEqual(plain(back), plain(pairs[i]));
        });
      },
    ),
    { numRuns: 200 },
  );
});
