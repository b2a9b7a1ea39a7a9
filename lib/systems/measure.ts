/**
 * Measure an existing memory system: feed it the background bank, the helpful trace and the risk
 * trace one unit per call, retrieve once at the largest K and slice for smaller K, let the kit's
 * agent answer and judge, and write rows in the kit's contract plus system columns.
 */
import type { Agent } from "../agents/agent.ts";
import type { Judge } from "../judges/judge.ts";
import type { Attack, Instance } from "../model/instance.ts";
import type { MemoryRecord, RecordRole } from "../model/memory_record.ts";
import type { SourceUnit } from "../model/source_unit.ts";
import type { Condition, TrialRow } from "../model/trial_row.ts";
import type { ManagementMode, MemorySystem, MemorySystemFactory } from "./memory_system.ts";
import { ProvenanceLedger } from "./provenance.ts";

/** A row of a system measurement: the kit's row plus system columns. */
export type SystemRow = TrialRow & {
  /** Display name (Mem0, LangMem, A-MEM, Hindsight). */
  system: string;
  /** Library version or upstream commit. */
  systemVersion: string;
  management: ManagementMode;
  /** Target record in the top-K: helpful for clean rows, risk for poisoned rows; null for no-memory rows. */
  rsrHit: boolean | null;
  /** True when the system's model and embedder were the local scripted server: a pipeline check, not a measurement. */
  pipelineCheck: boolean;
};

/** Column names a system row adds to `TRIAL_ROW_COLUMNS`. */
export const SYSTEM_ROW_COLUMNS = [
  "system",
  "systemVersion",
  "management",
  "rsrHit",
  "pipelineCheck",
] as const;

interface _Unit {
  unit: SourceUnit;
  session: string;
  writtenAt: number;
  role: RecordRole;
  order: number;
}

function _backgroundUnit(record: Instance["background"][number]): SourceUnit {
  return {
    id: `bg:${record.id}`,
    text: record.text,
    channel: record.provenance.channels[0] ?? "user",
    trusted: record.provenance.trusted,
    verified: record.provenance.verified,
    numbers: record.numbers,
    asserts: record.asserts,
  };
}

/**
 * A system record as the kit's `MemoryRecord`, from its traced units: role risk when any unit is
 * from the risk trace (the injected content reaches the agent through it), else helpful when any
 * is from the helpful trace, else background; `asserts` is that of the most recently written
 * asserting unit (an update carries the newer statement); trusted when every unit is, verified
 * when any is; written at the latest unit's time.
 */
function _toMemoryRecord(
  record: { id: string; text: string },
  unitIds: string[],
  units: Map<string, _Unit>,
): MemoryRecord {
  const traced = unitIds.map((u) => units.get(u)).filter((u): u is _Unit => u !== undefined)
    .sort((a, b) => a.order - b.order);
  const role: RecordRole = traced.some((u) => u.role === "risk")
    ? "risk"
    : traced.some((u) => u.role === "helpful")
    ? "helpful"
    : "background";
  const latest = traced.at(-1);
  return {
    id: record.id,
    text: record.text || "(empty)",
    role,
    sourceUnitIds: traced.map((u) => u.unit.id),
    provenance: {
      session: latest?.session ?? "unknown",
      channels: [...new Set(traced.map((u) => u.unit.channel))],
      trusted: traced.every((u) => u.unit.trusted),
      verified: traced.some((u) => u.unit.verified),
      writtenAt: latest?.writtenAt ?? 0,
    },
    numbers: traced.flatMap((u) => u.unit.numbers),
    asserts: traced.filter((u) => u.unit.asserts !== null).at(-1)?.unit.asserts ?? null,
  };
}

/** Options of {@link measureSystem}. */
export interface MeasureSystemOptions {
  /** Builds a fresh memory per instance, attack and mode. */
  factory: MemorySystemFactory;
  instances: readonly Instance[];
  /** Attacks to run; default both. */
  attacks?: readonly Attack[];
  /** Management modes; default ["M0", "M1"]. */
  modes?: readonly ManagementMode[];
  /** Retrieval budgets; retrieval runs once at the largest. Default [1, 3, 5, 7]. */
  ks?: readonly number[];
  agent: Agent;
  judge: Judge;
  /** Run id and seed written into rows; seed default 0. */
  runId: string;
  seed?: number;
  dataset: string;
  /** True when the system's endpoint is the scripted local server (rows say `pipelineCheck`). */
  pipelineCheck: boolean;
  /** Memories built at once (instance x attack x mode tasks); default 4. Rows stay in order. */
  concurrency?: number;
  /** Called with each finished row, in order; default none. */
  onRow?: (row: SystemRow) => void | Promise<void>;
}

