/**
 * One instance through every stage of one paired trial, each step as a table a notebook shows:
 * the traces with each unit's rank, the admitted prefix at several θw, the records written with
 * their provenance, each policy's quarantine, the clean and poisoned contexts side by side with
 * the risk slot marked, the agent's reading, the judge's verdicts and the pair's MID. The rows
 * come from `runPair`, the function every sweep calls, so the walk-through is the pipeline.
 */
import pl from "nodejs-polars";
import type { Agent } from "../agents/agent.ts";
import { deterministicJudge } from "../judges/deterministic_judge.ts";
import type { Judge } from "../judges/judge.ts";
import { type DisplayTable, displayTable } from "../figures/display_table.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { MemoryRecord } from "../schema/memory_record.ts";
import { type OperatingPoint, PAPER_DEFAULTS } from "../schema/operating_point.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { runPair } from "../run/run_pair.ts";
import {
  failedPairTrajectory,
  type PairCapture,
  pairTrajectory,
} from "../run/trajectory_capture.ts";
import { sweepResources } from "../run/sweep_resources.ts";
import { POLICIES } from "../stages/management/policies.ts";
import { memoryState } from "../stages/management/memory_state.ts";
import { pairContexts } from "../stages/retrieval/pair_contexts.ts";
import { admit } from "../stages/writing/admit.ts";
import { writeTraceRecord } from "../stages/writing/write_trace_record.ts";
import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";
import type { Writer } from "../stages/writing/writer.ts";

/** Every step of one pair, as tables. */
export interface Anatomy {
  instance: Instance;
  attack: Attack;
  point: OperatingPoint;
  /** Helpful and risk units in trace order with the ranker's rank of each (1 = first admitted). */
  traces: DisplayTable;
  /** At each θw: how many units each trace admits, and whether the answer-stating unit is in. */
  prefixes: DisplayTable;
  /** The helpful and risk records written at the operating point, with provenance. */
  records: DisplayTable;
  /** What each policy quarantines in the clean and the poisoned state. */
  quarantine: DisplayTable;
  /** The K slots of the clean and the poisoned context; the risk slot is marked. */
  contexts: DisplayTable;
  /** The agent's reading of each context (the reference agent's trajectory, or a model's output). */
  reading: DisplayTable;
  /** Output, judge verdicts and the pair's contribution to MID. */
  verdicts: DisplayTable;
  /** The pair's two rows, exactly as a sweep writes them. */
  rows: TrialRow[];
  /** The pair's trajectory, the line a sweep writes to its sidecar (`mg.explore` shows it). */
  trajectory: PairTrajectory;
}

/** Cells longer than this open in full on a click (HTML) and are cut with "…" (text). */
const _CLIP = 100;

/** A frame whose count columns are integers, so tables print "rank 1", not "rank 1.000". */
function _frame(records: Record<string, unknown>[], counts: readonly string[]): pl.DataFrame {
  return pl.readRecords(records).withColumns(...counts.map((c) => pl.col(c).cast(pl.Int32)));
}

function _records(records: readonly MemoryRecord[]): pl.DataFrame {
  return _frame(
    records.map((r) => ({
      id: r.id,
      role: r.role,
      channels: r.provenance.channels.join("+"),
      trusted: r.provenance.trusted,
      verified: r.provenance.verified,
      session: r.provenance.session,
      units: r.sourceUnitIds.length,
      asserts: r.asserts ?? "",
      text: r.text,
    })),
    ["units"],
  );
}

/**
 * Walk one instance through one paired trial.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAgent } from "../agents/reference_agent.ts";
 * import { loadDataset } from "../data/datasets.ts";
 * import { anatomy } from "./anatomy.ts";
 * const [instance] = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
 * const a = await anatomy({ instance, attack: "minja", agent: referenceAgent({ persona: "balanced" }) });
 * assert.equal(a.rows.length, 2);
 * assert.equal(a.contexts.frame.height, 5); // K slots
 * assert.deepEqual(a.contexts.frame.getColumn("clean").toArray().length, 5);
 * ```
 */
