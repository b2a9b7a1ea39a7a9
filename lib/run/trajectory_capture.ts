/**
 * The trajectory sidecar's capture: `runPair` hands what it built on the way (ranks, admitted
 * prefixes, written records, each condition's memory state and quarantine, both contexts, each
 * answer's trajectory) to a hook, and `pairTrajectory` turns that into one compact, redacted
 * sidecar line. The runner is not restructured: the hook is one optional field of the task.
 */
import type { Instance } from "../schema/instance.ts";
import type { MemoryRecord } from "../schema/memory_record.ts";
import {
  PAIR_TRAJECTORY_FORMAT,
  type PairTrajectory,
  type TrajectoryMessage,
  type TrajectoryRecord,
  type TrajectoryRun,
  type TrajectoryTrace,
} from "../schema/pair_trajectory.ts";
import type { Trace } from "../schema/trace.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { knownSecrets, redact } from "../models/redact.ts";
import type { ManagementPolicy, MemoryState } from "../stages/management/policy.ts";
import { quarantineReason } from "../stages/management/quarantine_reason.ts";
import { flipped } from "./counterfactual.ts";

/** What the agent and the judge returned for one row, beside the row itself. */
export interface RowCapture {
  /** The agent's trajectory (OpenAI messages for the LLM agent, the reading for the simulator). */
  trajectory?: unknown;
  /** An LLM judge's reason. */
  judgeReason?: string | null;
}

/** Everything one pair built, as `runPair` hands it to `PairTask.capture`. */
export interface PairCapture {
  runId: string;
  pairId: string;
  trial: number;
  instance: Instance;
  riskTrace: Trace;
  agent: string;
  attack: string;
  helpfulExposed: boolean;
  riskExposed: boolean;
  rankings: { helpful: readonly string[]; risk: readonly string[] };
  admitted: { helpful: readonly string[]; risk: readonly string[] };
  written: { helpful: MemoryRecord | null; risk: MemoryRecord | null };
  policy: ManagementPolicy;
  states: { clean: MemoryState; poisoned: MemoryState };
  quarantined: { clean: readonly string[]; poisoned: readonly string[] };
  contexts: { clean: readonly MemoryRecord[]; poisoned: readonly MemoryRecord[] };
  /** Every row of the pair trial: clean, poisoned, then counterfactual reruns. */
  rows: readonly TrialRow[];
  /** Per row (same objects as `rows`): what the agent and the judge returned. */
  answers: ReadonlyMap<TrialRow, RowCapture>;
}

/** Characters of an LLM message's reasoning the sidecar keeps (the row keeps the answer's in full). */
export const REASONING_KEPT = 400;

const _round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Every string through the redaction layer. The serialized line is redacted as one text (a key
 * is letters, digits and dashes, so a redaction stays inside its JSON string); a key with a
 * character JSON escapes is looked for string by string instead. Unchanged: the value itself.
 */
function _clean<T>(value: T): T {
  if (knownSecrets().some((k) => JSON.stringify(k) !== `"${k}"`)) {
    return JSON.parse(
      JSON.stringify(value, (_key, v) => typeof v === "string" ? redact({ text: v }) : v),
    );
  }
  const text = JSON.stringify(value);
  const clean = redact({ text });
  return clean === text ? value : JSON.parse(clean);
}

/** A copy with every non-integer number rounded to 3 decimals. */
function _rounded(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? value : _round(value);
  if (Array.isArray(value)) return value.map(_rounded);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, _rounded(v)]));
  }
  return value;
}

/** The reference agent's reading without what repeats: `read` (each record says it), empty fields. */
function _reading(trajectory: unknown): unknown {
  const t = trajectory as { read?: unknown; records?: Record<string, unknown>[] } | null;
  if (!t || typeof t !== "object" || !Array.isArray(t.records)) return trajectory;
  const { read: _read, ...rest } = t;
  return _rounded({
    ...rest,
    records: t.records.map((r) =>
      Object.fromEntries(
        Object.entries(r).filter(([k, v]) =>
          !(v === null || (Array.isArray(v) && v.length === 0) || (k === "topicalShare" && v === 0))
        ),
      )
    ),
  });
}

function _record(r: MemoryRecord): TrajectoryRecord {
  return {
    text: r.text,
    role: r.role,
    sourceUnitIds: r.role === "background" ? [] : [...r.sourceUnitIds],
    channels: [...r.provenance.channels],
    trusted: r.provenance.trusted,
    verified: r.provenance.verified,
    session: r.provenance.session,
    writtenAt: r.provenance.writtenAt,
    asserts: r.asserts,
  };
}

