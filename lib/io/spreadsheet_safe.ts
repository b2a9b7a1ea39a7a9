/**
 * CSV cells that a spreadsheet would run as a formula (`=HYPERLINK(...)`, `+1+1`, `@SUM(...)`),
 * escaped before a CSV is written: an instance id or a plugin's label is data, never code.
 */
import pl from "nodejs-polars";

const _FORMULA = /^[=+\-@\t\r]/;
const _NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A text cell as a spreadsheet reads it literally: a cell starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return gets a leading `'` (OWASP's CSV-injection advice), unless it is a
 * plain number (`-0.5`, which a spreadsheet reads as the number it is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadsheetSafeCell } from "./spreadsheet_safe.ts";
 * assert.equal(spreadsheetSafeCell("=HYPERLINK(\"http://x\")"), "'=HYPERLINK(\"http://x\")");
 * assert.equal(spreadsheetSafeCell("-0.5"), "-0.5");
 * assert.equal(spreadsheetSafeCell("demo-01"), "demo-01");
 * ```
 */
export function spreadsheetSafeCell(cell: string): string {
  return _FORMULA.test(cell) && !_NUMBER.test(cell) ? `'${cell}` : cell;
}

/**
 * The frame with every text cell made {@link spreadsheetSafeCell}; other columns unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { spreadsheetSafeFrame } from "./spreadsheet_safe.ts";
 * const frame = spreadsheetSafeFrame(pl.DataFrame({ instanceId: ["=1+1", "a"], n: [-1, 2] }));
 * assert.deepEqual(frame.toRecords(), [{ instanceId: "'=1+1", n: -1 }, { instanceId: "a", n: 2 }]);
 * ```
 */
export function spreadsheetSafeFrame(frame: pl.DataFrame): pl.DataFrame {
  const text = frame.columns.filter((c) => frame.getColumn(c).dtype.equals(pl.String));
  if (text.length === 0) return frame;
  return frame.withColumns(
    ...text.map((c) =>
      pl.Series(
        c,
        frame.getColumn(c).toArray().map((v) => typeof v === "string" ? spreadsheetSafeCell(v) : v),
        pl.String,
      )
    ),
  );
}
