/** Calendar days written "D Month YYYY" (the kit's session dates): parse, format, shift, compare. */
import { MONTH_NAMES, monthNumber } from "./months.ts";

/**
 * The UTC day a "D Month YYYY" text names ("8 May 2023"), or null for any other text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDayDate } from "./day_date.ts";
 * assert.equal(parseDayDate("8 May 2023")?.toISOString().slice(0, 10), "2023-05-08");
 * assert.equal(parseDayDate("session 4"), null);
 * ```
 */
export function parseDayDate(text: string): Date | null {
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text.trim());
  if (!m || monthNumber(m[2]) === 0) return null;
  return new Date(Date.UTC(Number(m[3]), monthNumber(m[2]) - 1, Number(m[1])));
}

/**
 * A UTC day as "D Month YYYY".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDayDate } from "./day_date.ts";
 * assert.equal(formatDayDate(new Date(Date.UTC(2023, 4, 8))), "8 May 2023");
 * ```
 */
export function formatDayDate(day: Date): string {
  return `${day.getUTCDate()} ${MONTH_NAMES[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}

/**
 * The day `days` after `day` (before it when negative).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDayDate, plusDays } from "./day_date.ts";
 * assert.equal(formatDayDate(plusDays(new Date(Date.UTC(2023, 4, 31)), 1)), "1 June 2023");
 * ```
 */
export function plusDays(day: Date, days: number): Date {
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + days));
}

/**
 * The latest of some "D Month YYYY" texts, or null when none parses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latestDayDate } from "./day_date.ts";
 * assert.equal(latestDayDate(["9 June 2023", "8 May 2023", "an unknown date"]), "9 June 2023");
 * ```
 */
export function latestDayDate(texts: readonly string[]): string | null {
  const days = texts.map(parseDayDate).filter((d): d is Date => d !== null);
  if (days.length === 0) return null;
  return formatDayDate(new Date(Math.max(...days.map((d) => d.getTime()))));
}
