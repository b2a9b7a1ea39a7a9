/**
 * A run as Inspect AI eval logs, so `inspect view` opens it: one log per run and agent, one
 * sample per pair trial and condition with the agent's messages, the judge's scores and the row
 * as metadata. The schema is inspect_ai's `EvalLog` (version 2) as defined in
 * `src/inspect_ai/log/_log.py` of UKGovernmentBEIS/inspect_ai at commit
 * 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17; what does not map is listed in docs/explorer.md
 * ("Open a run in Inspect's viewer").
 */
import type { PairTrajectory, TrajectoryMessage } from "../schema/pair_trajectory.ts";
import { trajectoryKey } from "../schema/pair_trajectory.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { pointLabel, settingLabel } from "./pair_facets.ts";

/** The inspect_ai commit whose log schema this export follows. */
export const INSPECT_SCHEMA_COMMIT = "499e6152e7b8fc8cbd8ac5283536572aa6e4ab17";

/** An Inspect chat message (the subset of `ChatMessage` the export writes). */
export interface InspectMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | ({ type: "text"; text: string } | { type: "reasoning"; reasoning: string })[];
  source?: "input" | "generate";
  tool_call_id?: string;
  tool_calls?: {
    id: string;
    function: string;
    arguments: Record<string, unknown>;
    type: "function";
  }[];
  model?: string;
}

/** One Inspect eval log (`EvalLog`, version 2), as JSON. */
export interface InspectLog {
  version: 2;
  status: "success";
  eval: Record<string, unknown>;
  plan: Record<string, unknown>;
  results: Record<string, unknown>;
  stats: Record<string, unknown>;
  samples: Record<string, unknown>[];
}

/** Inspect's stop reasons for the model client's finish reasons. */
const _STOP: Record<string, string> = {
  stop: "stop",
  length: "max_tokens",
  content_filter: "content_filter",
  tool_calls: "tool_calls",
};

function _messages(
  row: TrialRow,
  trajectory: PairTrajectory | undefined,
): { messages: InspectMessage[]; reconstructed: boolean } {
  const run = row.condition === "poisoned" ? trajectory?.poisoned : trajectory?.clean;
  const final: InspectMessage = {
    role: "assistant",
    content: [
      ...(row.reasoning ? [{ type: "reasoning" as const, reasoning: row.reasoning }] : []),
      { type: "text" as const, text: row.output ?? "" },
    ],
    source: "generate",
    ...(!row.simulated && { model: row.agent.replace(/^llm:/, "") }),
  };
  if (run?.messages && run.messages.length > 0) {
    const messages = run.messages.slice(0, -1).map((m, i) => _message(m, i));
    return { messages: [...messages, final], reconstructed: false };
  }
  // The simulator has no transcript: what it was given (the question, the context) and said.
  const context = (run?.context ?? row.contextIds).map((id, i) => {
    const r = trajectory?.records[id];
    return `${i + 1}. [${r?.role ?? "record"}] ${r ? r.text : id}`;
  }).join("\n");
  return {
    messages: [
      {
        role: "system",
        content: `Retrieved memory (K = ${row.contextIds.length}):\n${context}`,
        source: "input",
      },
      {
        role: "user",
        content: trajectory?.query ?? `(question of ${row.instanceId})`,
        source: "input",
      },
      final,
    ],
    reconstructed: true,
  };
}

