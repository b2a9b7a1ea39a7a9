/** The declared type of every row column a summary reads, for Polars' schema and for errors. */
import pl from "nodejs-polars";

/** A JSON value kind: what a column holds when it is not null. */
export type ColumnKind = "string" | "number" | "integer" | "boolean";

/**
 * Types of the TrialRow columns (lib/schema/trial_row.ts) and of the existing-systems columns
 * that summaries read or group on; a test checks them against the zod contract. Any other
 * grouping column takes the kind of its value on line 1.
 */
export const COLUMN_KINDS: Record<string, ColumnKind> = {
  runId: "string",
  seed: "integer",
  agent: "string",
  simulated: "boolean",
  dataset: "string",
  attack: "string",
  stage: "string",
  thetaW: "number",
  policy: "string",
  thetaR: "number",
  thetaRRisk: "number",
  k: "integer",
  fill: "string",
  bankSize: "integer",
  ranker: "string",
  traceLoad: "number",
  instanceId: "string",
  pairId: "string",
  condition: "string",
  correct: "boolean",
  matchesTarget: "boolean",
  error: "string",
  trial: "integer",
  judgeModel: "string",
  judgePromptHash: "string",
  judge: "string",
  writer: "string",
  counterfactualOf: "string",
  ablatedRole: "string",
  system: "string",
  systemVersion: "string",
  management: "string",
  pipelineCheck: "boolean",
};

/** Columns that must be present and non-null on every row. */
export const NON_NULL_COLUMNS = ["instanceId", "pairId", "condition"] as const;

/** The conditions a row may have. */
export const ROW_CONDITIONS = ["clean", "poisoned", "nomemory"] as const;

/**
 * Polars dtype of a kind. Strings are read as Categorical: grouping hashes their codes, and a
 * summary has few distinct values per column (pairId, unique per pair, stays Utf8).
 */
export function polarsDtype(kind: ColumnKind, column: string): pl.DataType {
  if (kind === "string") return column === "pairId" ? pl.Utf8 : pl.Categorical;
  return kind === "boolean" ? pl.Bool : kind === "integer" ? pl.Int64 : pl.Float64;
}

/** The kind of a JSON value, for grouping columns the contract does not declare. */
export function kindOf(value: unknown): ColumnKind | null {
  if (value === null || value === undefined || typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  return null;
}

/**
 * Why `value` does not fit column `column` of kind `kind`, or null if it does. Null and absent
 * values fit every column except {@link NON_NULL_COLUMNS}; `condition` must be a known condition.
 */
export function columnMisfit(column: string, kind: ColumnKind, value: unknown): string | null {
  const required = (NON_NULL_COLUMNS as readonly string[]).includes(column);
  if (value === undefined) return required ? `lacks required column "${column}"` : null;
  if (value === null) {
    return required ? `column "${column}": expected a ${_noun(kind)}, got null` : null;
  }
  const fits = kind === "string"
    ? typeof value === "string"
    : kind === "boolean"
    ? typeof value === "boolean"
    : kind === "integer"
    ? Number.isSafeInteger(value)
    : typeof value === "number" && Number.isFinite(value);
  const orNull = required ? "" : " or null";
  if (!fits) {
    return `column "${column}": expected a ${_noun(kind)}${orNull}, got ${shortJson(value)}`;
  }
  if (column === "condition" && !(ROW_CONDITIONS as readonly unknown[]).includes(value)) {
    return `column "condition": expected one of ${ROW_CONDITIONS.join(", ")}, got ${
      shortJson(value)
    }`;
  }
  return null;
}

function _noun(kind: ColumnKind): string {
  return kind === "integer" ? "whole number" : kind;
}

/** A value as JSON, cut to 40 characters. */
export function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
