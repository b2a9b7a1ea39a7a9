/** LoCoMo adapter: questions of categories 1-4 with resolvable evidence become kit instances. */
import { DATA_FILES } from "../data_files.ts";
import type { DatasetOptions } from "../dataset.ts";
import { readJsonFile } from "../read_json_file.ts";
import {
  _cleanAnswer,
  _entities,
  _people,
  _sessionDate,
  _similarAnswers,
  _whWord,
} from "../_sources.ts";
import { buildInstances, type BuiltDataset } from "../build_instances.ts";
import type { BankCandidate, QuestionSource, SourceTurn } from "../question_source.ts";
import { LocomoFile } from "./locomo_schema.ts";

/** LoCoMo categories 1-4 as named by the official evaluation code (5 = adversarial, skipped). */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

/** Turns of a window that form one background record. */
const BANK_WINDOW = 3;

function _join(dataDir: string, path: string): string {
  return dataDir.replace(/\/+$/, "") + "/" + path;
}

/** Parse LoCoMo into question sources and the background pool. */
function _adapt(file: LocomoFile): { sources: QuestionSource[]; pool: BankCandidate[] } {
  const sources: QuestionSource[] = [];
  const pool: BankCandidate[] = [];
  for (const sample of file) {
    const conv = sample.conversation;
    const turns = new Map<string, SourceTurn & { index: number; list: SourceTurn[] }>();
    const texts: string[] = [];
    let order = 0;
    const sessionKeys = Object.keys(conv).filter((k) =>
      /^session_\d+$/.test(k) && Array.isArray(conv[k])
    )
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const key of sessionKeys) {
      const raw = conv[key] as { speaker: string; dia_id: string; text: string }[];
      const dateRaw = conv[`${key}_date_time`];
      const date = typeof dateRaw === "string" ? _sessionDate(dateRaw) : "an unknown date";
      const session = `${sample.sample_id}:${key}`;
      const list: SourceTurn[] = raw.map((t) => ({
        session,
        date,
        speaker: t.speaker,
        channel: "user" as const,
        text: t.text,
        order: order++,
      }));
      list.forEach((t, index) => turns.set(raw[index].dia_id.trim(), { ...t, index, list }));
      texts.push(...raw.map((t) => t.text));
      for (let w = 0; w * BANK_WINDOW < raw.length; w++) {
        const window = raw.slice(w * BANK_WINDOW, (w + 1) * BANK_WINDOW);
        pool.push({
          id: `bg:locomo:${session}:w${w}`,
          session,
          text: window.map((t) => `${t.speaker}: ${t.text}`).join(" "),
          channels: ["user"],
        });
      }
    }
    const entities = _entities(texts, 60);
    const speakers = [conv.speaker_a, conv.speaker_b].filter((s): s is string =>
      typeof s === "string"
    );
    const people = _people(texts, speakers);
    const cleaned = sample.qa.map((qa) =>
      qa.category >= 1 && qa.category <= 4 ? _cleanAnswer(qa.answer, qa.question) : null
    );
    sample.qa.forEach((qa, q) => {
      const answer = cleaned[q];
      if (answer === null) return;
      const ids = qa.evidence.flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.trim()).filter((e) =>
        e !== ""
      );
      const evidence = ids.map((id) => turns.get(id));
      if (evidence.length === 0 || evidence.some((t) => t === undefined)) return;
      const found = evidence as NonNullable<typeof evidence[number]>[];
      const evidenceOrders = new Set(found.map((t) => t.order));
      const context = found.flatMap((t) => t.list.slice(Math.max(0, t.index - 2), t.index + 3))
        .filter((t, i, all) =>
          !evidenceOrders.has(t.order) && all.findIndex((u) => u.order === t.order) === i
        );
      const wh = _whWord(qa.question);
      sources.push({
        id: `locomo:${sample.sample_id}:q${q}`,
        category: LOCOMO_CATEGORIES[qa.category],
        question: qa.question,
        answer,
        evidence: found.map(({ index: _i, list: _l, ...t }) => t).sort((a, b) => a.order - b.order),
        context: context.map((t) => ({ ...t })),
        excludeSessions: [...new Set(found.map((t) => t.session))],
        sameKindAnswers: _similarAnswers(
          qa.question,
          sample.qa.flatMap((other, o) =>
            o !== q && cleaned[o] !== null && _whWord(other.question) === wh
              ? [{ question: other.question, answer: cleaned[o]! }]
              : []
          ),
        ),
        entities,
        people,
        outdated: [],
      });
    });
  }
  return { sources, pool };
}

/**
 * Build LoCoMo instances (100, stratified over categories 1-4) from `locomo10.json` in the data
 * directory, with the builder's bookkeeping for `--stats`.
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
  const { sources, pool } = _adapt(file);
  return buildInstances({
    dataset: "locomo",
    sources,
    strata: Object.values(LOCOMO_CATEGORIES),
    pool,
    count: 100,
    seed: options.seed,
    bankSize: options.bankSize,
    traceLoad: options.traceLoad,
    intro: (s) => {
      const speakers = [...new Set(s.evidence.map((t) => t.speaker))].join(" and ");
      return `Here are some messages from my conversations with friends (${speakers}); please keep track of the details.`;
    },
  });
}
