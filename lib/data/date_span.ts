/**
 * The days a date answer names, as a span: "5 July 2023" one day, "July 2023" a month, "the week
 * before 9 June 2023" the seven days before it, "2022" a year. Target checks place y* and y_adv
 * on the trace's timeline with it.
 */
import { MONTH_PATTERN, monthNumber } from "../text/months.ts";
import { parseDayDate, plusDays } from "../text/day_date.ts";

/** A span of whole UTC days, both ends included. */
export interface DaySpan {
  start: Date;
  end: Date;
}

/** Options for {@link dateSpan}. */
export interface DateSpanOptions {
  /** A date answer ("The week before 9 June 2023", "April.2023", "in 2022", "February 14th"). */
  text: string;
  /**
   * A "D Month YYYY" day near the answer (the session it was told in), which gives a yearless
   * date ("February 14th") the year that puts it closest to this day; default none (a yearless
   * date then has no span).
   */
  near?: string;
}

const _DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const _WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const _WEEKDAY = "(sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?";
const _SMALL: Readonly<Record<string, number>> = {
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

const _utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const _monthEnd = (y: number, m: number) => _utc(y, m + 1, 0);

/** The anchor date of an answer: its most precise date, with the text before it. */
function _anchor(text: string, near: Date | null): { span: DaySpan; before: string } | null {
  const t = text;
  const forms: [RegExp, (m: RegExpExecArray) => DaySpan | null][] = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, (m) => _day(+m[1], +m[2] - 1, +m[3])],
    [
      new RegExp(`\\b${_DAY}\\s*(?:of\\s+)?${MONTH_PATTERN}[.,]?\\s*(\\d{4})\\b`, "i"),
      (m) => _day(+m[3], monthNumber(m[2]) - 1, +m[1]),
    ],
    [
      new RegExp(`\\b${MONTH_PATTERN}\\.?\\s*${_DAY}(?:\\s*-\\s*\\d{1,2})?,?\\s*(\\d{4})\\b`, "i"),
      (m) => _day(+m[3], monthNumber(m[1]) - 1, +m[2]),
    ],
    [
      new RegExp(`\\b${MONTH_PATTERN}[.,]?\\s*(\\d{4})\\b`, "i"),
      (m) => ({
        start: _utc(+m[2], monthNumber(m[1]) - 1, 1),
        end: _monthEnd(+m[2], monthNumber(m[1]) - 1),
      }),
    ],
    [
      new RegExp(
        `\\b(?:${_DAY}\\s*(?:of\\s+)?${MONTH_PATTERN}|${MONTH_PATTERN}\\.?\\s*${_DAY})\\b`,
        "i",
      ),
      (m) => near === null ? null : _yearless(monthNumber(m[2] ?? m[3]) - 1, +(m[1] ?? m[4]), near),
    ],
    [/\b((?:19|20)\d{2})\b/, (m) => ({ start: _utc(+m[1], 0, 1), end: _utc(+m[1], 11, 31) })],
  ];
  for (const [re, make] of forms) {
    const m = re.exec(t);
    if (m === null) continue;
    const span = make(m);
    return span === null ? null : { span, before: t.slice(0, m.index).toLowerCase() };
  }
  return null;
}

function _day(y: number, m: number, d: number): DaySpan | null {
  const day = _utc(y, m, d);
  // "31 February" or "39 December" names no day.
  if (m < 0 || m > 11 || day.getUTCDate() !== d) return null;
  return { start: day, end: day };
}

/** A yearless day in the year that puts it nearest `near`. */
function _yearless(m: number, d: number, near: Date): DaySpan | null {
  if (m < 0 || d < 1 || d > 31) return null;
  const y = near.getUTCFullYear();
  const best = [y - 1, y, y + 1].map((yy) => _utc(yy, m, d))
    .sort((a, b) =>
      Math.abs(a.getTime() - near.getTime()) - Math.abs(b.getTime() - near.getTime())
    )[0];
  return { start: best, end: best };
}

/** The last `weekday` strictly before (or first strictly after) `day`. */
function _weekdayFrom(day: Date, weekday: number, direction: -1 | 1): Date {
  let d = plusDays(day, direction);
  while (d.getUTCDay() !== weekday) d = plusDays(d, direction);
  return d;
}