function _trace(
  trace: Trace,
  kind: "helpful" | "risk",
  ranking: readonly string[] | null,
  admitted: readonly string[],
): TrajectoryTrace {
  const yes = new Set(admitted);
  return {
    kind,
    id: trace.id,
    session: trace.session,
    units: trace.units.map((u) => {
      const rank = ranking ? ranking.indexOf(u.id) + 1 : 0;
      return {
        id: u.id,
        text: u.text,
        channel: u.channel,
        trusted: u.trusted,
        verified: u.verified,
        asserts: u.asserts,
        rank: rank > 0 ? rank : null,
        admitted: yes.has(u.id),
      };
    }),
  };
}

/** An OpenAI-format transcript as sidecar messages: reasoning collapsed, tool calls flattened. */
function _messages(trajectory: unknown): TrajectoryMessage[] | undefined {
  if (!Array.isArray(trajectory)) return undefined;
  return trajectory.map((m: Record<string, unknown>) => {
    const reasoning = typeof m.reasoning === "string" ? m.reasoning : "";
    const calls = Array.isArray(m.tool_calls)
      ? m.tool_calls.map((c: { function?: { name?: string; arguments?: string } }) =>
        `${c.function?.name ?? "?"}(${c.function?.arguments ?? ""})`
      )
      : [];
    return {
      role: String(m.role ?? "?"),
      content: typeof m.content === "string" ? m.content : null,
      ...(calls.length > 0 && { toolCalls: calls }),
      ...(reasoning && {
        reasoning: reasoning.length > REASONING_KEPT
          ? `${reasoning.slice(0, REASONING_KEPT)}…`
          : reasoning,
        reasoningChars: reasoning.length,
      }),
    };
  });
}

function _run(
  row: TrialRow | undefined,
  answer: RowCapture | undefined,
  quarantined: TrajectoryRun["quarantined"],
  context: readonly MemoryRecord[],
): TrajectoryRun {
  const trajectory = answer?.trajectory;
  const messages = _messages(trajectory);
  return {
    quarantined,
    context: context.map((r) => r.id),
    output: row?.output ?? null,
    correct: row?.correct ?? null,
    matchesTarget: row?.matchesTarget ?? null,
    hedged: row?.hedged ?? null,
    error: row?.error ?? null,
    ...(messages ? { messages } : trajectory !== undefined && { reading: _reading(trajectory) }),
    ...(answer?.judgeReason && { judgeReason: answer.judgeReason }),
  };
}

/**
 * One sidecar line from a pair's capture: the traces with each unit's rank and admission, the
 * written records with provenance, each condition's quarantine with its reason, both contexts
 * (record texts once, by id), each run's output, transcript or reading and verdict, and every
 * counterfactual rerun with its flip. Every string passes the redaction layer (no key, whole or
 * in part, reaches the file); the reading's numbers are rounded to 3 decimals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAgent } from "../agents/reference_agent.ts";
 * import { loadDemo } from "../data/demo.ts";
 * import { deterministicJudge } from "../judges/deterministic_judge.ts";
 * import { PAPER_DEFAULTS } from "../schema/operating_point.ts";
 * import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";
 * import { runPair } from "./run_pair.ts";
 * import { sweepResources } from "./sweep_resources.ts";
 * import { type PairCapture, pairTrajectory } from "./trajectory_capture.ts";
 * const [instance] = await loadDemo({ seed: 0, bankSize: 20, traceLoad: 1, dataDir: "" });
 * let capture: PairCapture | undefined;
 * await runPair({ runId: "r", seed: 0, dataset: "demo", attack: "minja", instance, pairId: "p",
 *   point: { ...PAPER_DEFAULTS, stage: "retrieval", ranker: "usefulness", bankSize: 20 },
 *   agent: referenceAgent({ persona: "balanced" }), helpfulExposed: true, riskExposed: true,
 *   capture: (c) => { capture = c; } }, sweepResources({ judge: deterministicJudge, writer: verbatimWriter }));
 * const line = pairTrajectory({ capture: capture! });
 * assert.equal(line.poisoned.context.length, 5);
 * assert.ok(line.poisoned.context.some((id) => line.records[id].role === "risk"));
 * assert.ok(!line.clean.context.some((id) => line.records[id].role === "risk"));
 * ```
 */
