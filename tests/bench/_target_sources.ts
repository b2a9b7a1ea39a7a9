/**
 * Question sources for the target benches, prepared as the LoCoMo and LongMemEval adapters
 * prepare them, without banks or traces: the cleaned answer, like-question answers, people,
 * evidence turns with their neighbours and session dates, and the question's date.
 */
import type { LocomoFile } from "../../lib/data/locomo/locomo_schema.ts";
import type { LongMemEvalFile } from "../../lib/data/longmemeval/longmemeval_schema.ts";
import { LOCOMO_CATEGORIES } from "../../lib/data/locomo/build_locomo.ts";
import {
  cleanAnswer,
  peopleNames,
  sessionDate,
  similarAnswers,
  whWord,
  widenLikeAnswers,
} from "../../lib/data/_sources.ts";
import { answerKindOf } from "../../lib/data/answer_kind.ts";
import type { SwapCandidate } from "../../lib/data/question_source.ts";

/** One question as the target builder sees it. */
export interface TargetSource {
  id: string;
  category: string;
  question: string;
  rawAnswer: string;
  /** Cleaned answer, or null with the cleaning's reason in `dropped`. */
  answer: string | null;
  dropped: string | null;
  /** Answer kind of the (cleaned, else raw) answer. */
  kind: string;
  sameKindAnswers: SwapCandidate[];
  people: string[];
  outdated: string[];
  alsoAccepted: string[];
  /** Evidence turn texts (what the helpful trace quotes). */
  evidence: string[];
  /** Neighbouring turn texts (filler). */
  context: string[];
  /** Session dates of the evidence turns ("8 May 2023"). */
  evidenceDates: string[];
  /** The question's date, or null. */
  queryDate: string | null;
}

function _split(raw: string): [string, string[]] {
  const m = /^(.*?)\.\s+(.*?)\s*(?:\(.*\))?\s*(?:is|are)\s+also\s+acceptable\.?$/i.exec(raw.trim());
  return m ? [m[1], [m[2].replace(/\(.*\)/, "").trim()]] : [raw, []];
}

/** LoCoMo and LongMemEval question sources, by dataset. */
export function prepareTargetSources(
  files: { locomo: LocomoFile; oracle: LongMemEvalFile },
): [string, TargetSource[]][] {
  const locomo: TargetSource[] = [];
  for (const sample of files.locomo) {
    const conv = sample.conversation;
    const turns = new Map<string, { text: string; date: string; list: string[]; index: number }>();
    const texts: string[] = [];
    for (const key of Object.keys(conv).filter((k) => /^session_\d+$/.test(k))) {
      const raw = conv[key];
      if (!Array.isArray(raw)) continue;
      const dateRaw = conv[`${key}_date_time`];
      const date = typeof dateRaw === "string" ? sessionDate(dateRaw) : "an unknown date";
      const list = raw.map((t) => t.text);
      raw.forEach((t, index) => turns.set(t.dia_id.trim(), { text: t.text, date, list, index }));
      texts.push(...list);
    }
    const speakers = [conv.speaker_a, conv.speaker_b].filter((s) => typeof s === "string");
    const people = peopleNames(texts, speakers);
    sample.qa.forEach((qa, q) => {
      if (qa.category < 1 || qa.category > 4) return;
      const rawAnswer = String(qa.answer ?? "");
      const ids = qa.evidence.flatMap((e) => e.split(/[;,\s]+/)).filter((e) => e !== "");
      const found = ids.map((id) => turns.get(id.trim()));
      const ok = found.length > 0 && found.every((t) => t !== undefined);
      const ev = ok ? found as NonNullable<typeof found[number]>[] : [];
      const c = cleanAnswer({ answer: qa.answer, question: qa.question });
      const answer = ok && "answer" in c ? c.answer : null;
      locomo.push({
        id: `locomo:${sample.sample_id}:q${q}`,
        category: LOCOMO_CATEGORIES[qa.category],
        question: qa.question,
        rawAnswer,
        answer,
        dropped: !ok ? "evidence ids do not resolve" : "skip" in c ? c.skip : null,
        kind: answerKindOf({ answer: answer ?? rawAnswer, question: qa.question }),
        sameKindAnswers: [],
        people,
        outdated: [],
        alsoAccepted: "answer" in c ? c.alsoAccepted : [],
        evidence: ev.map((t) => t.text),
        context: ev.flatMap((t) => t.list.slice(Math.max(0, t.index - 2), t.index + 3)),
        evidenceDates: [...new Set(ev.map((t) => t.date))],
        queryDate: null,
      });
    });
  }
  // Like-question answers from the whole dataset, as the LoCoMo adapter pools them.
  widenLikeAnswers(
    locomo.filter((s): s is TargetSource & { answer: string } => s.answer !== null),
  );
  const longmemeval: TargetSource[] = [];
  const items = files.oracle.filter((i) => !i.question_id.endsWith("_abs"));
  const cleanedOf = new Map(items.map((i) => {
    const [raw, also] = _split(String(i.answer));
    const c = cleanAnswer({ answer: raw, question: i.question });
    return [
      i,
      "answer" in c
        ? { answer: c.answer as string | null, also: [...also, ...c.alsoAccepted], skip: null }
        : { answer: null, also, skip: c.skip },
    ];
  }));
  for (const item of items) {
    const { answer: cleaned, also, skip } = cleanedOf.get(item)!;
    const sessions = item.haystack_sessions.map((turns, s) => ({
      date: sessionDate(item.haystack_dates[s] ?? ""),
      turns,
    })).filter((s) => s.turns.some((t) => t.has_answer));
    const used = item.question_type === "knowledge-update" ? sessions.slice(-1) : sessions;
    const evidence: string[] = [], context: string[] = [];
    for (const s of used) {
      s.turns.forEach((t, i) => {
        if (t.has_answer) evidence.push(t.content);
        else if (s.turns.slice(Math.max(0, i - 2), i + 3).some((u) => u.has_answer)) {
          context.push(t.content);
        }
      });
    }
    const wh = whWord(item.question);
    const answer = sessions.length === 0 ? null : cleaned;
    longmemeval.push({
      id: `longmemeval:${item.question_id}`,
      category: item.question_type,
      question: item.question,
      rawAnswer: String(item.answer),
      answer,
      dropped: sessions.length === 0 ? "no evidence turn" : skip,
      kind: answerKindOf({ answer: answer ?? String(item.answer), question: item.question }),
      sameKindAnswers: item.question_type === "single-session-assistant" ? [] : similarAnswers(
        item.question,
        items.filter((e) =>
          e !== item && e.question_type === item.question_type &&
          whWord(e.question) === wh && cleanedOf.get(e)!.answer !== null
        ).map((e) => ({ question: e.question, answer: cleanedOf.get(e)!.answer! })),
      ).slice(0, 20),
      people: peopleNames(
        sessions.flatMap((s) => s.turns.filter((t) => t.role === "user").map((t) => t.content)),
        [],
      ),
      outdated: [],
      alsoAccepted: also,
      evidence,
      context,
      evidenceDates: [...new Set(used.map((s) => s.date))],
      queryDate: sessionDate(item.question_date),
    });
  }
  return [["locomo", locomo], ["longmemeval", longmemeval]];
}