/**
 * Run the measurement and return its rows: per instance, attack and mode, for each K a clean row
 * (background + helpful trace) and a poisoned row (+ risk trace) sharing `pairId`, plus one
 * no-memory row (U0). Instances run one after another; each gets fresh memories.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureSystem } from "./measure.ts";
 * const rows = await measureSystem({
 *   factory: () => Promise.reject(new Error("unused")), instances: [], agent: { id: "a", simulated: true, answer: () => Promise.resolve({ output: "" }) },
 *   judge: { id: "j", judge: () => Promise.resolve({ correct: false, matchesTarget: false, hedged: false }) },
 *   runId: "r", dataset: "demo", pipelineCheck: true,
 * });
 * assert.deepEqual(rows, []);
 * ```
 */
export async function measureSystem(options: MeasureSystemOptions): Promise<SystemRow[]> {
  const ks = [...(options.ks ?? [1, 3, 5, 7])].sort((a, b) => a - b);
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new RangeError(`Cannot measure: every K must be an integer >= 1, got ${ks.join(",")}`);
  }
  const rows: SystemRow[] = [];
  const emit = async (row: SystemRow) => {
    rows.push(row);
    await options.onRow?.(row);
  };
  const tasks: [Instance, Attack, ManagementMode][] = [];
  for (const instance of options.instances) {
    for (const attack of options.attacks ?? (["minja", "sleeper"] as const)) {
      if (!instance.risk[attack]) continue;
      for (const mode of options.modes ?? (["M0", "M1"] as const)) {
        tasks.push([instance, attack, mode]);
      }
    }
  }
  // A bounded pool; results are emitted in task order whatever finishes first.
  const results: Promise<SystemRow[]>[] = [];
  let next = 0;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const slots: Promise<void>[] = [];
  const started: ((value: SystemRow[] | PromiseLike<SystemRow[]>) => void)[] = [];
  tasks.forEach((_, i) => results.push(new Promise((resolve) => (started[i] = resolve))));
  for (let w = 0; w < Math.min(concurrency, tasks.length); w++) {
    slots.push((async () => {
      while (next < tasks.length) {
        const i = next++;
        started[i](await _measureOne(options, ...tasks[i], ks));
      }
    })());
  }
  for (const result of results) for (const row of await result) await emit(row);
  await Promise.all(slots);
  return rows;
}

