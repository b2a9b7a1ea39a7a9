import assert from "node:assert/strict";
import { _BadLine, _scanJsonl } from "../../lib/stats/_scan_jsonl.ts";
import type { _TrialColumns } from "../../lib/stats/_trial_columns.ts";

const KEYS = ["agent", "thetaW", "instanceId", "pairId"];

/** Lines with CRLF endings, blank and whitespace lines, escapes, non-ASCII text, numbers
 * written two ways, a missing optional key, a reordered line, and no final newline. */
function text(): string {
  const line = (agent: string, thetaW: string, i: number, condition: string, tail = "") =>
    `{"agent":${agent},"thetaW":${thetaW},"instanceId":"i${i}","pairId":"p${i}",` +
    `"condition":"${condition}","output":"a \\"x\\":1","correct":${i % 2 === 0},` +
    `"matchesTarget":${i % 3 === 0 ? "null" : "false"},"error":null${tail}}`;
  return [
    line('"a"', "0.5", 0, "clean"),
    line('"a"', "0.5", 0, "poisoned") + "\r",
    "",
    line('"\\u0061"', "0.50", 1, "clean"),
    "  \t",
    line('"ä \\"q\\""', "1", 1, "poisoned", ',"extra":["\\"agent\\":"]') + "\r",
    '{"error":"boom","correct":null,"matchesTarget":null,"condition":"nomemory",' +
    '"pairId":"n1","instanceId":"i1","agent":"a"}',
    "\r",
    line('"b"', "1.0", 2, "clean"),
    line('"b"', "1e0", 2, "poisoned"),
  ].join("\n");
}

function plain(t: _TrialColumns) {
  return {
    rows: t.rows,
    columns: t.columns,
    values: KEYS.map((c) => t.values.get(c)),
    codes: KEYS.map((c) => [...t.codes.get(c)!]),
    outcomes: [t.condition, t.correct, t.target, t.error].map((a) => [...a]),
  };
}

Deno.test("_scanJsonl() gives the same columns wherever the file is split", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const body = text();
  await Deno.writeTextFile(path, body);
  const size = (await Deno.stat(path)).size;
  const want = plain(_scanJsonl(path, KEYS, { splits: [] }));
  assert.equal(want.rows, 7);
  assert.deepEqual(want.values, [["a", 'ä "q"', "b"], [0.5, 1, null], ["i0", "i1", "i2"], [
    "p0",
    "p1",
    "n1",
    "p2",
  ]]);
  assert.deepEqual(want.codes[0], [0, 0, 0, 1, 0, 2, 2]);
  assert.deepEqual(want.codes[1], [0, 0, 0, 1, 2, 1, 1]);
  assert.deepEqual(want.outcomes[0], [0, 1, 0, 1, 2, 0, 1]);
  for (let at = 0; at <= size; at++) {
    const got = plain(_scanJsonl(path, KEYS, { splits: [at], workers: false }));
    assert.deepEqual(got, want, `split at byte ${at}`);
  }
  for (let at = 0; at <= size; at += 37) {
    const got = plain(_scanJsonl(path, KEYS, { splits: [at, at + 90], workers: false }));
    assert.deepEqual(got, want, `splits at bytes ${at}, ${at + 90}`);
  }
  // With a final newline, and through workers.
  await Deno.writeTextFile(path, body + "\n");
  assert.deepEqual(plain(_scanJsonl(path, KEYS, { splits: [size / 2] })), want);
  assert.deepEqual(plain(_scanJsonl(path, KEYS, { splits: [size / 3, size / 2] })), want);
  await Deno.remove(path);
});

Deno.test("_scanJsonl() names the file's line of a bad row in any part", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const lines = text().split("\n");
  lines[8] = lines[8].replace('"pairId":"p2"', '"pairId":null');
  await Deno.writeTextFile(path, lines.join("\n"));
  for (const splits of [[], [100], [700]]) {
    for (const workers of [false, true]) {
      assert.throws(
        () => _scanJsonl(path, KEYS, { splits, workers }),
        (e) => e instanceof _BadLine && e.line === 9 && e.column === "pairId",
      );
    }
  }
  lines[8] = "not json";
  await Deno.writeTextFile(path, lines.join("\n"));
  assert.throws(() => _scanJsonl(path, KEYS, { splits: [700] }), /^TypeError: line 9 is not/);
  await Deno.remove(path);
});
