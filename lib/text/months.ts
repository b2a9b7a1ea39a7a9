/** Month names and the month-name pattern, shared by the judge's date normalization and the builders. */

/** English month names, January first. */
export const MONTH_NAMES: readonly string[] = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * A regular-expression group (source text) matching a month name or its usual abbreviation;
 * compile it with the `i` flag.
 */
export const MONTH_PATTERN = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|" +
  "aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

/**
 * The month number (1-12) of a month name or abbreviation, or 0 when it is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { monthNumber } from "./months.ts";
 * assert.equal(monthNumber("Sept"), 9);
 * assert.equal(monthNumber("may"), 5);
 * assert.equal(monthNumber("xyz"), 0);
 * ```
 */
export function monthNumber(name: string): number {
  const prefix = name.slice(0, 3).toLowerCase();
  return MONTH_NAMES.findIndex((m) => m.toLowerCase().startsWith(prefix)) + 1;
}