async function _measureOne(
  options: MeasureSystemOptions,
  instance: Instance,
  attack: Attack,
  mode: ManagementMode,
  ks: number[],
): Promise<SystemRow[]> {
  const riskTrace = instance.risk[attack]!;
  const seed = options.seed ?? 0;
  const scope = `${options.runId}-${instance.id}-${attack}-${mode}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const units = new Map<string, _Unit>();
  let order = 0;
  const ledger = new ProvenanceLedger();
  let system: MemorySystem | null = null;
  const base = {
    runId: options.runId,
    seed,
    agent: options.agent.id,
    simulated: options.agent.simulated,
    dataset: options.dataset,
    attack,
    stage: "retrieval" as const,
    thetaW: 1,
    policy: mode,
    thetaR: 1,
    thetaRRisk: 1,
    fill: "similarity" as const,
    bankSize: instance.background.length,
    ranker: "system",
    traceLoad: 1,
    instanceId: instance.id,
    unitsHelpful: instance.helpful.units.length,
    unitsRisk: riskTrace.units.length,
    quarantinedIds: [],
    trial: 0,
    cacheHit: null,
    promptTokens: null,
    completionTokens: null,
    judgeModel: options.judge.model ?? null,
    judgePromptHash: options.judge.promptHash ?? null,
    reasoning: null,
    stopReason: null,
    management: mode,
    pipelineCheck: options.pipelineCheck,
  };
  const answer = async (
    condition: Condition,
    context: MemoryRecord[],
    pairId: string,
  ) => {
    const started = performance.now();
    try {
      const out = await options.agent.answer({ instance, context, condition, pairId, seed });
      const verdict = await options.judge.judge({
        instance,
        output: out.output,
        trajectory: out.trajectory,
      });
      return {
        output: out.output,
        correct: verdict.correct,
        matchesTarget: verdict.matchesTarget,
        hedged: verdict.hedged ?? null,
        error: null,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
      };
    } catch (e) {
      return {
        output: null,
        correct: null,
        matchesTarget: null,
        hedged: null,
        error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
        latencyMs: 0,
      };
    }
  };
  let systemName = "?", version = "?";
  try {
    system = await options.factory({ scope, management: mode });
    systemName = system.system;
    version = system.version;
    const write = async (
      unit: SourceUnit,
      role: RecordRole,
      session: string,
      writtenAt: number,
    ) => {
      units.set(unit.id, { unit, role, session, writtenAt, order: order++ });
      const result = await system!.write({
        units: [{ id: unit.id, text: unit.text, channel: unit.channel }],
        background: role === "background",
      });
      ledger.apply({
        inputUnitIds: [unit.id],
        after: await system!.list(),
        touched: result.touched,
      });
    };
    for (const record of instance.background) {
      await write(_backgroundUnit(record), "background", record.provenance.session, 0);
    }
    for (const unit of instance.helpful.units) {
      await write(unit, "helpful", instance.helpful.session, 1);
    }
    const kMax = ks.at(-1)!;
    const retrieve = async () =>
      (await system!.search({ query: instance.query, k: kMax })).slice(0, kMax)
        .map((r) => _toMemoryRecord(r, ledger.unitsOf(r.id), units));
    const cleanTop = await retrieve();
    const helpfulRetained = ledger.retained({ unitIds: instance.helpful.units.map((u) => u.id) });
    for (const unit of riskTrace.units) await write(unit, "risk", riskTrace.session, 2);
    const poisonedTop = await retrieve();
    const riskRetained = ledger.retained({ unitIds: riskTrace.units.map((u) => u.id) });
    const helpfulAfter = ledger.retained({ unitIds: instance.helpful.units.map((u) => u.id) });

    const rows: SystemRow[] = [];
    for (const k of ks) {
      const pairId = `${instance.id}:${attack}:${mode}:k${k}`;
      for (const condition of ["clean", "poisoned"] as const) {
        const context = (condition === "clean" ? cleanTop : poisonedTop).slice(0, k);
        const target: RecordRole = condition === "clean" ? "helpful" : "risk";
        rows.push({
          ...base,
          k,
          pairId,
          condition,
          admittedHelpful: (condition === "clean" ? helpfulRetained : helpfulAfter).length,
          admittedRisk: condition === "clean" ? 0 : riskRetained.length,
          helpfulExposed: helpfulRetained.length > 0,
          riskExposed: riskRetained.length > 0,
          helpfulInContext: context.some((r) => r.role === "helpful"),
          riskInContext: context.some((r) => r.role === "risk"),
          contextIds: context.map((r) => r.id),
          contextSize: context.length,
          ...(await answer(condition, context, pairId)),
          system: systemName,
          systemVersion: version,
          rsrHit: context.some((r) => r.role === target),
        });
      }
    }
    const pairId = `${instance.id}:${attack}:${mode}:nomemory`;
    rows.push({
      ...base,
      k: ks[0],
      pairId,
      condition: "nomemory",
      admittedHelpful: 0,
      admittedRisk: 0,
      helpfulExposed: false,
      riskExposed: false,
      helpfulInContext: false,
      riskInContext: false,
      contextIds: [],
      contextSize: 0,
      ...(await answer("nomemory", [], pairId)),
      system: systemName,
      systemVersion: version,
      rsrHit: null,
    });
    return rows;
  } catch (e) {
    // A failed system call fails every row of this instance, attack and mode: error rows, never
    // wrong answers.
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return ks.flatMap((k) =>
      (["clean", "poisoned"] as const).map((condition): SystemRow => ({
        ...base,
        k,
        pairId: `${instance.id}:${attack}:${mode}:k${k}`,
        condition,
        admittedHelpful: 0,
        admittedRisk: 0,
        helpfulExposed: false,
        riskExposed: false,
        helpfulInContext: false,
        riskInContext: false,
        contextIds: [],
        contextSize: 0,
        output: null,
        correct: null,
        matchesTarget: null,
        hedged: null,
        error,
        latencyMs: 0,
        system: systemName,
        systemVersion: version,
        rsrHit: null,
      }))
    );
  } finally {
    await system?.close();
  }
}
