/** The columns a summary groups on and the columns it cannot do without. */

/** Operating-point columns: a no-memory run does not depend on them. */
export const OPERATING_POINT_COLUMNS = [
  "stage",
  "thetaW",
  "policy",
  "thetaR",
  "thetaRRisk",
  "k",
  "fill",
  "bankSize",
  "ranker",
  "traceLoad",
] as const;

/** Default grouping: agent, dataset, attack and every operating-point column present. */
export const DEFAULT_GROUP_COLUMNS = ["agent", "dataset", "attack", ...OPERATING_POINT_COLUMNS];

/** Columns a summary cannot do without. */
export const REQUIRED_COLUMNS = [
  "instanceId",
  "pairId",
  "condition",
  "correct",
  "matchesTarget",
  "error",
] as const;
