import assert from "node:assert/strict";
import { TrialRow } from "../../lib/schema/trial_row.ts";
import { COLUMN_KINDS, columnMisfit } from "../../lib/stats/_row_columns.ts";

// A valid value of each kind, for the columns whose schema narrows it further.
const VALID: Record<string, unknown> = {
  attack: "minja",
  stage: "writing",
  condition: "clean",
  fill: "random",
  policy: "UM",
  ablatedRole: "risk",
};
const SAMPLE = { string: "x", number: 0.5, integer: 1, boolean: true } as const;
const WRONG = { string: 5, number: "high", integer: 1.5, boolean: "yes" } as const;

Deno.test("COLUMN_KINDS agree with the TrialRow contract, and columnMisfit() with zod", () => {
  const shape = TrialRow.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  let checked = 0;
  for (const [column, kind] of Object.entries(COLUMN_KINDS)) {
    const field = shape[column];
    if (!field) continue; // existing-systems columns (SystemRow in lib/systems/measure.ts)
    const good = VALID[column] ?? SAMPLE[kind];
    assert.ok(field.safeParse(good).success, `${column} accepts a ${kind}`);
    assert.equal(columnMisfit(column, kind, good), null, column);
    assert.ok(!field.safeParse(WRONG[kind]).success, `${column} refuses ${WRONG[kind]}`);
    assert.match(columnMisfit(column, kind, WRONG[kind]) ?? "", new RegExp(`column "${column}"`));
    checked++;
  }
  assert.ok(checked >= 20, `${checked} columns checked`);
});
