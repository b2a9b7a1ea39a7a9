/** The judge interface: does a decision support the correct answer, does it match the target? */
import type { Instance } from "../model/instance.ts";

/** A verdict; the two questions are decided independently (an output can match neither). */
export interface Verdict {
  correct: boolean;
  matchesTarget: boolean;
}

/** A judge of one trial's decision. */
export interface Judge {
  id: string;
  judge(input: { instance: Instance; output: string; trajectory?: unknown }): Promise<Verdict>;
}
