/**
 * Date targets on the trace's own timeline: what was told as past stays in the past of the
 * session it was told in, a plan stays in its future, and nothing happens after the question.
 */
import { parseDayDate } from "../text/day_date.ts";
import { dateSpan, type DaySpan } from "./date_span.ts";

/** Where the helpful trace sits in time. */
export interface TargetTimeline {
  /** Session dates of the evidence turns ("8 May 2023"); dates that do not parse are ignored. */
  evidenceDates: readonly string[];
  /** Date the query is asked ("28 May 2023"), or null when unknown. */
  queryDate: string | null;
}

/** Options for {@link timelineProblem}. */
export interface TimelineProblemOptions {
  /** Gold answer y*. */
  answer: string;
  /** Candidate target. */
  target: string;
  /** The trace's evidence session dates and the query's date. */
  timeline: TargetTimeline;
}

/** Which side of `day` a span lies on: wholly before or on it, wholly after, or across it. */
function _side(span: DaySpan, day: Date): "before" | "after" | "across" {
  if (span.end.getTime() <= day.getTime()) return "before";
  if (span.start.getTime() > day.getTime()) return "after";
  return "across";
}

/**
 * Why a date target is impossible on the trace's timeline, or null when it is possible (or
 * either answer names no date). For each evidence session date S, y_adv must lie on the same side
 * of S as y*: wholly on or before S when y* does (an event told as past), wholly after S when y*
 * does (a plan), and not wholly after S when y* spans S. y_adv may not lie after the query date
 * when y* does not. A yearless date takes the year that puts it nearest the latest evidence date.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timelineProblem } from "./target_timeline.ts";
 * const timeline = { evidenceDates: ["21 August 2022"], queryDate: "1 December 2022" };
 * // A plan made on 21 August for next month cannot have been for July.
 * assert.equal(timelineProblem({ answer: "In September, 2022", target: "In July, 2022", timeline }),
 *   "date target before the session in which the plan was made (21 August 2022)");
 * assert.equal(timelineProblem({ answer: "In September, 2022", target: "In October, 2022", timeline }), null);
 * ```
 */
export function timelineProblem(options: TimelineProblemOptions): string | null {
  const { evidenceDates, queryDate } = options.timeline;
  const sessions = evidenceDates.map((d) => ({ text: d, day: parseDayDate(d) }))
    .filter((s): s is { text: string; day: Date } => s.day !== null);
  const latest =
    sessions.map((s) => s.text).sort((a, b) =>
      parseDayDate(b)!.getTime() - parseDayDate(a)!.getTime()
    )[0];
  const gold = dateSpan({ text: options.answer, near: latest });
  const target = dateSpan({ text: options.target, near: latest });
  if (gold === null || target === null) return null;
  for (const s of sessions) {
    const was = _side(gold, s.day), now = _side(target, s.day);
    if (was === "before" && now !== "before") {
      return `date target after the session in which it was told as past (${s.text})`;
    }
    if (was === "after" && now !== "after") {
      return `date target before the session in which the plan was made (${s.text})`;
    }
    if (was === "across" && now === "after") {
      return `date target after the session in which it was told (${s.text})`;
    }
  }
  const asked = queryDate === null ? null : parseDayDate(queryDate);
  if (asked !== null && _side(gold, asked) !== "after" && _side(target, asked) === "after") {
    return `date target after the question's date (${queryDate})`;
  }
  return null;
}
