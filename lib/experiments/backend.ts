/**
 * What produced a row, as every figure CSV and summary names it in its `backend` column:
 * "simulator" (the offline reference agent), the model id of a real model, the id of any other
 * offline agent (a plugin's), or "pipeline check" (scripted local stand-ins that check the
 * plumbing and measure nothing).
 */
import pl from "nodejs-polars";
import { isReferenceSpec } from "../agents/agent_spec.ts";

/** The fields of a row that say what produced it. */
export interface BackendFields {
  agent: string;
  simulated: boolean;
  pipelineCheck?: boolean | null;
}

/**
 * The backend of one row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { backendOf } from "./backend.ts";
 * assert.equal(backendOf({ agent: "reference:careful", simulated: true }), "simulator");
 * assert.equal(backendOf({ agent: "llm:gpt-5.4-mini", simulated: false }), "gpt-5.4-mini");
 * assert.equal(backendOf({ agent: "llm:m", simulated: false, pipelineCheck: true }), "pipeline check");
 * assert.equal(backendOf({ agent: "last-record", simulated: true }), "last-record");
 * ```
 */
export function backendOf(row: BackendFields): string {
  if (row.pipelineCheck) return "pipeline check";
  if (row.simulated) return isReferenceSpec(row.agent) ? "simulator" : row.agent;
  return row.agent.replace(/^llm:/, "");
}

/**
 * The backends of a set of rows, distinct, in first-seen order, joined by ", ".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { backendsOf } from "./backend.ts";
 * assert.equal(backendsOf([{ agent: "reference:a", simulated: true }, { agent: "reference:b", simulated: true }]), "simulator");
 * assert.equal(backendsOf([]), "none");
 * ```
 */
export function backendsOf(rows: readonly BackendFields[]): string {
  const names = [...new Set(rows.map(backendOf))];
  return names.length ? names.join(", ") : "none";
}

/**
 * A summary with a `backend` column after its leading key: per agent when it has an `agent`
 * column, else the backends of all `rows`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { withBackend } from "./backend.ts";
 * const summary = pl.DataFrame({ agent: ["reference:careful"], asr: [0.5] });
 * const out = withBackend({ summary, rows: [{ agent: "reference:careful", simulated: true }] });
 * assert.deepEqual(out.columns, ["agent", "backend", "asr"]);
 * assert.equal(out.getColumn("backend").get(0), "simulator");
 * ```
 */
export function withBackend(options: {
  /** A summary frame. */
  summary: pl.DataFrame;
  /** The rows it summarizes. */
  rows: readonly BackendFields[];
}): pl.DataFrame {
  const { summary, rows } = options;
  const columns = summary.columns.filter((c) => c !== "backend");
  const base = summary.select(...columns);
  if (columns.includes("agent")) {
    const byAgent = new Map(rows.map((r) => [r.agent, backendOf(r)]));
    const values = (base.getColumn("agent").toArray() as string[]).map((a) =>
      byAgent.get(a) ?? "unknown"
    );
    const out = base.withColumns(pl.Series("backend", values, pl.Utf8));
    const at = columns.indexOf("agent") + 1;
    return out.select(...columns.slice(0, at), "backend", ...columns.slice(at));
  }
  return base.withColumns(pl.lit(backendsOf(rows)).alias("backend")).select("backend", ...columns);
}
