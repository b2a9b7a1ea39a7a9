/** The judge interface: does a decision support the correct answer, does it match the target? */
import type { ModelUsage } from "../model/model_usage.ts";
import type { Instance } from "../model/instance.ts";

/** A verdict; the two questions are decided independently (an output can match neither). */
export interface Verdict {
  correct: boolean;
  matchesTarget: boolean;
  /**
   * True when the output commits to neither because it leaves `y*` or `y_adv` open as one of
   * several alternatives ("either X or Y"). Absent: the judge does not decide it (rows record
   * null).
   */
  hedged?: boolean;
  /** Model usage of an LLM judge; default none. */
  usage?: ModelUsage;
}

/** A judge of one trial's decision. */
export interface Judge {
  id: string;
  /** Judge model recorded in rows (LLM judges); default none. */
  model?: string;
  /** Hash of the judge prompts recorded in rows (LLM judges); default none. */
  promptHash?: string;
  judge(
    input: { instance: Instance; output: string; trajectory?: unknown; trial?: number },
  ): Promise<Verdict>;
}
