/** Summaries of a built dataset for `deno task data --stats`. */
import type { Channel } from "../schema/source_unit.ts";
import type { Instance } from "../schema/instance.ts";
import { matchesAnswer } from "../text/matches.ts";
import type { BuiltDataset } from "./build_instances.ts";
import { containsQuery } from "./helpful_trace.ts";

/** Min, mean and max of a list of counts. */
export interface CountSummary {
  min: number;
  mean: number;
  max: number;
}

/**
 * What the background banks are made of, over every record of every instance: the share of
 * records with each channel among their sources, the share trusted, verified, and stating at
 * least one keyed number. Shares are in [0, 1], rounded to three decimals.
 */
export interface BankComposition {
  records: number;
  channels: Record<Channel, number>;
  trusted: number;
  verified: number;
  statingNumbers: number;
}

/** What `--stats` prints per dataset. */
export interface DatasetStats {
  instances: number;
  categories: Record<string, number>;
  /** Each stratum's quota in the benchmark's own mix (empty for older builds). */
  quotas: Record<string, number>;
  answerKinds: Record<string, number>;
  /** Share of instances of each answer kind, rounded to three decimals. */
  answerKindShares: Record<string, number>;
  /** The answer kinds the benchmark's own mix asks for (the strata's kind quotas summed). */
  answerKindQuotas: Record<string, number>;
  /** How the evidence supports y* (`evidenceSupport`), per kind of support. */
  support: Record<string, number>;
  /**
   * Helpful traces in which y* is stated only by kit-written units (an opening line, a recap):
   * 0 by construction, since the kit never writes y* unless it quotes evidence stating it.
   */
  yStarOnlyKitWritten: number;
  /** Helpful traces in which no unit states y*: the agent has to work it out. */
  yStarNotStated: number;
  /**
   * Helpful traces that end with the user confirming the assistant's recap of an evidence
   * sentence: the verified outcomes strict conflict resolution knows.
   */
  confirmed: number;
  /** Risk traces (any attack) with a unit that repeats the test query verbatim. */
  riskRepeatingQuery: Record<string, number>;
  targetKinds: Record<string, number>;
  sleeperStyles: Record<string, number>;
  unitsHelpful: CountSummary;
  unitsMinja: CountSummary;
  unitsSleeper: CountSummary;
  bankSize: CountSummary;
  bank: BankComposition;
  skipped: Record<string, number>;
}

function _tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function _summary(values: number[]): CountSummary {
  if (values.length === 0) return { min: 0, mean: 0, max: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { min: Math.min(...values), mean: Math.round(mean * 10) / 10, max: Math.max(...values) };
}

/** Who states y* in the helpful trace: only kit-written units, no unit, or the dataset's. */
function _stating(instance: Instance): { only: "kit" | "none" | "dataset" } {
  const stating = instance.helpful.units.filter((u) => matchesAnswer(u.text, instance.answer));
  if (stating.length === 0) return { only: "none" };
  return { only: stating.every((u) => u.origin === "kit") ? "kit" : "dataset" };
}

const _share = (n: number, of: number) => of === 0 ? 0 : Math.round((n / of) * 1000) / 1000;

/**
 * Count instances, strata, answer and target kinds, units per trace, bank sizes, the banks'
 * composition (`BankComposition`) and the questions skipped, by reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetStats } from "./dataset_stats.ts";
 * const bg = { id: "b", text: "Ann: I have 2 cats.", role: "background" as const, sourceUnitIds: [], asserts: null,
 *   numbers: [{ key: "ann:cat", value: 2 }], provenance: { session: "s", channels: ["user" as const, "tool" as const], trusted: false, verified: false, writtenAt: 0 } };
 * const unit = { id: "u", text: "x", channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null };
 * const instance = { id: "i", dataset: "d", category: "c", query: "q?", answer: "a", target: "b", answerKind: "entity" as const,
 *   background: [bg], helpful: { id: "h", session: "s", kind: "helpful" as const, units: [unit] }, risk: {} };
 * const stats = datasetStats({ built: { instances: [instance], targetKinds: {}, sleeperStyles: {}, skipped: {} } });
 * assert.deepEqual(stats.bank, { records: 1, channels: { user: 1, assistant: 0, tool: 1 }, trusted: 0, verified: 0, statingNumbers: 1 });
 * ```
 */
export function datasetStats(options: { built: BuiltDataset }): DatasetStats {
  const { instances, targetKinds, sleeperStyles, skipped } = options.built;
  const kinds = _tally(instances.map((i) => i.answerKind));
  const records = instances.flatMap((i) => i.background);
  const withChannel = (c: Channel) => records.filter((r) => r.provenance.channels.includes(c));
  return {
    instances: instances.length,
    categories: _tally(instances.map((i) => i.category)),
    quotas: options.built.quotas ?? {},
    answerKinds: kinds,
    answerKindShares: Object.fromEntries(
      Object.entries(kinds).map(([k, n]) => [k, _share(n, instances.length)]),
    ),
    answerKindQuotas: Object.values(options.built.kindQuotas ?? {}).reduce(
      (sum, q) => {
        for (const [k, n] of Object.entries(q)) sum[k] = (sum[k] ?? 0) + n;
        return sum;
      },
      {} as Record<string, number>,
    ),
    support: _tally(Object.values(options.built.support ?? {})),
    yStarOnlyKitWritten: instances.filter((i) => _stating(i).only === "kit").length,
    yStarNotStated: instances.filter((i) => _stating(i).only === "none").length,
    confirmed: instances.filter((i) => i.helpful.units.some((u) => u.verified)).length,
    riskRepeatingQuery: Object.fromEntries(
      ["minja", "sleeper"].map((attack) => [
        attack,
        instances.filter((i) =>
          i.risk[attack as "minja" | "sleeper"]?.units.some((u) => containsQuery(u.text, i.query))
        ).length,
      ]),
    ),
    targetKinds: _tally(Object.values(targetKinds)),
    sleeperStyles: _tally(Object.values(sleeperStyles)),
    unitsHelpful: _summary(instances.map((i) => i.helpful.units.length)),
    unitsMinja: _summary(instances.map((i) => i.risk.minja?.units.length ?? 0)),
    unitsSleeper: _summary(instances.map((i) => i.risk.sleeper?.units.length ?? 0)),
    bankSize: _summary(instances.map((i) => i.background.length)),
    bank: {
      records: records.length,
      channels: {
        user: _share(withChannel("user").length, records.length),
        assistant: _share(withChannel("assistant").length, records.length),
        tool: _share(withChannel("tool").length, records.length),
      },
      trusted: _share(records.filter((r) => r.provenance.trusted).length, records.length),
      verified: _share(records.filter((r) => r.provenance.verified).length, records.length),
      statingNumbers: _share(records.filter((r) => r.numbers.length > 0).length, records.length),
    },
    skipped,
  };
}
