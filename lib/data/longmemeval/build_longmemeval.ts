/** LongMemEval adapter: non-abstention questions with short answers become kit instances. */
import { answerKindOf } from "../answer_kind.ts";
import { DATA_FILES } from "../data_files.ts";
import type { DatasetOptions } from "../dataset.ts";
import { readJsonFile } from "../read_json_file.ts";
import {
  cleanAnswer,
  namedEntities,
  peopleNames,
  sessionDate,
  similarAnswers,
  whWord,
} from "../_sources.ts";
import { clipAtSentence } from "../_text.ts";
import { type BankTurn, confirms } from "../bank_record.ts";
import { buildInstances, type BuiltDataset, type UnusableQuestion } from "../build_instances.ts";
import type { BankCandidate, QuestionSource, SourceTurn } from "../question_source.ts";
import { LongMemEvalFile } from "./longmemeval_schema.ts";

/** LongMemEval's six question types, the strata of the sample (abstention items are left out). */
export const LONGMEMEVAL_TYPES = [
  "single-session-user",
  "single-session-assistant",
  "single-session-preference",
  "multi-session",
  "temporal-reasoning",
  "knowledge-update",
] as const;

function _join(dataDir: string, path: string): string {
  return dataDir.replace(/\/+$/, "") + "/" + path;
}

async function _exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** "24 days. 25 days (including the last day) is also acceptable." -> ["24 days", ["25 days"]]. */
function _splitAccepted(raw: string | number): [string | number, string[]] {
  if (typeof raw === "number") return [raw, []];
  const m = /^(.*?)\.\s+(.*?)\s*(?:\(.*\))?\s*(?:is|are)\s+also\s+acceptable\.?$/i.exec(raw.trim());
  return m ? [m[1], [m[2].replace(/\(.*\)/, "").trim()]] : [raw, []];
}

type _Item = LongMemEvalFile[number];

/** Content brought in from outside the chat: a web address, markup or a code block. */
const _TOOL_LIKE = /https?:\/\/|\bwww\.|```|<\/?[a-z][a-z0-9]*(?:\s[^>]*)?>/i;

/**
 * The background turns of a user turn and the assistant's reply. A turn carrying content from
 * outside the chat (`_TOOL_LIKE`: a pasted web page, links, code) is tool content, untrusted; a
 * user turn that answers the assistant's question with a "yes" is verified.
 */
export function longMemEvalBankTurns(
  turn: string,
  reply: string,
  previousAssistant: string | undefined,
): BankTurn[] {
  const make = (role: "user" | "assistant", text: string, verified: boolean): BankTurn => {
    const tool = _TOOL_LIKE.test(text);
    return {
      speaker: role === "user" ? "User" : "Assistant",
      channel: tool ? "tool" : role,
      text,
      trusted: !tool,
      verified,
      subject: role,
    };
  };
  const out = [make("user", turn, confirms({ previous: previousAssistant, reply: turn }))];
  if (reply !== "") out.push(make("assistant", reply, false));
  return out;
}

function _poolFrom(items: readonly _Item[], seen: Set<string>, pool: BankCandidate[]): void {
  for (const item of items) {
    item.haystack_sessions.forEach((turns, s) => {
      const sid = item.haystack_session_ids[s] ?? `${item.question_id}:${s}`;
      if (seen.has(sid)) return;
      seen.add(sid);
      for (let t = 0; t < turns.length; t++) {
        if (turns[t].role !== "user") continue;
        const reply = turns[t + 1]?.role === "assistant" ? turns[t + 1].content : "";
        const previous = turns[t - 1]?.role === "assistant" ? turns[t - 1].content : undefined;
        pool.push({
          id: `bg:longmemeval:${sid}:t${t}`,
          session: sid,
          turns: longMemEvalBankTurns(
            clipAtSentence(turns[t].content, 300),
            reply === "" ? "" : clipAtSentence(reply, 200),
            previous,
          ),
        });
      }
    });
  }
}

function _source(item: _Item, answer: string, alsoAccepted: string[]): QuestionSource | null {
  const sessions = item.haystack_sessions.map((turns, s) => ({
    sid: item.haystack_session_ids[s] ?? `${item.question_id}:${s}`,
    date: sessionDate(item.haystack_dates[s] ?? ""),
    turns,
    order: s * 1000,
  })).filter((s) => s.turns.some((t) => t.has_answer));
  if (sessions.length === 0) return null;
  const toTurn = (s: typeof sessions[number], t: number): SourceTurn => ({
    session: s.sid,
    date: s.date,
    speaker: s.turns[t].role === "user" ? "User" : "Assistant",
    channel: s.turns[t].role,
    text: s.turns[t].content,
    order: s.order + t,
  });
  const evidence: SourceTurn[] = [];
  const context: SourceTurn[] = [];
  // Knowledge updates keep every session: which value is the latest is the agent's reasoning.
  for (const s of sessions) {
    const hits = s.turns.flatMap((t, i) => t.has_answer ? [i] : []);
    hits.forEach((i) => evidence.push(toTurn(s, i)));
    const near = new Set(hits.flatMap((i) => [i - 2, i - 1, i + 1, i + 2]));
    [...near].filter((i) => i >= 0 && i < s.turns.length && !hits.includes(i)).sort((a, b) => a - b)
      .forEach((i) => context.push(toTurn(s, i)));
  }
  const subject = item.question_type === "single-session-assistant" ? "assistant" : "user";
  return {
    id: `longmemeval:${item.question_id}`,
    category: item.question_type,
    question: item.question,
    answer,
    evidence,
    context,
    excludeSessions: item.haystack_session_ids,
    sameKindAnswers: [],
    entities: namedEntities(sessions.flatMap((s) => s.turns.map((t) => t.content)), 40),
    people: peopleNames(
      sessions.flatMap((s) => s.turns.filter((t) => t.role === "user").map((t) => t.content)),
      [],
    ),
    outdated: [],
    alsoAccepted,
    subject,
    queryDate: sessionDate(item.question_date),
  };
}

/**
 * Build LongMemEval instances (100, stratified over the six question types in LongMemEval's own
 * proportions) from
 * `longmemeval_oracle.json`; `longmemeval_s.json` (or the `longmemeval_s_sample.json` excerpt),
 * when present, adds its haystack sessions to the background pool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildLongMemEval } from "./build_longmemeval.ts";
 * await assert.rejects(buildLongMemEval({ seed: 1, bankSize: 100, traceLoad: 1, dataDir: "/nonexistent" }), /deno task data/);
 * ```
 */
