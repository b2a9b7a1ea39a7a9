/** Caption sentences that depend on who produced the rows. */
import { SIMULATOR_CAVEAT } from "../agents/simulator_caveat.ts";
import type { TrialRow } from "../schema/trial_row.ts";

/** The simulator caveat when any row came from the offline reference agent, else "". */
export function simulatorNote(rows: readonly Pick<TrialRow, "simulated">[]): string {
  return rows.some((r) => r.simulated) ? SIMULATOR_CAVEAT : "";
}

/** Sentences joined with single spaces, empty ones dropped. */
export function joinSentences(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p.trim() !== "").join(" ");
}
