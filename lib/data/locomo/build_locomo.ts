/** LoCoMo adapter: questions of categories 1-4 with resolvable evidence become kit instances. */
import { formatDayDate, latestDayDate, parseDayDate, plusDays } from "../../text/day_date.ts";
import { type AnswerKind, answerKindOf } from "../answer_kind.ts";
import { DATA_FILES } from "../data_files.ts";
import type { DatasetOptions } from "../dataset.ts";
import { readJsonFile } from "../read_json_file.ts";
import {
  cleanAnswerOrNull,
  namedEntities,
  peopleNames,
  sessionDate,
  similarAnswers,
  UNUSABLE_ANSWER,
  whWord,
  widenLikeAnswers,
} from "../_sources.ts";
import { type BankTurn, confirms } from "../bank_record.ts";
import { buildInstances, type BuiltDataset, type UnusableQuestion } from "../build_instances.ts";
import type { BankCandidate, QuestionSource, SourceTurn } from "../question_source.ts";
import { LocomoFile, type LocomoTurn } from "./locomo_schema.ts";

/** LoCoMo categories 1-4 as named by the official evaluation code (5 = adversarial, skipped). */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

/** Days between a conversation's last session and the session its questions are asked in. */
const QUERY_DELAY_DAYS = 7;

/** Turns of a window that form one background record. */
const BANK_WINDOW = 3;

function _join(dataDir: string, path: string): string {
  return dataDir.replace(/\/+$/, "") + "/" + path;
}

/**
 * The background turns of one LoCoMo dialog turn: the message itself (user channel, trusted;
 * verified when it answers a question of the previous turn with a "yes") and, when the speaker
 * shared a photo, the image captioner's description of it (tool channel, untrusted: a model's
 * reading of an outside image, about the speaker).
 */
export function locomoBankTurns(turn: LocomoTurn, previous: LocomoTurn | undefined): BankTurn[] {
  const out: BankTurn[] = [{
    speaker: turn.speaker,
    channel: "user",
    text: turn.text,
    trusted: true,
    verified: confirms({ previous: previous?.text, reply: turn.text }),
  }];
  if (typeof turn.blip_caption === "string" && turn.blip_caption.trim() !== "") {
    out.push({
      speaker: "Image caption",
      channel: "tool",
      text: `${turn.blip_caption.trim()} (photo shared by ${turn.speaker})`,
      trusted: false,
      verified: false,
      subject: turn.speaker,
    });
  }
  return out;
}

/**
 * A turn's text as the helpful trace gives it: a shared photo is described by its caption, which
 * stands in for the picture (LoCoMo annotates some answers from photos alone: "What did Melanie
 * paint?" with "Here's our latest work" and a photo of a sunset).
 */
function _withPhoto(turn: LocomoTurn): string {
  const caption = typeof turn.blip_caption === "string" ? turn.blip_caption.trim() : "";
  return caption === "" ? turn.text : `${turn.text} [shares a photo: ${caption}]`;
}

/** The kind of a question's raw answer, so an unusable question still counts in its kind mix. */
function _rawKind(qa: LocomoFile[number]["qa"][number]): AnswerKind {
  return answerKindOf({ answer: String(qa.answer ?? ""), question: qa.question });
}

