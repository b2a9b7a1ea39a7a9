/**
 * The error a library function throws for a bad value of one of its options: it carries the
 * field's name, so a caller can word it in its own terms (the CLI names the option that fed
 * the field: `--bank-size: ...`; a notebook reads `bankSize: ...`).
 */

/**
 * A value one option field cannot take. `field` is the library's name for it (`bankSize`,
 * `concurrency`, `cachePath`), `detail` says what was wrong and what was received, and `value`
 * (optional) is the value as it is shown after the name, when the detail refers to it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FieldError } from "./field_error.ts";
 * const e = new FieldError({ field: "concurrency", detail: "expected an integer >= 1, got 0" });
 * assert.ok(e instanceof RangeError);
 * assert.equal(e.message, "concurrency: expected an integer >= 1, got 0");
 * const f = new FieldError({ field: "cachePath", value: "c.db", detail: "not a SQLite file" });
 * assert.equal(f.message, "cachePath c.db: not a SQLite file");
 * ```
 */
export class FieldError extends RangeError {
  override name = "FieldError";
  /** The option field that held the value (`bankSize`). */
  readonly field: string;
  /** What was wrong, without the field's name. */
  readonly detail: string;
  /** The value as shown after the field's name, when the detail refers to it; default none. */
  readonly value?: string;

  constructor(options: { field: string; detail: string; value?: string }) {
    const { field, detail, value } = options;
    super(`${field}${value === undefined ? "" : ` ${value}`}: ${detail}`);
    this.field = field;
    this.detail = detail;
    this.value = value;
  }
}
