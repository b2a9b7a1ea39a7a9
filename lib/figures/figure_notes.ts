/** Caption sentences that depend on who produced the rows. */
import { isReferenceSpec } from "../agents/agent_spec.ts";
import { SIMULATOR_CAVEAT } from "../agents/simulator_caveat.ts";
import type { TrialRow } from "../schema/trial_row.ts";

/**
 * The simulator caveat when any row came from the offline reference agent, else "" (another
 * offline agent, a plugin's, is not the simulator the caveat describes). A row without `agent`
 * counts by `simulated` alone.
 */
export function simulatorNote(
  rows: readonly (Pick<TrialRow, "simulated"> & { agent?: string })[],
): string {
  return rows.some((r) => r.simulated && (r.agent === undefined || isReferenceSpec(r.agent)))
    ? SIMULATOR_CAVEAT
    : "";
}

/** Sentences joined with single spaces, empty ones dropped. */
export function joinSentences(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p.trim() !== "").join(" ");
}