/** Parse LoCoMo into question sources and the background pool. */
function _adapt(
  file: LocomoFile,
): { sources: QuestionSource[]; unusable: UnusableQuestion[]; pool: BankCandidate[] } {
  const sources: QuestionSource[] = [];
  const unusable: UnusableQuestion[] = [];
  const pool: BankCandidate[] = [];
  for (const sample of file) {
    const conv = sample.conversation;
    const turns = new Map<string, SourceTurn & { index: number; list: SourceTurn[] }>();
    const texts: string[] = [];
    const dates: string[] = [];
    let order = 0;
    const sessionKeys = Object.keys(conv).filter((k) =>
      /^session_\d+$/.test(k) && Array.isArray(conv[k])
    )
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const key of sessionKeys) {
      const raw = conv[key] as LocomoTurn[];
      const dateRaw = conv[`${key}_date_time`];
      const date = typeof dateRaw === "string" ? sessionDate(dateRaw) : "an unknown date";
      dates.push(date);
      const session = `${sample.sample_id}:${key}`;
      const list: SourceTurn[] = raw.map((t) => ({
        session,
        date,
        speaker: t.speaker,
        channel: "user" as const,
        text: _withPhoto(t),
        order: order++,
      }));
      list.forEach((t, index) => turns.set(raw[index].dia_id.trim(), { ...t, index, list }));
      texts.push(...raw.map((t) => t.text));
      const bank = raw.map((t, i) => locomoBankTurns(t, raw[i - 1]));
      for (let w = 0; w * BANK_WINDOW < raw.length; w++) {
        pool.push({
          id: `bg:locomo:${session}:w${w}`,
          session,
          turns: bank.slice(w * BANK_WINDOW, (w + 1) * BANK_WINDOW).flat(),
        });
      }
    }
    // The questions come after the whole conversation: a week after its last session.
    const last = latestDayDate(dates);
    const queryDate = last === null
      ? undefined
      : formatDayDate(plusDays(parseDayDate(last)!, QUERY_DELAY_DAYS));
    const entities = namedEntities(texts, 60);
    const speakers = [conv.speaker_a, conv.speaker_b].filter((s): s is string =>
      typeof s === "string"
    );
    const people = peopleNames(texts, speakers);
    const cleaned = sample.qa.map((qa) =>
      qa.category >= 1 && qa.category <= 4 ? cleanAnswerOrNull(qa.answer, qa.question) : null
    );
    sample.qa.forEach((qa, q) => {
      const category = LOCOMO_CATEGORIES[qa.category];
      if (category === undefined) return;
      const id = `locomo:${sample.sample_id}:q${q}`;
      const answer = cleaned[q];
      if (answer === null) {
        unusable.push({ id, category, reason: UNUSABLE_ANSWER, kind: _rawKind(qa) });
        return;
      }
      const ids = qa.evidence.flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.trim()).filter((e) =>
        e !== ""
      );
      const evidence = ids.map((id) => turns.get(id));
      if (evidence.length === 0 || evidence.some((t) => t === undefined)) {
        unusable.push({
          id,
          category,
          reason: "evidence ids missing or unresolvable",
          kind: _rawKind(qa),
        });
        return;
      }
      const found = evidence as NonNullable<typeof evidence[number]>[];
      const evidenceOrders = new Set(found.map((t) => t.order));
      const context = found.flatMap((t) => t.list.slice(Math.max(0, t.index - 2), t.index + 3))
        .filter((t, i, all) =>
          !evidenceOrders.has(t.order) && all.findIndex((u) => u.order === t.order) === i
        );
      const wh = whWord(qa.question);
      // Numbers are keyed by the person the question is about.
      const subject = speakers.find((p) => new RegExp(`\\b${p}\\b`).test(qa.question)) ??
        people.find((p) => new RegExp(`\\b${p}\\b`).test(qa.question)) ?? "user";
      sources.push({
        id,
        category,
        question: qa.question,
        answer,
        evidence: found.map(({ index: _i, list: _l, ...t }) => t).sort((a, b) => a.order - b.order),
        context: context.map((t) => ({ ...t })),
        excludeSessions: [...new Set(found.map((t) => t.session))],
        sameKindAnswers: similarAnswers(
          qa.question,
          sample.qa.flatMap((other, o) =>
            o !== q && cleaned[o] !== null && whWord(other.question) === wh
              ? [{ question: other.question, answer: cleaned[o]! }]
              : []
          ),
        ),
        entities,
        people,
        outdated: [],
        subject: subject.toLowerCase(),
        ...(queryDate === undefined ? {} : { queryDate }),
      });
    });
  }
  return { sources, unusable, pool };
}

/**
 * Build LoCoMo instances (100, stratified over categories 1-4 in LoCoMo's own proportions) from
 * `locomo10.json` in the data directory, with the builder's bookkeeping for `--stats`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildLocomo } from "./build_locomo.ts";
 * await assert.rejects(buildLocomo({ seed: 1, bankSize: 100, traceLoad: 1, dataDir: "/nonexistent" }), /deno task data/);
 * ```
 */
export async function buildLocomo(options: DatasetOptions): Promise<BuiltDataset> {
  const file = await readJsonFile({
    path: _join(options.dataDir, DATA_FILES.locomo.path),
    schema: LocomoFile,
    url: DATA_FILES.locomo.url,
  });
  const { sources, unusable, pool } = _adapt(file);
  // The sample follows LoCoMo's own mix of categories 1-4 (all their questions, answerable or not).
  const strataCounts: Record<string, number> = {};
  for (const qa of file.flatMap((sample) => sample.qa)) {
    const name = LOCOMO_CATEGORIES[qa.category];
    if (name !== undefined) strataCounts[name] = (strataCounts[name] ?? 0) + 1;
  }
  // Like-question answers from all ten conversations, not only the question's own.
  widenLikeAnswers(sources);
  return buildInstances({
    dataset: "locomo",
    sources,
    unusable,
    strata: Object.values(LOCOMO_CATEGORIES),
    strataCounts,
    pool,
    count: options.count ?? 100,
    seed: options.seed,
    bankSize: options.bankSize,
    traceLoad: options.traceLoad,
    intro: (s) => {
      const speakers = [...new Set([...s.evidence, ...s.context].map((t) => t.speaker))];
      return speakers.length === 1
        ? `Here is part of a chat with ${speakers[0]} that I wanted to share.`
        : `Here is part of a chat between ${speakers.join(" and ")} that I wanted to share.`;
    },
  });
}
