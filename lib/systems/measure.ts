/**
 * Measure an existing memory system. Per instance, attack and trial, writing runs once: the
 * background bank, then the helpful trace, one source unit per write; the clean retrieval is
 * taken there; then the risk trace and the poisoned retrieval. M0 and M1 are the system's
 * native management off and on, applied by the system from that same pre-management state.
 * Retrieval runs once at the largest K and is sliced for smaller K; a context holds at most K
 * records, whatever a system's search appends to its hits.
 */
import type { Agent } from "../agents/agent.ts";
import type { Judge } from "../judges/judge.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { MemoryRecord, RecordRole } from "../schema/memory_record.ts";
import type { ModelUsage } from "../schema/model_usage.ts";
import type { SourceUnit } from "../schema/source_unit.ts";
import { stableId } from "../schema/stable_id.ts";
import { errorOutcome, errorRow } from "../run/error_row.ts";
import { orderedPool } from "../run/worker_pool.ts";
import { type ManagementMode, SYSTEM_ROW_COLUMNS, type SystemRow } from "../schema/system_row.ts";
import type { Condition } from "../schema/trial_row.ts";
import { monthNumber } from "../text/months.ts";
import type { MemorySystem, SystemSession, TracedRecord } from "./memory_system.ts";
import { informationRetained } from "../stats/retained_information.ts";
import { rsrHits } from "./rsr.ts";

/** The context columns of a row that saw no memory (no-memory runs, failed tasks). */
function _nothingRetrieved() {
  return {
    admittedHelpful: 0,
    admittedRisk: 0,
    tracedHelpful: 0,
    tracedRisk: 0,
    helpfulInContext: false,
    riskInContext: false,
    contextIds: [] as string[],
    contextSize: 0,
  };
}

export type { SystemRow } from "../schema/system_row.ts";

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
 * The date the instance's interactions carry (the first `[8 May 2023]` stamp of its traces), as
 * YYYY-MM-DD; 2025-01-01 when no unit is stamped (the demo set). Fixed per instance, so the
 * systems' prompts that print a date are the same on every run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionDateOf } from "./measure.ts";
 * const unit = { id: "u", text: "[8 May 2023] Ann: hi", channel: "user", trusted: true, verified: false, numbers: [], asserts: null };
 * assert.equal(sessionDateOf({ helpful: { units: [unit] }, risk: {} } as never), "2023-05-08");
 * ```
 */
export function sessionDateOf(instance: Pick<Instance, "helpful" | "risk">): string {
  const units = [
    ...instance.helpful.units,
    ...(instance.risk.minja?.units ?? []),
    ...(instance.risk.sleeper?.units ?? []),
  ];
  for (const u of units) {
    const m = /\[(\d{1,2}) ([A-Za-z]+),? (\d{4})\]/.exec(u.text);
    const month = m ? monthNumber(m[2]) : 0;
    if (m && month > 0) {
      return `${m[3]}-${String(month).padStart(2, "0")}-${m[1].padStart(2, "0")}`;
    }
  }
  return "2025-01-01";
}

/**
 * The key of one measured task (instance, attack, trial): what resume matches on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemTaskKey } from "./measure.ts";
 * assert.equal(systemTaskKey({ instanceId: "demo-01", attack: "minja", trial: 1 }), "demo-01:minja#1");
 * ```
 */
export function systemTaskKey(row: { instanceId: string; attack: string; trial?: number }): string {
  return `${row.instanceId}:${row.attack}#${row.trial ?? 0}`;
}

/**
 * Rows one task produces: per mode, a clean and a poisoned row per K and one no-memory row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowsPerSystemTask } from "./measure.ts";
 * assert.equal(rowsPerSystemTask({ modes: 2, ks: 4 }), 18);
 * ```
 */
export function rowsPerSystemTask(options: { modes: number; ks: number }): number {
  return options.modes * (2 * options.ks + 1);
}

