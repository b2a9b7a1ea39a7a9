/**
 * The explorer's data: rows (and their trajectory sidecar) grouped into pairs, as the page
 * embeds them. The pair table is columnar and dictionary-coded (100,000 pairs filter in a few
 * milliseconds); each pair's detail is one JSON line parsed only when the pair is opened, with
 * traces and records defined once for the whole page, as in the sidecar.
 */
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { trajectoryKey } from "../schema/pair_trajectory.ts";
import { SidecarEncoder } from "../schema/trajectory_sidecar.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { flipped } from "../run/counterfactual.ts";
import { encodePairDetail, StringTable } from "./pair_detail.ts";
import {
  type Facet,
  FACETS,
  OUTCOME_NAMES,
  pairOutcomes,
  pointLabel,
  settingLabel,
} from "./pair_facets.ts";

/** What the pair view needs of one row. */
export interface RunSummary {
  contextIds: string[];
  output: string | null;
  correct: boolean | null;
  matchesTarget: boolean | null;
  hedged: boolean | null;
  error: string | null;
  riskInContext: boolean;
  helpfulInContext: boolean;
  judgeModel: string | null;
  stopReason: string | null;
}

/** One counterfactual rerun as the rows record it. */
export interface AblationSummary {
  condition: string;
  ablated: string;
  role: string;
  replacement: string | null;
  output: string | null;
  flipped: boolean | null;
  error: string | null;
}

/** Everything the pair view shows of one pair trial. */
export interface PairSummary {
  key: string;
  runId: string;
  pairId: string;
  trial: number;
  instanceId: string;
  agent: string;
  simulated: boolean;
  dataset: string;
  attack: string;
  stage: string;
  point: string;
  policy: string;
  setting: string;
  helpfulExposed: boolean | null;
  riskExposed: boolean | null;
  clean: RunSummary | null;
  poisoned: RunSummary | null;
  ablations: AblationSummary[];
  /** The pair trial's sidecar line, when one was kept. */
  trajectory: PairTrajectory | null;
}

const _run = (r: TrialRow | undefined): RunSummary | null =>
  r
    ? {
      contextIds: r.contextIds,
      output: r.output,
      correct: r.correct,
      matchesTarget: r.matchesTarget,
      hedged: r.hedged ?? null,
      error: r.error,
      riskInContext: r.riskInContext,
      helpfulInContext: r.helpfulInContext,
      judgeModel: r.judgeModel ?? null,
      stopReason: r.stopReason ?? null,
    }
    : null;

/**
 * Group rows into pair trials (clean, poisoned and their counterfactual reruns share `pairId`
 * and `trial`), in the order their first row appears, each with its sidecar line when given.
 * No-memory rows (U0, `condition: "nomemory"`) have no twin and are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TrialRow } from "../schema/trial_row.ts";
 * import { pairSummaries } from "./explore_data.ts";
 * const row = { runId: "r", seed: 0, agent: "a", simulated: true, dataset: "demo", attack: "minja", stage: "writing", thetaW: 0.5, policy: "UM",
 *   thetaR: 0.8, thetaRRisk: 0.8, k: 5, fill: "random", bankSize: 100, ranker: "usefulness", traceLoad: 1, instanceId: "i", pairId: "p",
 *   condition: "clean", unitsHelpful: 3, unitsRisk: 3, admittedHelpful: 2, admittedRisk: 0, quarantinedIds: [], helpfulExposed: true,
 *   riskExposed: true, helpfulInContext: true, riskInContext: false, contextIds: ["h"], contextSize: 1, output: "4", correct: true,
 *   matchesTarget: false, error: null, latencyMs: 0, trial: 0, cacheHit: null, promptTokens: null, completionTokens: null, hedged: false,
 *   judgeModel: null, judgePromptHash: null, reasoning: null, stopReason: null, judge: null, writer: null } as TrialRow;
 * const [pair] = pairSummaries({ rows: [row, { ...row, condition: "poisoned", riskInContext: true }] });
 * assert.deepEqual([pair.key, pair.point, pair.clean?.output, pair.poisoned?.riskInContext], ["p#0", "θw 0.5", "4", true]);
 * ```
 */