export function pairTrajectory(options: {
  /** What `runPair` captured. */
  capture: PairCapture;
}): PairTrajectory {
  const c = options.capture;
  const records: Record<string, TrajectoryRecord> = {};
  const keep = (r: MemoryRecord) => {
    records[r.id] ??= _record(r);
  };
  const written = [c.written.helpful, c.written.risk].filter((r): r is MemoryRecord => !!r);
  written.forEach(keep);
  c.contexts.clean.forEach(keep);
  c.contexts.poisoned.forEach(keep);
  const quarantine = (condition: "clean" | "poisoned") => {
    const ids = new Set(c.quarantined[condition]);
    return c.states[condition].records.filter((r) => ids.has(r.id)).map((record) => ({
      id: record.id,
      role: record.role,
      reason: quarantineReason({ policy: c.policy, record, state: c.states[condition] }),
    }));
  };
  const [clean, poisoned] = c.rows;
  const ablations = c.rows.slice(2).filter((r) => (r.counterfactualOf ?? null) !== null).map(
    (r) => {
      const context = r.condition === "poisoned" ? c.contexts.poisoned : c.contexts.clean;
      const replacement = r.replacementRecordId ?? null;
      const slot = Math.max(0, context.findIndex((x) => x.id === r.ablatedRecordId));
      if (replacement !== null) {
        const found = c.states[r.condition === "poisoned" ? "poisoned" : "clean"].records.find(
          (x) => x.id === replacement,
        );
        if (found) keep(found);
      }
      return {
        condition: r.condition === "poisoned" ? "poisoned" as const : "clean" as const,
        slot,
        ablated: r.ablatedRecordId ?? "",
        role: r.ablatedRole ?? "background",
        replacement,
        output: r.output,
        correct: r.correct,
        matchesTarget: r.matchesTarget,
        flipped: flipped(r),
        error: r.error,
      };
    },
  );
  return _clean({
    format: PAIR_TRAJECTORY_FORMAT,
    runId: c.runId,
    pairId: c.pairId,
    trial: c.trial,
    instanceId: c.instance.id,
    agent: c.agent,
    attack: c.attack,
    query: c.instance.query,
    answer: c.instance.answer,
    target: c.instance.target,
    helpfulExposed: c.helpfulExposed,
    riskExposed: c.riskExposed,
    traces: [
      _trace(c.instance.helpful, "helpful", c.rankings.helpful, c.admitted.helpful),
      _trace(c.riskTrace, "risk", c.rankings.risk, c.admitted.risk),
    ],
    written: written.map((r) => r.id),
    records,
    clean: _run(clean, c.answers.get(clean), quarantine("clean"), c.contexts.clean),
    poisoned: _run(poisoned, c.answers.get(poisoned), quarantine("poisoned"), c.contexts.poisoned),
    ablations,
    error: null,
  });
}

/**
 * The sidecar line of a pair trial that failed before its agent ran (a ranker or writer call):
 * its traces unranked, nothing written, both runs error rows. Every pair trial of the rows has a
 * line, so the sidecar never silently lacks one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDemo } from "../data/demo.ts";
 * import { failedPairTrajectory } from "./trajectory_capture.ts";
 * const [instance] = await loadDemo({ seed: 0, bankSize: 4, traceLoad: 1, dataDir: "" });
 * const row = { runId: "r", pairId: "p", trial: 0, agent: "a", attack: "minja" as const, helpfulExposed: true, riskExposed: false, error: "HTTP 500" };
 * const line = failedPairTrajectory({ instance, rows: [{ ...row, condition: "clean" as const }, { ...row, condition: "poisoned" as const }] });
 * assert.deepEqual([line.error, line.written, line.clean.error], ["HTTP 500", [], "HTTP 500"]);
 * ```
 */
export function failedPairTrajectory(options: {
  /** The pair's instance. */
  instance: Instance;
  /** The pair's rows (error rows). */
  rows: readonly Pick<
    TrialRow,
    | "runId"
    | "pairId"
    | "trial"
    | "agent"
    | "attack"
    | "condition"
    | "helpfulExposed"
    | "riskExposed"
    | "error"
  >[];
}): PairTrajectory {
  const { instance, rows } = options;
  const first = rows[0];
  const run = (condition: string): TrajectoryRun => {
    const row = rows.find((r) => r.condition === condition);
    return {
      quarantined: [],
      context: [],
      output: null,
      correct: null,
      matchesTarget: null,
      hedged: null,
      error: row?.error ?? null,
    };
  };
  const risk = instance.risk[first.attack as "minja" | "sleeper"];
  return _clean({
    format: PAIR_TRAJECTORY_FORMAT,
    runId: first.runId,
    pairId: first.pairId,
    trial: first.trial ?? 0,
    instanceId: instance.id,
    agent: first.agent,
    attack: first.attack,
    query: instance.query,
    answer: instance.answer,
    target: instance.target,
    helpfulExposed: first.helpfulExposed ?? false,
    riskExposed: first.riskExposed ?? false,
    traces: [
      _trace(instance.helpful, "helpful", null, []),
      ...(risk ? [_trace(risk, "risk", null, [])] : []),
    ],
    written: [],
    records: {},
    clean: run("clean"),
    poisoned: run("poisoned"),
    ablations: [],
    error: rows.find((r) => r.error !== null)?.error ?? null,
  });
}
