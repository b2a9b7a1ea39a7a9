/**
 * Resolve relative dates in a turn against its session date, the way the benchmarks' own gold
 * answers are written ("yesterday" on 8 May 2023 is 7 May 2023; "last week" is "the week
 * before 8 May 2023"). The builder uses it only to check that the evidence supports y*; the
 * helpful trace keeps the dataset's own words, so the agent does this reasoning itself.
 */
import { formatDayDate, parseDayDate, plusDays } from "../text/day_date.ts";
import { MONTH_NAMES } from "../text/months.ts";
import { SMALL_NUMBER_WORDS } from "../text/number_words.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function _count(word: string): number {
  const w = word.toLowerCase();
  return w === "a" || w === "an" ? 1 : /^\d+$/.test(w) ? Number(w) : SMALL_NUMBER_WORDS[w] ?? NaN;
}

/**
 * Add the absolute date after each relative date in `text`: "yesterday (7 May 2023)". Handles
 * yesterday, today, tonight, last night, this morning/afternoon/evening, N days ago, last or
 * next week, weekend, month and year, N weeks ago and last <weekday>. A `date` that is not
 * "D Month YYYY" leaves the text unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveRelativeDates } from "./relative_dates.ts";
 * assert.equal(resolveRelativeDates({ text: "I went yesterday.", date: "8 May 2023" }), "I went yesterday (7 May 2023).");
 * assert.equal(resolveRelativeDates({ text: "We met last Sunday!", date: "25 May 2023" }),
 *   "We met last Sunday (the Sunday before 25 May 2023)!");
 * ```
 */
export function resolveRelativeDates(options: {
  /** The turn's text. */
  text: string;
  /** Its session date, "D Month YYYY". */
  date: string;
}): string {
  const day = parseDayDate(options.date);
  if (day === null) return options.text;
  const session = formatDayDate(day);
  const month = (shift: number) => {
    const d = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + shift, 1));
    return `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  };
  const rules: [RegExp, (m: RegExpExecArray) => string | null][] = [
    [/\bthe day before yesterday\b/i, () => formatDayDate(plusDays(day, -2))],
    [/\byesterday\b|\blast night\b/i, () => formatDayDate(plusDays(day, -1))],
    [/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/i, () => session],
    [/\b(a|an|\d+|two|three|four|five|six|seven|eight|nine|ten) days ago\b/i, (m) => {
      const n = _count(m[1]);
      return Number.isNaN(n) ? null : formatDayDate(plusDays(day, -n));
    }],
    [/\b(a|\d+|two|three|four) weeks? ago\b/i, (m) => {
      const n = _count(m[1]);
      return n === 1 ? `the week before ${session}` : `${m[1]} weeks before ${session}`;
    }],
    [/\blast week\b/i, () => `the week before ${session}`],
    [/\bnext week\b/i, () => `the week after ${session}`],
    [/\blast weekend\b/i, () => `the weekend before ${session}`],
    [/\bthis weekend\b/i, () => `the weekend of ${session}`],
    [/\blast month\b/i, () => month(-1)],
    [/\bnext month\b/i, () => month(1)],
    [/\bthis month\b/i, () => month(0)],
    [/\blast year\b/i, () => String(day.getUTCFullYear() - 1)],
    [/\bnext year\b/i, () => String(day.getUTCFullYear() + 1)],
    [new RegExp(`\\blast (${WEEKDAYS.join("|")})\\b`, "i"), (m) => {
      const name = WEEKDAYS.find((w) => w.toLowerCase() === m[1].toLowerCase())!;
      return `the ${name} before ${session}`;
    }],
  ];
  let text = options.text;
  for (const [re, resolve] of rules) {
    const global = new RegExp(re.source, "gi");
    text = text.replace(global, (...args) => {
      const match = args[0] as string;
      const value = resolve(args.slice(0, -2) as unknown as RegExpExecArray);
      // Already resolved ("yesterday (7 May 2023)") or not resolvable: leave it.
      const after = (args.at(-1) as string).slice((args.at(-2) as number) + match.length);
      return value === null || after.startsWith(" (") ? match : `${match} (${value})`;
    });
  }
  return text;
}
