/** The dataset-neutral view of one benchmark question that the instance builder works from. */
import type { Channel } from "../schema/source_unit.ts";

/** One turn of a benchmark session, with its session date already resolved. */
export interface SourceTurn {
  /** Session key, unique within the dataset (e.g. `conv-26:session_3`). */
  session: string;
  /** Session date as text ("8 May 2023"), stated beside evidence so relative dates resolve. */
  date: string;
  /** Display name of the speaker ("Nadia", "User", "Assistant"). */
  speaker: string;
  /** Channel the turn plays in the helpful trace. */
  channel: Channel;
  text: string;
  /** Chronological position inside the dataset item, for ordering units. */
  order: number;
}

/** Another question's answer, with the question, so a swap is used only for a like question. */
export interface SwapCandidate {
  answer: string;
  question: string;
}

/** One question ready for instance building. */
export interface QuestionSource {
  /** Stable instance id, e.g. `locomo:conv-26:q17`. */
  id: string;
  /** Stratum: LoCoMo category name or LongMemEval question type. */
  category: string;
  question: string;
  /** Gold answer y*, cleaned to a short matchable string. */
  answer: string;
  /** Evidence turns (core of the helpful trace). */
  evidence: SourceTurn[];
  /** Nearby turns of the same sessions, usable as filler. */
  context: SourceTurn[];
  /** Sessions the background bank must not draw from (the evidence sessions). */
  excludeSessions: string[];
  /** Other questions of the same conversation or type with their answers: answer-swap candidates. */
  sameKindAnswers: SwapCandidate[];
  /** Capitalized names from the same conversation. */
  entities: string[];
  /** Names of people from the same conversation: person-swap candidates; default none. */
  people?: string[];
  /** Outdated values (LongMemEval knowledge-update): preferred targets. */
  outdated: string[];
  /** Other answers the benchmark accepts (never usable as a target); default none. */
  alsoAccepted?: string[];
  /** Who the question is about, for number keys ("caroline", "user"); default "user". */
  subject?: string;
  /**
   * Date of the session in which the question is asked ("28 May 2023"), later than every
   * evidence session: LongMemEval's `question_date`, for LoCoMo a week after the conversation's
   * last session; default none.
   */
  queryDate?: string;
}

/** One background record candidate (a window of turns with their provenance). */
export type { BankCandidate, BankTurn } from "./bank_record.ts";
