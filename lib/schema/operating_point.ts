/** An operating point: one setting of all three stages, of which a sweep varies exactly one. */
import { z } from "zod";

/** The pipeline stages a sweep can vary. */
export const Stage = z.enum(["writing", "management", "retrieval"]);
/** The pipeline stages a sweep can vary. */
export type Stage = z.infer<typeof Stage>;

/** Built-in management policies; user policies may add ids of their own. */
export const PolicyId = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/);

/** Fill strategies: the built-ins `random` and `similarity`; plugins may add ids of their own. */
export const FillId = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/);

const unit = z.number().min(0).max(1);

/**
 * The fixed defaults of the paper: `theta_w = 0.6`, UM, `theta_r = 0.8`, K = 5, |B| = 100, and
 * the agent's own LLM as the writing-stage ranker (`llm:self`). The offline reference agent has
 * no LLM, so a sweep of simulated agents ranks with `OFFLINE_RANKER` instead (`defaultRanker`).
 */
export const PAPER_DEFAULTS = {
  thetaW: 0.6,
  policy: "UM",
  thetaR: 0.8,
  thetaRRisk: 0.8,
  k: 5,
  bankSize: 100,
  fill: "random",
  ranker: "llm:self",
  traceLoad: 1,
} as const;

/** The default ranker when every agent is the offline reference agent: the text heuristic. */
export const OFFLINE_RANKER = "usefulness";

/** One operating point. `thetaRRisk` equals `thetaR` except in the asymmetric variant. */
export const OperatingPoint = z.object({
  stage: Stage,
  thetaW: unit,
  policy: PolicyId,
  thetaR: unit,
  thetaRRisk: unit,
  k: z.number().int().min(1),
  fill: FillId,
  bankSize: z.number().int().min(1),
  ranker: z.string().min(1),
  traceLoad: z.number().positive(),
});
/** One operating point. */
export type OperatingPoint = z.infer<typeof OperatingPoint>;
