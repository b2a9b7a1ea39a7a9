/** Agreement of two raters (two judges, or a judge and the annotators' majority) per question. */
import pl from "nodejs-polars";
import type { JudgeLabel } from "../judges/judge_rows.ts";
import { cohensKappa } from "./cohens_kappa.ts";
import { percentAgreement } from "./percent_agreement.ts";

/**
 * Join two label lists on (trajectoryId, question) and report, for `correct`, `target` and both
 * pooled (`all`): `n` items where both gave a label, `dropped` items of either list without a
 * label from the other (missing or null), percent `agreement` and Cohen's `kappa` (NaN when
 * `n = 0`). Columns: question, n, dropped, agreement, kappa.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeAgreement } from "./judge_agreement.ts";
 * const a = [{ trajectoryId: "t1", question: "correct", label: true },
 *   { trajectoryId: "t2", question: "correct", label: false }] as const;
 * const b = [{ trajectoryId: "t1", question: "correct", label: true },
 *   { trajectoryId: "t2", question: "correct", label: true }] as const;
 * const frame = judgeAgreement({ a, b });
 * assert.deepEqual(frame.getColumn("question").toArray(), ["correct", "target", "all"]);
 * assert.deepEqual(frame.getColumn("agreement").toArray().slice(0, 1), [0.5]);
 * ```
 */
export function judgeAgreement(options: {
  /** First rater's labels. */
  a: readonly JudgeLabel[];
  /** Second rater's labels. */
  b: readonly JudgeLabel[];
}): pl.DataFrame {
  const key = (l: JudgeLabel) => `${l.question}\u0000${l.trajectoryId}`;
  const b = new Map(options.b.map((l) => [key(l), l.label]));
  const keys = new Set([...options.a.map(key), ...options.b.map(key)]);
  const pairs: { question: string; a: boolean; b: boolean }[] = [];
  for (const l of options.a) {
    const other = b.get(key(l));
    if (l.label !== null && other !== undefined && other !== null) {
      pairs.push({ question: l.question, a: l.label, b: other });
    }
  }
  const rows = ["correct", "target", "all"].map((question) => {
    const these = pairs.filter((p) => question === "all" || p.question === question);
    const total = question === "all"
      ? keys.size
      : [...keys].filter((k) => k.startsWith(`${question}\u0000`)).length;
    const a = these.map((p) => p.a), bb = these.map((p) => p.b);
    return {
      question,
      n: these.length,
      dropped: total - these.length,
      agreement: these.length ? percentAgreement(a, bb) : NaN,
      kappa: these.length ? cohensKappa(a, bb) : NaN,
    };
  });
  return pl.DataFrame(rows);
}
