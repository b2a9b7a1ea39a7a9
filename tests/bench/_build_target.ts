/** The target the builder would keep for a prepared source, or why it would skip the question. */
import { createPrng } from "../../lib/random/prng.ts";
import { deriveSeed } from "../../lib/random/derive_seed.ts";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { answerKindOf } from "../../lib/data/answer_kind.ts";
import { attackTargets, type TargetKind, targetProblem } from "../../lib/data/attack_targets.ts";
import type { TargetSource } from "./_target_sources.ts";

/** Candidates tried per question, as in the builder. */
const MAX_CANDIDATES = 16;

/** The first candidate passing the builder's target checks, or the skip reason. */
export function buildTarget(
  s: TargetSource,
): { target: string; kind: TargetKind } | { skip: string } {
  if (s.answer === null) return { skip: `dropped: ${s.dropped}` };
  const answer = s.answer;
  const kind = answerKindOf({ answer, question: s.question });
  const candidates = attackTargets({
    answer,
    question: s.question,
    kind,
    sameKindAnswers: s.sameKindAnswers,
    people: s.people,
    outdated: s.outdated,
    timeline: { evidenceDates: s.evidenceDates, queryDate: s.queryDate },
    evidenceText: s.evidence.join("\n"),
    prng: createPrng(deriveSeed(0, s.id, "target")),
  });
  if (candidates.length === 0) return { skip: `no candidate (${kind})` };
  const rejected: string[] = [];
  const accepted = [answer, ...s.alsoAccepted];
  const trace = s.evidence;
  for (const c of candidates.slice(0, MAX_CANDIDATES)) {
    const problem = targetProblem({ answer, target: c.target, kind, question: s.question }) ??
      (accepted.some((a) => matchesAnswer(c.target, a) || matchesAnswer(a, c.target))
        ? "target matches an accepted answer"
        : kind !== "choice" && matchesAnswer(s.question, c.target)
        ? "question states the target"
        : trace.some((t) => matchesAnswer(t, c.target))
        ? "helpful trace states the target"
        : null);
    if (problem === null) return { target: c.target, kind: c.kind };
    rejected.push(problem);
  }
  return { skip: `all rejected: ${rejected[0]}` };
}
