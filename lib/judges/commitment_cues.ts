/** The cue lexicon of the committed-answer judge (`commitment_cues.json`), validated and parsed. */
import { z } from "zod";
import cuesJson from "./commitment_cues.json" with { type: "json" };

const Phrases = z.array(z.string().min(1));

/** The shape of `commitment_cues.json`; every list holds normalized tokens or token phrases. */
export const CommitmentCuesFile = z.object({
  description: z.string(),
  negation: Phrases,
  negationPhrases: Phrases,
  negationExceptions: Phrases,
  epistemic: Phrases,
  frameOpeners: Phrases,
  open: Phrases,
  clauseBreaks: Phrases,
  concessive: Phrases,
  past: Phrases,
  pastAfter: Phrases,
  negatedAfter: Phrases,
  current: Phrases,
  currentAfter: Phrases,
  changeVerbs: Phrases,
  correction: Phrases,
  correctionAfter: Phrases,
  conclusive: Phrases,
  conclusiveExceptions: Phrases,
  tentative: Phrases,
  distancing: Phrases,
  reported: Phrases,
  dateReference: Phrases,
  orExceptions: Phrases,
  alternatives: Phrases,
  light: Phrases,
  swaps: z.array(z.tuple([z.string().min(1), z.string().min(1)])),
  nameStopwords: Phrases,
  pastQuestion: Phrases,
}).strict();

type _Lists = Omit<z.infer<typeof CommitmentCuesFile>, "description" | "swaps">;

/** Cue lists as token sequences, plus the person-swap pairs as a lookup. */
export type CommitmentCues = { [K in keyof _Lists]: string[][] } & {
  /** Token -> the tokens a person swap makes of it ("my" -> "your"). */
  swaps: ReadonlyMap<string, ReadonlySet<string>>;
};

/**
 * Parse a cue file: each phrase becomes its token sequence; swaps become a symmetric lookup.
 * Throws a `TypeError` naming the field when the file does not fit the schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMITMENT_CUES } from "./commitment_cues.ts";
 * assert.deepEqual(COMMITMENT_CUES.negationPhrases[0], ["instead", "of"]);
 * assert.ok(COMMITMENT_CUES.swaps.get("your")?.has("my"));
 * ```
 */
export function parseCommitmentCues(value: unknown): CommitmentCues {
  const parsed = CommitmentCuesFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(
      `commitment cues: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
  }
  const { description: _d, swaps, ...lists } = parsed.data;
  const out = Object.fromEntries(
    Object.entries(lists).map(([k, v]) => [k, v.map((p) => p.split(/\s+/))]),
  ) as { [K in keyof _Lists]: string[][] };
  const swapMap = new Map<string, Set<string>>();
  for (const [a, b] of swaps) {
    for (const [x, y] of [[a, b], [b, a]]) {
      if (!swapMap.has(x)) swapMap.set(x, new Set());
      swapMap.get(x)!.add(y);
    }
  }
  return { ...out, swaps: swapMap };
}

/** The kit's cue lexicon. */
export const COMMITMENT_CUES: CommitmentCues = parseCommitmentCues(cuesJson);
