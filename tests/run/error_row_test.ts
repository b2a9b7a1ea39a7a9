import assert from "node:assert/strict";
import { errorOutcome, errorRow } from "../../lib/run/error_row.ts";
import { registerSecret } from "../../lib/models/redact.ts";
import { TRIAL_ROW_COLUMNS } from "../../lib/schema/trial_row.ts";
import { SYSTEM_ROW_COLUMNS } from "../../lib/schema/system_row.ts";

Deno.test("errorOutcome(): null decisions, the message redacted, the thrown stop reason first", () => {
  const key = "sk-error-row-test-" + "a".repeat(24);
  // Redaction removes the keys the run holds (registered when read from the environment).
  registerSecret({ secret: key });
  const thrown = Object.assign(new Error(`401 for key ${key}`), { stopReason: "length" });
  const out = errorOutcome({ error: thrown, stopReason: "stop" });
  assert.equal(out.error.includes(key), false, out.error);
  assert.match(out.error, /^Error: 401 for key/);
  assert.equal(out.stopReason, "length");
  for (const c of ["output", "correct", "matchesTarget", "hedged", "reasoning"] as const) {
    assert.equal(out[c], null, c);
  }
  // Without a thrown reason the one known before the failure stays; tokens spent stay counted.
  const judged = errorOutcome({
    error: "judge down",
    stopReason: "stop",
    usage: { cacheHit: false, promptTokens: 5, completionTokens: 2 },
  });
  assert.deepEqual([judged.error, judged.stopReason, judged.promptTokens], [
    "judge down",
    "stop",
    5,
  ]);
});

Deno.test("errorRow(): every outcome column present, in the contract order of the row type", () => {
  for (const columns of [TRIAL_ROW_COLUMNS, SYSTEM_ROW_COLUMNS]) {
    const identity = Object.fromEntries(
      columns.filter((c) => !(c in errorOutcome({ error: "x" }))).map((c) => [c, `v:${c}`]),
    );
    const row = errorRow({ columns, row: identity, error: new RangeError("bad") });
    assert.deepEqual(Object.keys(row), columns.filter((c) => row[c] !== undefined));
    assert.equal(Object.keys(row).length, columns.length);
    assert.equal(row.error, "RangeError: bad");
    assert.equal(row.correct, null);
  }
});
