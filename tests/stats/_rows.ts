/** Hand-built trial rows for stats tests: only the columns summaries read, plus grouping. */
export interface HandRow extends Record<string, unknown> {
  agent: string;
  stage: string;
  thetaW: number;
  instanceId: string;
  pairId: string;
  condition: "clean" | "poisoned" | "nomemory";
  correct: boolean | null;
  matchesTarget: boolean | null;
  error: string | null;
}

/** A clean row and its poisoned twin. */
export function pair(
  base: { agent: string; thetaW: number; instanceId: string; pairId: string },
  clean: [boolean, boolean] | "error",
  poisoned: [boolean, boolean] | "error",
): HandRow[] {
  const row = (condition: "clean" | "poisoned", o: [boolean, boolean] | "error"): HandRow => ({
    ...base,
    stage: "writing",
    condition,
    correct: o === "error" ? null : o[0],
    matchesTarget: o === "error" ? null : o[1],
    error: o === "error" ? "timeout" : null,
  });
  return [row("clean", clean), row("poisoned", poisoned)];
}