/**
 * The span of days a date answer names, or null when it names no date. Reads the answer's most
 * precise date (ISO, day-month-year, month-day-year with or without commas and spaces as the
 * benchmarks write them, month-year, a yearless day when `near` is given, a year), then a
 * modifier before it: "the week / weekend before" (the seven days before), "the Friday before"
 * (that day), "N weeks before", "a few days before", "the week after", "the first / last week
 * of", "early / mid / late", a season, "before" and "after" (within 30 days).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dateSpan } from "./date_span.ts";
 * const iso = (s: { start: Date; end: Date } | null) => s && [s.start, s.end].map((d) => d.toISOString().slice(0, 10));
 * assert.deepEqual(iso(dateSpan({ text: "The week before 9 June 2023" })), ["2023-06-02", "2023-06-08"]);
 * assert.deepEqual(iso(dateSpan({ text: "The Tuesday before 20 July 2023" })), ["2023-07-18", "2023-07-18"]);
 * assert.deepEqual(iso(dateSpan({ text: "April.2023" })), ["2023-04-01", "2023-04-30"]);
 * assert.deepEqual(iso(dateSpan({ text: "February 14th", near: "2 April 2023" })), ["2023-02-14", "2023-02-14"]);
 * assert.equal(dateSpan({ text: "two weeks" }), null);
 * ```
 */
export function dateSpan(options: DateSpanOptions): DaySpan | null {
  const near = options.near === undefined ? null : parseDayDate(options.near);
  const found = _anchor(options.text, near);
  if (found === null) return null;
  const { span, before } = found;
  const { start, end } = span;
  const single = start.getTime() === end.getTime();
  let m: RegExpExecArray | null;
  if (single) {
    if ((m = new RegExp(`\\b${_WEEKDAY}\\s+(before|after)\\s*$`).exec(before))) {
      const weekday = _WEEKDAYS.findIndex((w) => w.startsWith(m![1].slice(0, 3)));
      const day = _weekdayFrom(start, weekday, m[2] === "before" ? -1 : 1);
      return { start: day, end: day };
    }
    if ((m = /\b(a|one|two|three|four|five|six)\s+weeks?\s+(before|after)\s*$/.exec(before))) {
      const n = _SMALL[m[1]] * (m[2] === "before" ? -1 : 1);
      return { start: plusDays(start, 7 * n - 3), end: plusDays(start, 7 * n + 3) };
    }
    if ((m = /\b(?:(a|one|two|three)\s+)?week(?:end)?s?\s+(before|after|of)\s*$/.exec(before))) {
      const n = m[1] === undefined ? 1 : _SMALL[m[1]];
      if (m[2] === "of") return { start: plusDays(start, -3), end: plusDays(start, 3) };
      return m[2] === "before"
        ? { start: plusDays(start, -7 * n), end: plusDays(start, -7 * (n - 1) - 1) }
        : { start: plusDays(start, 7 * (n - 1) + 1), end: plusDays(start, 7 * n) };
    }
    if (/\bfew days\s+before\s*$/.test(before)) {
      return { start: plusDays(start, -5), end: plusDays(start, -1) };
    }
    if (/\bfew days\s+after\s*$/.test(before)) {
      return { start: plusDays(start, 1), end: plusDays(start, 5) };
    }
    if (/\bbefore\s*$/.test(before)) {
      return { start: plusDays(start, -30), end: plusDays(start, -1) };
    }
    if (/\bafter\s*$/.test(before)) return { start: plusDays(start, 1), end: plusDays(start, 30) };
    return span;
  }
  const month = end.getTime() - start.getTime() < 32 * 86_400_000;
  const y = start.getUTCFullYear(), mo = start.getUTCMonth();
  if (month) {
    if ((m = /\b(first|second|third|fourth|last)\s+week\s+of\s*$/.exec(before))) {
      if (m[1] === "last") return { start: plusDays(end, -6), end };
      const k = ["first", "second", "third", "fourth"].indexOf(m[1]);
      return { start: _utc(y, mo, 1 + 7 * k), end: _utc(y, mo, 7 + 7 * k) };
    }
    if (/\b(?:early|beginning of|start of)\s*$/.test(before)) {
      return { start, end: _utc(y, mo, 10) };
    }
    if (/\bmid(?:dle of)?[\s-]*$/.test(before)) {
      return { start: _utc(y, mo, 11), end: _utc(y, mo, 20) };
    }
    if (/\b(?:late|end of)\s*$/.test(before)) return { start: _utc(y, mo, 21), end };
    return span;
  }
  if (/\b(?:early|beginning of|start of)\s*$/.test(before)) return { start, end: _utc(y, 3, 30) };
  if (/\bmid(?:dle of)?[\s-]*$/.test(before)) return { start: _utc(y, 4, 1), end: _utc(y, 7, 31) };
  if (/\b(?:late|end of)\s*$/.test(before)) return { start: _utc(y, 8, 1), end };
  if (/\bspring\s*$/.test(before)) return { start: _utc(y, 2, 1), end: _utc(y, 4, 31) };
  if (/\bsummer\s*$/.test(before)) return { start: _utc(y, 5, 1), end: _utc(y, 7, 31) };
  if (/\b(?:fall|autumn)\s*$/.test(before)) return { start: _utc(y, 8, 1), end: _utc(y, 10, 30) };
  if (/\bwinter\s*$/.test(before)) return { start: _utc(y, 0, 1), end: _utc(y, 1, 28) };
  return span;
}
