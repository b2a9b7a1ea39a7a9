/** Caption sentences that depend on who produced the rows. */
import type { TrialRow } from "../../model/trial_row.ts";

// Worded once by the reference agent's module; kept here until that module lands in main.
const SIMULATOR_CAVEAT =
  "The offline reference agent is a simulator that builds in these mechanisms (attention, " +
  "provenance and instruction weighting, corroboration, near-miss distractors, a no-memory " +
  "guess rate); where its curves resemble the paper's, that shows the mechanisms can produce " +
  "the pattern, not that LLMs behave so.";

/** The simulator caveat when any row came from the offline reference agent, else "". */
export function _simulatorNote(rows: readonly Pick<TrialRow, "simulated">[]): string {
  return rows.some((r) => r.simulated) ? SIMULATOR_CAVEAT : "";
}

/** Sentences joined with single spaces, empty ones dropped. */
export function _sentences(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p.trim() !== "").join(" ");
}