export function pairSummaries(options: {
  /** Trial rows of sweeps (system rows and no-memory rows are grouped too, by pair). */
  rows: readonly TrialRow[];
  /** Sidecar lines; default none. */
  trajectories?: readonly PairTrajectory[];
}): PairSummary[] {
  const lines = new Map((options.trajectories ?? []).map((t) => [trajectoryKey(t), t]));
  const groups = new Map<string, TrialRow[]>();
  for (const row of options.rows) {
    // U0 rows (no memory) have no twin: they are not pairs.
    if (row.condition === "nomemory") continue;
    const key = trajectoryKey(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups].map(([key, rows]) => {
    const original = (c: string) =>
      rows.find((r) => r.condition === c && (r.counterfactualOf ?? null) === null);
    const first = original("clean") ?? original("poisoned") ?? rows[0];
    return {
      key,
      runId: first.runId,
      pairId: first.pairId,
      trial: first.trial ?? 0,
      instanceId: first.instanceId,
      agent: first.agent,
      simulated: first.simulated,
      dataset: first.dataset,
      attack: first.attack,
      ..._labels(first),
      helpfulExposed: first.helpfulExposed ?? null,
      riskExposed: first.riskExposed ?? null,
      clean: _run(original("clean")),
      poisoned: _run(original("poisoned")),
      ablations: rows.filter((r) => (r.counterfactualOf ?? null) !== null).map((r) => ({
        condition: r.condition,
        ablated: r.ablatedRecordId ?? "",
        role: r.ablatedRole ?? "background",
        replacement: r.replacementRecordId ?? null,
        output: r.output,
        flipped: flipped(r),
        error: r.error,
      })),
      trajectory: lines.get(key) ?? null,
    };
  });
}

/** The page's data: a columnar, coded pair table and one detail line per pair. */
export interface ExploreData {
  format: "memgauge.explore/1";
  title: string;
  /** Where the rows came from (file names), for the page's header. */
  source: string;
  /** True when any pair's agent is the offline simulator. */
  simulated: boolean;
  n: number;
  /** Pairs with a sidecar line. */
  withTrajectory: number;
  /** Facet labels by code. */
  facets: Record<Facet, string[]>;
  outcomes: readonly string[];
  /** Per pair: each facet's code (figure: a bit mask over `facets.figure`), outcome bit mask. */
  cols: Record<
    Facet | "outcome" | "instance" | "clean" | "poisoned" | "trial" | "simulated",
    number[]
  >;
  /** Strings the `instance`, `clean` and `poisoned` columns code (answers shortened). */
  strings: string[];
  /** Strings the detail lines code (record ids, whole answers, errors; see `pair_detail.ts`). */
  detailStrings: string[];
  /** Each pair's key (`pairId#trial`), for links. */
  keys: string[];
}

/** The page's data and its detail lines (each pair's JSON, then the definitions). */
export interface ExplorePayload {
  data: ExploreData;
  /** One JSON line per pair, in table order. */
  details: string;
  /** The sidecar definitions (traces, records) every detail line refers to. */
  definitions: string;
}

const _ANSWER_SHOWN = 90;

/**
 * Build the page's payload from pair summaries. `figures` tags pairs with the figures whose
 * experiment ran them (a pair can serve several).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explorePayload } from "./explore_data.ts";
 * const { data } = explorePayload({ pairs: [], title: "t", source: "s" });
 * assert.equal(data.n, 0);
 * assert.deepEqual(data.facets.stage, []);
 * ```
 */
export function explorePayload(options: {
  pairs: readonly PairSummary[];
  /** Page title. */
  title: string;
  /** What the rows came from. */
  source: string;
  /** Figure names by pair key; default none (no figure facet values). */
  figures?: ReadonlyMap<string, readonly string[]>;
}): ExplorePayload {
  const { pairs } = options;
  const facets = Object.fromEntries(FACETS.map((f) => [f, [] as string[]])) as Record<
    Facet,
    string[]
  >;
  const codes = Object.fromEntries(FACETS.map((f) => [f, new Map<string, number>()]));
  const code = (facet: Facet, label: string) => {
    let c = codes[facet].get(label);
    if (c === undefined) {
      c = facets[facet].length;
      facets[facet].push(label);
      codes[facet].set(label, c);
    }
    return c;
  };
  const strings: string[] = [];
  const stringCodes = new Map<string, number>();
  const str = (s: string) => {
    let c = stringCodes.get(s);
    if (c === undefined) {
      c = strings.length;
      strings.push(s);
      stringCodes.set(s, c);
    }
    return c;
  };
  const answer = (r: RunSummary | null) =>
    str(
      !r
        ? "(no row)"
        : r.error !== null
        ? `error: ${r.error.slice(0, _ANSWER_SHOWN)}`
        : (r.output ?? "").length > _ANSWER_SHOWN
        ? `${r.output!.slice(0, _ANSWER_SHOWN - 1)}…`
        : r.output ?? "",
    );
  const cols = Object.fromEntries(
    [...FACETS, "outcome", "instance", "clean", "poisoned", "trial", "simulated"].map((
      c,
    ) => [c, [] as number[]]),
  ) as ExploreData["cols"];
  const encoder = new SidecarEncoder();
  const table = new StringTable();
  const definitions: string[] = [];
  const details: string[] = [];
  let withTrajectory = 0;
  for (const pair of pairs) {
    const figures = options.figures?.get(pair.key) ?? [];
    cols.figure.push(figures.reduce((mask, f) => mask | (1 << code("figure", f)), 0));
    cols.stage.push(code("stage", pair.stage));
    cols.point.push(code("point", pair.point));
    cols.policy.push(code("policy", pair.policy));
    cols.attack.push(code("attack", pair.attack));
    cols.agent.push(code("agent", pair.agent));
    cols.dataset.push(code("dataset", pair.dataset));
    cols.setting.push(code("setting", pair.setting));
    const flips = pair.trajectory?.ablations ?? pair.ablations;
    cols.outcome.push(pairOutcomes({
      clean: pair.clean ?? undefined,
      poisoned: pair.poisoned ?? undefined,
      flips,
    }));
    cols.instance.push(str(pair.instanceId));
    cols.clean.push(answer(pair.clean));
    cols.poisoned.push(answer(pair.poisoned));
    cols.trial.push(pair.trial);
    cols.simulated.push(pair.simulated ? 1 : 0);
    // The detail's last element is its sidecar line, or 0 without one.
    const detail = JSON.stringify(encodePairDetail({ pair, table, trajectory: 0 }));
    if (pair.trajectory) {
      withTrajectory++;
      // The encoder defines each trace and record once for the page; the pair keeps its line,
      // spliced in as text (it is JSON already).
      const encoded = encoder.encode(pair.trajectory).trimEnd().split("\n");
      definitions.push(...encoded.slice(0, -1));
      details.push(`${detail.slice(0, -2)}${encoded.at(-1)}]`);
    } else details.push(detail);
  }
  if (facets.figure.length > 31) {
    throw new RangeError(
      `explorePayload: at most 31 figures can tag pairs, got ${facets.figure.length}`,
    );
  }
  return {
    data: {
      format: "memgauge.explore/1",
      title: options.title,
      source: options.source,
      simulated: pairs.some((p) => p.simulated),
      n: pairs.length,
      withTrajectory,
      facets,
      outcomes: OUTCOME_NAMES,
      cols,
      strings,
      detailStrings: table.strings,
      keys: pairs.map((p) => p.key),
    },
    details: details.join("\n"),
    definitions: definitions.join("\n"),
  };
}

/** Stage, point, policy and setting of a row; an existing memory system's row names the system. */
function _labels(row: TrialRow) {
  const system = row as unknown as { kind?: string; system?: string; management?: string };
  if (system.kind === "system") {
    return {
      stage: "system",
      point: `${system.system} ${system.management}`,
      policy: system.management ?? "",
      setting: `K ${row.k} · |B| ${row.bankSize}`,
    };
  }
  return {
    stage: row.stage,
    point: pointLabel(row),
    policy: row.policy,
    setting: settingLabel(row),
  };
}
