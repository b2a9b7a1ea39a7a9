/** Shared, cached resources of a sweep: rankings, unit writes, fill orders, policies, judge. */
import type { Agent } from "../agents/agent.ts";
import type { Judge } from "../judges/judge.ts";
import type { Instance } from "../schema/instance.ts";
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { Trace } from "../schema/trace.ts";
import type { ManagementPolicy } from "../stages/management/policy.ts";
import { resolvePolicy } from "../stages/management/policies.ts";
import { type FillMode, fillOrder } from "../stages/retrieval/fill_order.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import { RANKERS } from "../stages/writing/rankers.ts";
import { WriteOnceCache } from "../stages/writing/write_once_cache.ts";
import type { Writer } from "../stages/writing/writer.ts";

/** Caches that make a sweep rank each trace once and write each unit once. */
export interface SweepResources {
  judge: Judge;
  writes: WriteOnceCache;
  /** Write every unit of a trace while its ranking is pending (batch export); default false. */
  writeAhead: boolean;
  /** The ranker for an id; `agent` lets a factory build the agent's own ranker (`llm:self`). */
  ranker(id: string, agent?: Agent): Ranker;
  ranking(ranker: Ranker, trace: Trace, seed: number): Promise<string[]>;
  policy(id: string): ManagementPolicy;
  fillOrder(instance: Instance, mode: FillMode, seed: number): MemoryRecord[];
}

/**
 * Create the shared resources of a sweep.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deterministicJudge } from "../judges/deterministic_judge.ts";
 * import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";
 * import { loadDemo } from "../data/demo.ts";
 * import { sweepResources } from "./sweep_resources.ts";
 * const resources = sweepResources({ judge: deterministicJudge, writer: verbatimWriter });
 * const [instance] = await loadDemo({ seed: 0, bankSize: 4, traceLoad: 1, dataDir: "" });
 * // A trace is ranked once per ranker and seed: every pair of the sweep shares the promise.
 * const ranker = resources.ranker("chronological");
 * const ranking = resources.ranking(ranker, instance.helpful, 7);
 * assert.equal(resources.ranking(ranker, instance.helpful, 7), ranking);
 * assert.deepEqual(await ranking, instance.helpful.units.map((u) => u.id));
 * assert.throws(() => resources.ranker("oracle"), /unknown ranker "oracle" \(expected one of usefulness/);
 * assert.equal(resources.policy("NC").id, "NC");
 * ```
 */
export function sweepResources(options: {
  /** The judge; the deterministic matcher offline. */
  judge: Judge;
  /** The writer `W`. */
  writer: Writer;
  /** Rankers by id besides the registered ones (`RANKERS`); default none. */
  rankers?: Readonly<Record<string, Ranker>>;
  /** Builds rankers not in `rankers` (e.g. `llm:self`, `llm:MODEL`); default none. */
  rankerFactory?: (id: string, agent: Agent | undefined) => Ranker | undefined;
  /**
   * Write every unit of a trace without waiting for its ranking, so ranking and writing are
   * one batch round; costs extra writes only when no operating point admits every unit.
   * Default false.
   */
  writeAhead?: boolean;
}): SweepResources {
  const rankers = {
    ...Object.fromEntries(RANKERS.entries().map((e) => [e.id, e.value])),
    ...options.rankers,
  };
  const rankings = new Map<string, Promise<string[]>>();
  const fills = new Map<string, MemoryRecord[]>();
  return {
    judge: options.judge,
    writes: new WriteOnceCache({ writer: options.writer }),
    writeAhead: options.writeAhead ?? false,
    ranker(id, agent) {
      const ranker = rankers[id] ?? options.rankerFactory?.(id, agent);
      if (!ranker) {
        throw new RangeError(
          `ranker: unknown ranker ${JSON.stringify(id)} (expected one of ${
            Object.keys(rankers).join(", ")
          })`,
        );
      }
      return ranker;
    },
    ranking(ranker, trace, seed) {
      const key = JSON.stringify([ranker.id, trace.id, seed]);
      let ranking = rankings.get(key);
      if (!ranking) {
        ranking = ranker.rank(trace, { seed }).then((ids) => {
          const expected = new Set(trace.units.map((u) => u.id));
          if (ids.length !== expected.size || !ids.every((id) => expected.delete(id))) {
            throw new RangeError(
              `ranker ${ranker.id}: ranking of ${trace.id} is not a permutation of its units`,
            );
          }
          return ids;
        });
        ranking.catch(() => rankings.delete(key));
        rankings.set(key, ranking);
      }
      return ranking;
    },
    policy: (id) => resolvePolicy({ id }),
    fillOrder(instance, mode, seed) {
      const key = JSON.stringify([instance.id, instance.background.length, mode, seed]);
      let order = fills.get(key);
      if (!order) {
        order = fillOrder({ instance, mode, seed });
        fills.set(key, order);
      }
      return order;
    },
  };
}