export async function buildLongMemEval(options: DatasetOptions): Promise<BuiltDataset> {
  const oracle = await readJsonFile({
    path: _join(options.dataDir, DATA_FILES.longmemevalOracle.path),
    schema: LongMemEvalFile,
    url: DATA_FILES.longmemevalOracle.url,
  });
  const extra: _Item[] = [];
  for (const name of [DATA_FILES.longmemevalS.path, "longmemeval/longmemeval_s_sample.json"]) {
    const path = _join(options.dataDir, name);
    if (await _exists(path)) {
      extra.push(...await readJsonFile({ path, schema: LongMemEvalFile }));
      break;
    }
  }
  const pool: BankCandidate[] = [];
  const seen = new Set<string>();
  _poolFrom(oracle, seen, pool);
  _poolFrom(extra, seen, pool);
  const types = new Set<string>(LONGMEMEVAL_TYPES);
  const unusable: UnusableQuestion[] = [];
  const eligible = oracle.flatMap((item) => {
    if (item.question_id.endsWith("_abs") || !types.has(item.question_type)) return [];
    const [raw, alsoAccepted] = _splitAccepted(item.answer);
    const cleaned = cleanAnswer({ answer: raw, question: item.question });
    if ("skip" in cleaned) {
      unusable.push({
        id: `longmemeval:${item.question_id}`,
        category: item.question_type,
        reason: `answer not usable (${cleaned.skip})`,
        kind: answerKindOf({ answer: String(item.answer), question: item.question }),
      });
      return [];
    }
    return [{
      item,
      answer: cleaned.answer,
      alsoAccepted: [...alsoAccepted, ...cleaned.alsoAccepted],
    }];
  });
  const sources = eligible.flatMap(({ item, answer, alsoAccepted }) => {
    const source = _source(item, answer, alsoAccepted);
    if (source === null) {
      unusable.push({
        id: `longmemeval:${item.question_id}`,
        category: item.question_type,
        reason: "no evidence turn (has_answer) in the answer sessions",
        kind: answerKindOf({ answer, question: item.question }),
      });
      return [];
    }
    const wh = whWord(item.question);
    // What the assistant recommended in one user's chat (a deli near the Vatican, a website) is
    // no stand-in for what it recommended in another's: no answer swaps across those.
    if (item.question_type === "single-session-assistant") return [source];
    source.sameKindAnswers = similarAnswers(
      item.question,
      eligible.filter((e) =>
        e.item !== item && e.item.question_type === item.question_type &&
        whWord(e.item.question) === wh
      ).map((e) => ({ question: e.item.question, answer: e.answer })),
    ).slice(0, 20);
    return [source];
  });
  // The sample follows LongMemEval's own mix of question types (abstention items aside).
  const strataCounts: Record<string, number> = {};
  for (const item of oracle) {
    if (item.question_id.endsWith("_abs")) continue;
    strataCounts[item.question_type] = (strataCounts[item.question_type] ?? 0) + 1;
  }
  return buildInstances({
    dataset: "longmemeval",
    sources,
    unusable,
    strata: LONGMEMEVAL_TYPES,
    strataCounts,
    pool,
    count: options.count ?? 100,
    seed: options.seed,
    bankSize: options.bankSize,
    traceLoad: options.traceLoad,
    // The evidence is the user's own chat with the assistant: it needs no opening.
    intro: () => null,
  });
}