export async function anatomy(options: {
  /** The instance. */
  instance: Instance;
  /** The attack whose risk trace poisons memory. */
  attack: Attack;
  /** The agent `F`. */
  agent: Agent;
  /** The operating point (θw, policy, θr, K, fill, ranker); default the paper's, ranker usefulness. */
  point?: Partial<Omit<OperatingPoint, "stage">>;
  /** Coverage levels whose admitted prefixes are shown; default 0.2, 0.6, 1. */
  thetaWs?: readonly number[];
  /** Exposure draws a+ and a-; default both exposed, so both records reach the context. */
  helpfulExposed?: boolean;
  riskExposed?: boolean;
  /** Judge; default the deterministic matcher. */
  judge?: Judge;
  /** Writer; default verbatim. */
  writer?: Writer;
  /** Seed; default 0. */
  seed?: number;
}): Promise<Anatomy> {
  const { instance, attack, agent } = options;
  const seed = options.seed ?? 0;
  const judge = options.judge ?? deterministicJudge;
  const riskTrace = instance.risk[attack];
  if (!riskTrace) throw new RangeError(`anatomy: instance ${instance.id} has no ${attack} trace`);
  const point: OperatingPoint = {
    ...PAPER_DEFAULTS,
    ranker: agent.simulated ? "usefulness" : PAPER_DEFAULTS.ranker,
    bankSize: instance.background.length,
    ...options.point,
    stage: "retrieval",
  };
  const resources = sweepResources({ judge, writer: options.writer ?? verbatimWriter });
  const ranker = resources.ranker(point.ranker, agent);
  const rankings = {
    helpful: await resources.ranking(ranker, instance.helpful, seed),
    risk: await resources.ranking(ranker, riskTrace, seed),
  };

  const traces = displayTable({
    title: `Traces of ${instance.id}: units in trace order, rank by the ${point.ranker} ranker`,
    frame: _frame(
      ([["helpful", instance.helpful], [attack, riskTrace]] as const).flatMap(([name, trace]) =>
        trace.units.map((u, i) => ({
          trace: name,
          order: i + 1,
          rank: (name === "helpful" ? rankings.helpful : rankings.risk).indexOf(u.id) + 1,
          channel: u.channel,
          trusted: u.trusted,
          verified: u.verified,
          asserts: u.asserts ?? "",
          text: u.text,
        }))
      ),
      ["order", "rank"],
    ),
    caption: "rank 1 is admitted first; a unit that asserts y* (helpful) or y_adv (risk) names " +
      "it. A long text opens in full on a click.",
    clip: _CLIP,
  });

  const firstStating = (ranking: readonly string[], units: Instance["helpful"]["units"]) => {
    const i = ranking.findIndex((id) => units.find((u) => u.id === id)?.asserts);
    return i === -1 ? null : i + 1;
  };
  const prefixes = displayTable({
    title: "Admitted prefix b = ceil(θw·|Z|) of each trace",
    frame: _frame(
      (options.thetaWs ?? [0.2, 0.6, 1]).flatMap((theta) =>
        ([["helpful", instance.helpful, rankings.helpful], [
          attack,
          riskTrace,
          rankings.risk,
        ]] as const)
          .map(([name, trace, ranking]) => {
            const admitted = admit({ ranking, theta });
            const first = firstStating(ranking, trace.units);
            return {
              "θw": String(theta),
              trace: name,
              "|Z|": trace.units.length,
              b: admitted.length,
              "first answer-stating unit at rank": first === null ? "none" : String(first),
              "admits it": first !== null && first <= admitted.length,
            };
          })
      ),
      ["|Z|", "b"],
    ),
  });

  const admittedHelpful = admit({ ranking: rankings.helpful, theta: point.thetaW });
  const admittedRisk = admit({ ranking: rankings.risk, theta: point.thetaW });
  const helpful = await writeTraceRecord({
    trace: instance.helpful,
    admitted: admittedHelpful,
    cache: resources.writes,
  });
  const risk = await writeTraceRecord({
    trace: riskTrace,
    admitted: admittedRisk,
    cache: resources.writes,
  });
  const records = displayTable({
    title:
      `Records written at θw = ${point.thetaW} (one per trace), then the first background records`,
    frame: _records([
      ...(helpful ? [helpful] : []),
      ...(risk ? [risk] : []),
      ...instance.background.slice(0, 3),
    ]),
    caption:
      `|B| = ${instance.background.length} background records in all; provenance is the kit's own. A long text opens in full on a click.`,
    clip: _CLIP,
  });

  const memoryClean = helpful ? [...instance.background, helpful] : [...instance.background];
  const memoryPoisoned = risk ? [...memoryClean, risk] : memoryClean;
  const states = {
    clean: memoryState({ records: memoryClean, traces: [instance.helpful] }),
    poisoned: memoryState({ records: memoryPoisoned, traces: [instance.helpful, riskTrace] }),
  };
  const quarantine = displayTable({
    title: "What each policy quarantines (excluded from retrieval, memory otherwise unchanged)",
    frame: _frame(
      POLICIES.ids().flatMap((id) =>
        (["clean", "poisoned"] as const).map((condition) => {
          const { quarantined } = resources.policy(id).apply(states[condition]);
          const count = (role: string) => quarantined.filter((r) => r.role === role).length;
          return {
            policy: id,
            condition,
            quarantined: quarantined.length,
            helpful: count("helpful"),
            risk: count("risk"),
            background: count("background"),
          };
        })
      ),
      ["quarantined", "helpful", "risk", "background"],
    ),
  });

  const policy = resources.policy(point.policy);
  const kept = {
    clean: new Set(policy.apply(states.clean).kept.map((r) => r.id)),
    poisoned: new Set(policy.apply(states.poisoned).kept.map((r) => r.id)),
  };
  const order = resources.fillOrder(instance, point.fill, seed);
  const helpfulExposed = options.helpfulExposed ?? true;
  const riskExposed = options.riskExposed ?? true;
  const contexts = pairContexts({
    k: point.k,
    helpful: helpful && kept.clean.has(helpful.id) && kept.poisoned.has(helpful.id)
      ? helpful
      : null,
    risk: risk && kept.poisoned.has(risk.id) ? risk : null,
    helpfulExposed,
    riskExposed,
    cleanFill: order.filter((r) => kept.clean.has(r.id)),
    poisonedFill: order.filter((r) => kept.poisoned.has(r.id)),
    seed,
    drawKey: instance.id,
  });
  const label = (r: MemoryRecord | undefined) => r ? `[${r.role}] ${r.text}` : "";
  const contextTable = displayTable({
    title: `Contexts at ${point.policy}, K = ${point.k}, ${point.fill} fill, a+ = ${
      Number(helpfulExposed)
    }, a- = ${Number(riskExposed)}`,
    frame: _frame(
      Array.from({ length: point.k }, (_, i) => ({
        slot: i + 1,
        clean: label(contexts.clean[i]),
        poisoned: label(contexts.poisoned[i]),
        "": contexts.clean[i]?.id !== contexts.poisoned[i]?.id ? "◀ risk slot" : "",
      })),
      ["slot"],
    ),
    caption:
      "Both contexts hold exactly K records and differ only where the risk record replaced a background record. A long text opens in full on a click.",
    clip: 70,
  });

  let captured: PairCapture | undefined;
  const rows = await runPair({
    capture: (c) => void (captured = c),
    runId: "anatomy",
    seed,
    dataset: "anatomy",
    attack,
    point,
    instance,
    agent,
    pairId: `anatomy:${instance.id}:${attack}`,
    helpfulExposed,
    riskExposed,
  }, resources);

  const readings = await Promise.all((["clean", "poisoned"] as const).map(async (condition) => {
    const answer = await agent.answer({
      instance,
      context: condition === "clean" ? contexts.clean : contexts.poisoned,
      condition,
      pairId: `anatomy:${instance.id}:${attack}`,
      seed,
    });
    return { condition, answer };
  }));
  const reading = displayTable({
    title: `How ${agent.id} read each context`,
    frame: pl.readRecords(readings.flatMap(({ condition, answer }) => {
      const t = answer.trajectory as {
        records?: { id: string; read: boolean; readChance?: number; offers?: string | null }[];
        values?: {
          value: string;
          evidence: number;
          count: number;
          beliefChance: number;
          believed: boolean;
        }[];
      } | undefined;
      if (t?.values) {
        return [
          ...(t.records ?? []).map((r) => ({
            condition,
            step: "record",
            what: r.id,
            detail: `${r.read ? "read" : "skipped"}${
              r.readChance !== undefined ? ` (chance ${r.readChance.toFixed(2)})` : ""
            }${r.offers ? `, ${r.offers}` : ""}`,
          })),
          ...t.values.map((v) => ({
            condition,
            step: "value",
            what: v.value,
            detail: `evidence ${v.evidence.toFixed(2)} from ${v.count}, belief chance ${
              v.beliefChance.toFixed(2)
            }, ${v.believed ? "believed" : "not believed"}`,
          })),
          { condition, step: "answer", what: answer.output, detail: "" },
        ];
      }
      return [{ condition, step: "answer", what: answer.output, detail: "(no trajectory)" }];
    })),
  });

  const [clean, poisoned] = rows;
  const hit = (b: boolean | null) => (b ? 1 : 0);
  const verdicts = displayTable({
    title: `Judge (${judge.id}) and the pair's MID contributions`,
    frame: pl.readRecords([
      ...rows.map((r) => ({
        condition: r.condition,
        output: r.output ?? `error: ${r.error}`,
        correct: r.correct,
        matchesTarget: r.matchesTarget,
      })),
      {
        condition: "MID (this pair)",
        output: `MID_asr term ${hit(poisoned.matchesTarget) - hit(clean.matchesTarget)}, ` +
          `MID_utility term ${hit(clean.correct) - hit(poisoned.correct)}`,
        correct: null,
        matchesTarget: null,
      },
    ]),
    caption: `y* = ${instance.answer}; y_adv = ${instance.target}.`,
  });
  return {
    instance,
    attack,
    point,
    traces,
    prefixes,
    records,
    quarantine,
    contexts: contextTable,
    reading,
    verdicts,
    rows,
    // A pair whose writing failed has error rows and no capture: its line says so.
    trajectory: captured
      ? pairTrajectory({ capture: captured })
      : failedPairTrajectory({ instance, rows }),
  };
}