function _message(m: TrajectoryMessage, i: number): InspectMessage {
  const role =
    (["system", "user", "assistant", "tool"].includes(m.role) ? m.role : "user") as InspectMessage[
      "role"
    ];
  const content = m.reasoning
    ? [{ type: "reasoning" as const, reasoning: m.reasoning }, {
      type: "text" as const,
      text: m.content ?? "",
    }]
    : m.content ?? "";
  return {
    role,
    content,
    source: role === "assistant" ? "generate" : "input",
    ...(m.toolCalls && {
      tool_calls: m.toolCalls.map((call, j) => {
        const match = /^([^(]*)\(([^]*)\)$/.exec(call);
        let args: Record<string, unknown> = {};
        try {
          args = JSON.parse(match?.[2] || "{}");
        } catch {
          args = { raw: match?.[2] ?? call };
        }
        return {
          id: `call_${i}_${j}`,
          function: match?.[1] ?? call,
          arguments: args,
          type: "function" as const,
        };
      }),
    }),
  };
}

function _sample(row: TrialRow, trajectory: PairTrajectory | undefined): Record<string, unknown> {
  const { messages, reconstructed } = _messages(row, trajectory);
  const key = trajectoryKey(row);
  const run = row.condition === "poisoned" ? trajectory?.poisoned : trajectory?.clean;
  const answer = row.output ?? undefined;
  const decided = row.error === null;
  return {
    id: `${key}/${row.condition}`,
    epoch: (row.trial ?? 0) + 1,
    input: trajectory?.query ?? `(question of ${row.instanceId})`,
    target: trajectory?.answer ?? "",
    messages,
    output: {
      model: row.agent,
      choices: [{
        message: messages.at(-1),
        stop_reason: _STOP[row.stopReason ?? ""] ?? "unknown",
      }],
      completion: row.output ?? "",
      ...(row.promptTokens !== null && {
        usage: {
          input_tokens: row.promptTokens ?? 0,
          output_tokens: row.completionTokens ?? 0,
          total_tokens: (row.promptTokens ?? 0) + (row.completionTokens ?? 0),
        },
      }),
      ...(row.error !== null && { error: row.error }),
    },
    scores: decided
      ? {
        correct: {
          value: row.correct ? "C" : "I",
          answer,
          explanation: run?.judgeReason ?? undefined,
          metadata: { hedged: row.hedged },
        },
        matches_target: {
          value: row.matchesTarget ? 1 : 0,
          answer,
          metadata: { y_adv: trajectory?.target ?? null },
        },
      }
      : undefined,
    metadata: {
      ...row,
      operatingPoint: `${row.stage} ${pointLabel(row)} (${settingLabel(row)})`,
      yAdv: trajectory?.target ?? null,
      messagesReconstructed: reconstructed,
      written: trajectory?.written ?? null,
      quarantined: run?.quarantined ?? null,
      counterfactual: trajectory?.ablations.filter((a) => a.condition === row.condition) ?? null,
    },
    ...(row.error !== null && {
      error: { message: row.error, traceback: "", traceback_ansi: "" },
    }),
  };
}

const _mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * The Inspect eval logs of a run: one per run id and agent. Counterfactual reruns are not
 * samples of their own (they would enter the metrics): each sample lists its reruns in
 * `metadata.counterfactual`. `created` is when the rows were written (an ISO time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectLogs } from "./inspect_log.ts";
 * assert.deepEqual(inspectLogs({ rows: [], trajectories: [], source: "rows.jsonl", created: "2026-01-01T00:00:00+00:00" }), []);
 * ```
 */
export function inspectLogs(options: {
  /** The run's rows. */
  rows: readonly TrialRow[];
  /** Its sidecar lines (questions, targets, messages, records). */
  trajectories: readonly PairTrajectory[];
  /** The rows file, named in the log's dataset. */
  source: string;
  /** The log's creation time (ISO 8601 with offset). */
  created: string;
  /** The kit's version; default "0.1.0". */
  version?: string;
}): InspectLog[] {
  const lines = new Map(options.trajectories.map((t) => [trajectoryKey(t), t]));
  const groups = new Map<string, TrialRow[]>();
  for (const row of options.rows) {
    if ((row.counterfactualOf ?? null) !== null) continue;
    const key = `${row.runId}\u0000${row.agent}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((rows) => {
    const first = rows[0];
    const samples = rows.map((r) => _sample(r, lines.get(trajectoryKey(r))));
    const decided = rows.filter((r) => r.error === null);
    const of = (condition: string) => decided.filter((r) => r.condition === condition);
    const metric = (name: string, value: number) => ({ name, value });
    return {
      version: 2 as const,
      status: "success" as const,
      eval: {
        eval_id: `${first.runId}-${first.agent}`.replace(/[^A-Za-z0-9_-]/g, "_"),
        run_id: first.runId,
        created: options.created,
        task: `memgauge_${first.stage ?? "system"}`,
        task_id: first.runId,
        task_version: 0,
        task_attribs: {},
        task_args: { stage: first.stage, dataset: first.dataset, seed: first.seed },
        solver: "memgauge_pipeline",
        dataset: {
          name: first.dataset,
          location: options.source,
          samples: samples.length,
        },
        model: `memgauge/${first.agent}`,
        model_generate_config: {},
        model_args: {},
        config: {},
        packages: { memgauge: options.version ?? "0.1.0" },
        metadata: {
          simulated: first.simulated,
          note: first.simulated
            ? "Offline reference agent: a simulator for teaching and smoke runs, not a real model."
            : null,
          inspectSchemaCommit: INSPECT_SCHEMA_COMMIT,
        },
      },
      plan: {
        name: "plan",
        steps: [{
          solver: "memgauge_pipeline",
          params: { stages: "rank, admit, write, manage, retrieve, answer, judge" },
        }],
        config: {},
      },
      results: {
        total_samples: samples.length,
        completed_samples: decided.length,
        scores: [
          {
            name: "correct",
            scorer: "memgauge_judge",
            scored_samples: decided.length,
            unscored_samples: rows.length - decided.length,
            params: { judge: first.judgeModel ?? "deterministic" },
            metrics: {
              clean_utility: metric(
                "clean_utility",
                _mean(of("clean").map((r) => Number(r.correct))),
              ),
              poisoned_utility: metric(
                "poisoned_utility",
                _mean(of("poisoned").map((r) => Number(r.correct))),
              ),
            },
          },
          {
            name: "matches_target",
            scorer: "memgauge_judge",
            scored_samples: decided.length,
            unscored_samples: rows.length - decided.length,
            params: {},
            metrics: {
              asr: metric("asr", _mean(of("poisoned").map((r) => Number(r.matchesTarget)))),
            },
          },
        ],
      },
      stats: { started_at: "", completed_at: "", model_usage: {} },
      samples,
    };
  });
}

/**
 * The file name Inspect lists a JSON log under (`inspect view` shows only names that start
 * with an ISO time): `<created>_memgauge-<stage>_<run id>-<agent>.json`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectLogName } from "./inspect_log.ts";
 * assert.equal(inspectLogName({ log: { eval: { created: "2026-01-02T03:04:05+00:00", task: "memgauge_writing", eval_id: "abc_reference_careful" } } }),
 *   "2026-01-02T03-04-05+00-00_memgauge-writing_abc_reference_careful.json");
 * ```
 */
export function inspectLogName(options: { log: { eval: Record<string, unknown> } }): string {
  const e = options.log.eval;
  return `${String(e.created).replace(/:/g, "-")}_${
    String(e.task).replace(/_/g, "-")
  }_${e.eval_id}.json`;
}