/**
 * Stable ids for a mode's records: a record first seen after the write of unit U is `U#n`, n
 * counting the records that write added in order of their text. Store ids (random UUIDs in
 * Mem0 and Hindsight) never reach a row.
 */
class _StableIds {
  #ids = new Map<string, string>();
  assign(records: readonly TracedRecord[], unitId: string): void {
    const fresh = records.filter((r) => !this.#ids.has(r.storeId))
      .map((r, i) => ({ r, i })).sort((a, b) =>
        a.r.text < b.r.text ? -1 : a.r.text > b.r.text ? 1 : a.i - b.i
      );
    fresh.forEach(({ r }, n) => this.#ids.set(r.storeId, `${unitId}#${n + 1}`));
  }
  of(record: TracedRecord): string {
    return this.#ids.get(record.storeId) ?? `unlisted:${stableId([record.text])}`;
  }
}

/** What a session received in writing, per mode (unit id to canonical JSON), for checks. */
export interface SessionReceived {
  instanceId: string;
  attack: Attack;
  trial: number;
  received: Map<ManagementMode, ReadonlyMap<string, string>>;
}

/** Options of {@link measureSystem}. */
export interface MeasureSystemOptions {
  /** The system to measure. */
  system: MemorySystem;
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
  /** Independent repeats (each re-runs the system, the agent and the judge); default 1. */
  trials?: number;
  dataset: string;
  /** True when the system's endpoints are the kit's scripted stand-ins (rows say so). */
  pipelineCheck: boolean;
  /** Tasks (instance x attack x trial) run at once; default 4. Rows stay in order. */
  concurrency?: number;
  /** Which tasks to run, by {@link systemTaskKey}; default all (resume passes the missing). */
  select?: (key: string) => boolean;
  /** Called with each task's rows, in task order; default none. */
  onRows?: (rows: SystemRow[]) => void | Promise<void>;
  /** Called with what each session received in writing; default none. */
  onSession?: (received: SessionReceived) => void;
}

/**
 * Run the measurement and return its rows: per instance, attack, trial and mode, for each K a
 * clean row (background + helpful trace) and a poisoned row (+ risk trace) sharing `pairId`,
 * plus one no-memory row (U0). A failed system call makes every system row of its task an
 * error row (the no-memory rows do not depend on the system).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureSystem } from "./measure.ts";
 * const rows = await measureSystem({
 *   system: { name: "x", system: "X", version: "0", chatModel: null, embeddingModel: null, open: () => Promise.reject(new Error("unused")) },
 *   instances: [], agent: { id: "a", simulated: true, answer: () => Promise.resolve({ output: "" }) },
 *   judge: { id: "j", judge: () => Promise.resolve({ correct: false, matchesTarget: false, hedged: false }) },
 *   runId: "r", dataset: "demo", pipelineCheck: true,
 * });
 * assert.deepEqual(rows, []);
 * ```
 */
export async function measureSystem(options: MeasureSystemOptions): Promise<SystemRow[]> {
  const ks = [...new Set(options.ks ?? [1, 3, 5, 7])].sort((a, b) => a - b);
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new RangeError(`Cannot measure: every K must be an integer >= 1, got ${ks.join(",")}`);
  }
  const modes = [...new Set(options.modes ?? ["M0", "M1"])].sort() as ManagementMode[];
  const trials = options.trials ?? 1;
  const tasks: [Instance, Attack, number][] = [];
  for (const instance of options.instances) {
    for (const attack of options.attacks ?? (["minja", "sleeper"] as const)) {
      if (!instance.risk[attack]) continue;
      for (let trial = 0; trial < trials; trial++) {
        const key = systemTaskKey({ instanceId: instance.id, attack, trial });
        if (!options.select || options.select(key)) tasks.push([instance, attack, trial]);
      }
    }
  }
  const rows: SystemRow[] = [];
  await orderedPool({
    items: tasks,
    concurrency: Math.max(1, options.concurrency ?? 4),
    run: (task) => _measureOne(options, ...task, ks, modes),
    onResult: async (result) => {
      // Columns in contract order, whatever order the row was built in.
      const taskRows = result.map((r) =>
        Object.fromEntries(SYSTEM_ROW_COLUMNS.map((c) => [c, r[c]])) as SystemRow
      );
      rows.push(...taskRows);
      await options.onRows?.(taskRows);
    },
  });
  return rows;
}

function _sum(a: number | null | undefined, b: number | null | undefined): number | null {
  return a == null && b == null ? null : (a ?? 0) + (b ?? 0);
}

async function _measureOne(
  options: MeasureSystemOptions,
  instance: Instance,
  attack: Attack,
  trial: number,
  ks: number[],
  modes: ManagementMode[],
): Promise<SystemRow[]> {
  const riskTrace = instance.risk[attack]!;
  const seed = options.seed ?? 0;
  const { system } = options;
  const kMax = ks.at(-1)!;
  const units = new Map<string, _Unit>();
  let order = 0;
  const plan: { unit: SourceUnit; background: boolean; role: RecordRole; session: string }[] = [
    ...instance.background.map((r) => ({
      unit: _backgroundUnit(r),
      background: true,
      role: "background" as const,
      session: r.provenance.session,
    })),
    ...instance.helpful.units.map((unit) => ({
      unit,
      background: false,
      role: "helpful" as const,
      session: instance.helpful.session,
    })),
    ...riskTrace.units.map((unit) => ({
      unit,
      background: false,
      role: "risk" as const,
      session: riskTrace.session,
    })),
  ];
  const writtenAt = { background: 0, helpful: 1, risk: 2 };
  for (const p of plan) {
    units.set(p.unit.id, {
      unit: p.unit,
      role: p.role,
      session: p.session,
      writtenAt: writtenAt[p.role],
      order: order++,
    });
  }
  const helpfulIds = new Set(instance.helpful.units.map((u) => u.id));
  const riskIds = new Set(riskTrace.units.map((u) => u.id));

  // A record as the kit's MemoryRecord, from its traced units: role risk when any unit is from
  // the risk trace, else helpful when any is from the helpful trace, else background; `asserts`
  // is that of the most recently written asserting unit (an update carries the newer statement).
  const toMemoryRecord = (record: TracedRecord, id: string): MemoryRecord => {
    const traced = record.unitIds.map((u) => units.get(u)).filter((u): u is _Unit => !!u)
      .sort((a, b) => a.order - b.order);
    const latest = traced.at(-1);
    return {
      id,
      text: record.text || "(empty)",
      role: traced.some((u) => u.role === "risk")
        ? "risk"
        : traced.some((u) => u.role === "helpful")
        ? "helpful"
        : "background",
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
  };

  // The judge of this agent's trials (`llm:self` resolves to the agent's own model).
  const judge = options.judge.forAgent?.(options.agent) ?? options.judge;
  const base = {
    kind: "system" as const,
    runId: options.runId,
    seed,
    agent: options.agent.id,
    simulated: options.agent.simulated,
    dataset: options.dataset,
    attack,
    stage: null,
    thetaW: null,
    policy: null,
    thetaR: null,
    thetaRRisk: null,
    fill: null,
    bankSize: instance.background.length,
    ranker: null,
    traceLoad: 1,
    instanceId: instance.id,
    unitsHelpful: instance.helpful.units.length,
    unitsRisk: riskTrace.units.length,
    quarantinedIds: [],
    helpfulExposed: null,
    riskExposed: null,
    trial,
    judgeModel: judge.model ?? null,
    judgePromptHash: judge.promptHash ?? null,
    judgeScope: judge.scope ?? "answer",
    memoryPlacement: options.agent.memoryPlacement ?? null,
    system: system.system,
    systemVersion: system.version,
    systemModel: system.chatModel,
    embeddingModel: system.embeddingModel,
    pipelineCheck: options.pipelineCheck,
  };
  const answer = async (condition: Condition, context: MemoryRecord[], pairId: string) => {
    const started = performance.now();
    try {
      const out = await options.agent.answer({
        instance,
        context,
        condition,
        pairId,
        seed,
        ...(trial !== 0 && { trial }),
      });
      const verdict = await judge.judge({
        instance,
        output: out.output,
        reasoning: out.reasoning ?? null,
        trajectory: out.trajectory,
        ...(trial !== 0 && { trial }),
      });
      let usage: ModelUsage | undefined = out.usage;
      if (verdict.usage) {
        usage = {
          cacheHit: (usage?.cacheHit ?? true) && verdict.usage.cacheHit,
          promptTokens: _sum(usage?.promptTokens, verdict.usage.promptTokens),
          completionTokens: _sum(usage?.completionTokens, verdict.usage.completionTokens),
        };
      }
      return {
        output: out.output,
        correct: verdict.correct,
        matchesTarget: verdict.matchesTarget,
        hedged: verdict.hedged ?? null,
        error: null,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
        cacheHit: usage?.cacheHit ?? null,
        promptTokens: usage?.promptTokens ?? null,
        completionTokens: usage?.completionTokens ?? null,
        reasoning: out.reasoning ?? null,
        stopReason: out.stopReason ?? null,
      };
    } catch (e) {
      return errorOutcome({ error: e });
    }
  };
  const pairIdOf = (mode: ManagementMode, k: number | "nomemory") =>
    `${instance.id}:${attack}:${mode}:${k === "nomemory" ? k : `k${k}`}`;

  const noMemory = async (mode: ManagementMode): Promise<SystemRow> => {
    const pairId = pairIdOf(mode, "nomemory");
    return {
      ...base,
      k: ks[0],
      pairId,
      condition: "nomemory",
      ..._nothingRetrieved(),
      ...(await answer("nomemory", [], pairId)),
      management: mode,
      rsrHit: null,
      traceHit: null,
    };
  };

  let session: SystemSession | null = null;
  try {
    const fingerprint = stableId([
      system.name,
      system.version,
      system.chatModel,
      system.embeddingModel,
      modes,
      kMax,
      instance.query,
      plan.map((p) => [p.unit.id, p.unit.text, p.unit.channel, p.background]),
    ]);
    session = await system.open({
      scope: `${options.runId}-${instance.id}-${attack}-t${trial}`.replace(/[^A-Za-z0-9_-]/g, "_"),
      modes,
      seed,
      trial,
      sessionDate: sessionDateOf(instance),
      fingerprint,
    });
    const ids = new Map(modes.map((m) => [m, new _StableIds()]));
    const latest = new Map<ManagementMode, TracedRecord[]>();
    const write = async (p: (typeof plan)[number]) => {
      await session!.write({
        unit: { id: p.unit.id, text: p.unit.text, channel: p.unit.channel },
        background: p.background,
      });
      for (const mode of modes) {
        const records = await session!.records({ mode });
        ids.get(mode)!.assign(records, p.unit.id);
        latest.set(mode, records);
      }
    };
    // WR's two counts for a trace in a mode: units some live record traces to, and units whose
    // information those records still state (`informationRetained`, one rule for every system).
    const retained = (mode: ManagementMode, trace: Set<string>) => {
      const live = latest.get(mode) ?? [];
      let traced = 0, informed = 0;
      for (const id of trace) {
        const texts = live.filter((r) => r.unitIds.includes(id)).map((r) => r.text);
        if (texts.length > 0) traced++;
        if (informationRetained({ unit: units.get(id)!.unit, records: texts })) informed++;
      }
      return { traced, retained: informed };
    };
    // The context at K: the system's ranking with what its search appends after each hit
    // (A-MEM's linked notes), cut at K records, so every mode and system holds the same budget.
    const contextAt = (mode: ManagementMode, hits: TracedRecord[], k: number) => {
      const seen = new Set<string>();
      const out: MemoryRecord[] = [];
      for (const hit of hits) {
        for (const r of [hit, ...(hit.linked ?? [])]) {
          if (out.length === k) return out;
          if (seen.has(r.storeId)) continue;
          seen.add(r.storeId);
          out.push(toMemoryRecord(r, ids.get(mode)!.of(r)));
        }
      }
      return out;
    };
    const search = async () =>
      new Map(
        await Promise.all(modes.map(async (mode) =>
          [
            mode,
            (await session!.search({ mode, query: instance.query, k: kMax })).slice(0, kMax),
          ] as const
        )),
      );

    for (const p of plan.filter((p) => p.role !== "risk")) await write(p);
    const cleanHits = await search();
    const helpfulClean = new Map(modes.map((m) => [m, retained(m, helpfulIds)]));
    for (const p of plan.filter((p) => p.role === "risk")) await write(p);
    const poisonedHits = await search();
    const helpfulPoisoned = new Map(modes.map((m) => [m, retained(m, helpfulIds)]));
    const riskPoisoned = new Map(modes.map((m) => [m, retained(m, riskIds)]));
    options.onSession?.({
      instanceId: instance.id,
      attack,
      trial,
      received: new Map(modes.map((m) => [m, session!.received({ mode: m })])),
    });

    // The server's version and models, where the system reports them (Hindsight).
    const described = await session.describe?.();
    const about = {
      ...(described?.systemVersion !== undefined && { systemVersion: described.systemVersion }),
      ...(described?.systemModel !== undefined && { systemModel: described.systemModel }),
      ...(described?.embeddingModel !== undefined &&
        { embeddingModel: described.embeddingModel }),
    };
    const rows: SystemRow[] = [];
    for (const mode of modes) {
      for (const k of ks) {
        const pairId = pairIdOf(mode, k);
        for (const condition of ["clean", "poisoned"] as const) {
          const context = contextAt(
            mode,
            (condition === "clean" ? cleanHits : poisonedHits).get(mode)!,
            k,
          );
          rows.push({
            ...base,
            ...about,
            k,
            pairId,
            condition,
            admittedHelpful: (condition === "clean" ? helpfulClean : helpfulPoisoned).get(mode)!
              .retained,
            admittedRisk: condition === "clean" ? 0 : riskPoisoned.get(mode)!.retained,
            tracedHelpful: (condition === "clean" ? helpfulClean : helpfulPoisoned).get(mode)!
              .traced,
            tracedRisk: condition === "clean" ? 0 : riskPoisoned.get(mode)!.traced,
            helpfulInContext: context.some((r) => r.sourceUnitIds.some((u) => helpfulIds.has(u))),
            riskInContext: context.some((r) => r.sourceUnitIds.some((u) => riskIds.has(u))),
            contextIds: context.map((r) => r.id),
            contextSize: context.length,
            ...(await answer(condition, context, pairId)),
            management: mode,
            ...rsrHits({ instance, attack, condition, context }),
          });
        }
      }
      rows.push({ ...await noMemory(mode), ...about });
    }
    return rows;
  } catch (e) {
    // A failed system call fails every system row of this task: error rows, never wrong answers.
    const rows: SystemRow[] = [];
    for (const mode of modes) {
      for (const k of ks) {
        for (const condition of ["clean", "poisoned"] as const) {
          rows.push(errorRow({
            columns: SYSTEM_ROW_COLUMNS,
            row: {
              ...base,
              k,
              pairId: pairIdOf(mode, k),
              condition,
              ..._nothingRetrieved(),
              management: mode,
              rsrHit: null,
              traceHit: null,
            },
            error: e,
          }) as SystemRow);
        }
      }
      rows.push(await noMemory(mode));
    }
    return rows;
  } finally {
    await session?.close();
  }
}
