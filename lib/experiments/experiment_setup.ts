/** What every figure experiment shares: dataset, agents, seed, size, fixed stages and progress. */
import type { Agent } from "../agents/agent.ts";
import { isReferenceSpec } from "../agents/agent_spec.ts";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { OperatingPoint } from "../schema/operating_point.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import type { ModelSetup } from "../run/model_setup.ts";
import type { SweepOptions } from "../run/sweep.ts";
import { loadPlugins, type Plugin, registerPlugin } from "../plugins/plugins.ts";
import type { Progress } from "../run/progress.ts";
import { repoDataDir } from "./repo_paths.ts";

/** Options every experiment takes. */
export interface ExperimentOptions {
  /** Dataset name known to the registry, or an instance-file path; default "demo". */
  dataset?: string;
  /** Agents (e.g. `modelSetup(...).agents(["llm:gpt-5.4-mini"])`); default every offline reference persona. */
  agents?: readonly Agent[];
  /**
   * Judge, writer and LLM rankers of a model setup (`modelSetup`); default offline: the
   * deterministic judge, the verbatim writer and the offline rankers.
   */
  models?: Pick<ModelSetup, "judge" | "writer" | "rankerFactory">;
  /** Run seed; default 0. */
  seed?: number;
  /** Use the first n instances; default all. */
  n?: number;
  /**
   * Build only this many instances of a benchmark, drawn by its builder (stratified as the
   * full set): a plan's sample, scaled to the full set. Default the builder's full count.
   */
  sample?: number;
  /**
   * Runs each of the experiment's sweeps; default `sweep`. A plan passes one that runs the
   * sweep over stand-in replies and counts its requests.
   */
  sweep?: (options: SweepOptions) => Promise<TrialRow[]>;
  /** Bootstrap resamples for the summaries; default 500. */
  resamples?: number;
  /** Makes a progress sink for each sweep, given its label; default silent. */
  progress?: (label: string) => Progress;
  /**
   * Receives what is being prepared, before and after slow work that is not a sweep (building a
   * benchmark's instances takes seconds); default silent.
   */
  status?: (message: string) => void;
  /** Raw benchmark folder; default `MEMGAUGE_DATA` or the repository's `data/raw/`. */
  dataDir?: string;
  /** Build benchmark instances again instead of reading the instance cache; default false. */
  rebuildInstances?: boolean;
  /** Attacks; default both (the RQ2 experiments default to MINJA, as the paper's). */
  attacks?: readonly Attack[];
  /**
   * Values of the stages held fixed (theta_w, policy, theta_r, K, fill, ranker); default the
   * paper's (θw = 0.6, UM, θr = 0.8, K = 5, random fill). An experiment's varied stage and its
   * own settings (a figure's K or |B|) override these.
   */
  base?: Partial<Pick<OperatingPoint, "thetaW" | "policy" | "thetaR" | "k" | "fill" | "ranker">>;
  /** Background bank size |B| of the experiments that do not vary it; default 100. */
  bankSize?: number;
  /**
   * Plugins whose policies, rankers, writers, agents, personas, judges, fills, systems or datasets the
   * experiments may use: plugin objects (`{ policies: [myPolicy] }`) or module paths (relative
   * to the working directory), as `--plugin` on the command line; registered before the first
   * sweep, so a management experiment runs their policies too. Default none.
   */
  plugins?: readonly (Plugin | string)[];
  /**
   * Receives each pair trial's trajectory (the sidecar line) as the experiments' sweeps run;
   * default none (nothing is captured).
   */
  onTrajectory?: (trajectory: PairTrajectory) => void;
}

/** Register the experiment's plugins (again is a no-op; a bad one throws `PluginError`). */
export async function usePlugins(options: ExperimentOptions): Promise<void> {
  for (const plugin of options.plugins ?? []) {
    if (typeof plugin === "string") await loadPlugins({ paths: [plugin] });
    else registerPlugin({ plugin, source: "ExperimentOptions.plugins" });
  }
}

// Instance sets already built in this process: a notebook or a reproduce run asks for the same
// dataset at the same bank size many times, and a benchmark takes seconds to build.
const _built = new Map<string, Promise<Instance[]>>();

/** Load `n` instances of a dataset at a bank size and trace load. */
export async function experimentInstances(
  options: ExperimentOptions,
  bankSize: number,
  traceLoad: number,
): Promise<Instance[]> {
  const name = options.dataset ?? "demo";
  const dataDir = options.dataDir ?? repoDataDir();
  const seed = options.seed ?? 0;
  const key = JSON.stringify([name, dataDir, seed, bankSize, traceLoad, options.sample]);
  let built = _built.get(key);
  if (!built) {
    const what = `${name} instances (|B| = ${bankSize}, trace load ${traceLoad})`;
    const started = performance.now();
    options.status?.(`Building ${what} ...`);
    built = loadDataset({
      name,
      seed,
      bankSize,
      traceLoad,
      dataDir,
      ...(options.sample !== undefined && { count: options.sample }),
      ...(options.rebuildInstances && { instanceCache: { rebuild: true } }),
    }).then((all) => {
      options.status?.(
        `Built ${all.length} ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      );
      return all;
    });
    // A failed build (a missing file, a bank too small) is not kept: the next call says so again.
    built.catch(() => _built.delete(key));
    _built.set(key, built);
  }
  const all = await built;
  return options.n === undefined ? all : all.slice(0, options.n);
}

/** The agents, default every reference persona. */
export function experimentAgents(options: ExperimentOptions): readonly Agent[] {
  return options.agents ?? resolveAgents({ specs: ["reference"] });
}

/**
 * The agent backend as a caption names it: "offline reference agent" when every row is the
 * reference simulator; otherwise the model agents by id, any other offline agent (a plugin's)
 * by its own id, any reference personas named as the simulator, and the judge when it is not the
 * deterministic matcher (an LLM judge by model, a plugin's by id).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentLabel } from "./experiment_setup.ts";
 * assert.equal(agentLabel([]), "none");
 * const row = { agent: "llm:gpt-5.4-mini", simulated: false, judgeModel: null };
 * assert.equal(agentLabel([row]), "real model llm:gpt-5.4-mini, not the offline reference agent");
 * const plugin = { agent: "last-record", simulated: true, judgeModel: null, judge: "substring" };
 * assert.equal(agentLabel([plugin]), "offline agent last-record (not a real model); judge: substring");
 * ```
 */
export function agentLabel(
  rows: readonly (
    & Pick<TrialRow, "agent" | "simulated" | "judgeModel">
    & { judge?: string | null }
  )[],
): string {
  if (rows.length === 0) return "none";
  const distinct = (
    values: (string | null | undefined)[],
  ) => [...new Set(values.filter((v): v is string => v != null))];
  const llm = distinct(rows.map((r) => r.judgeModel));
  const others = distinct(
    rows.filter((r) => r.judgeModel == null && r.judge !== "deterministic").map((r) => r.judge),
  );
  const judges = [...(llm.length ? [`LLM judge over ${llm.join(", ")}`] : []), ...others];
  const judge = judges.length ? `; judge: ${judges.join(", ")}` : "";
  const reference = (r: { agent: string; simulated: boolean }) =>
    r.simulated && isReferenceSpec(r.agent);
  if (rows.every(reference)) {
    return `offline reference agent (simulator, not a real model)${judge}`;
  }
  const ids = (keep: (r: { agent: string; simulated: boolean }) => boolean) =>
    distinct(rows.filter(keep).map((r) => r.agent));
  const models = ids((r) => !r.simulated);
  const simulators = ids(reference);
  const offline = ids((r) => r.simulated && !reference(r));
  if (offline.length === 0) {
    return `real model${models.length > 1 ? "s" : ""} ${models.join(", ")}` +
      (simulators.length
        ? ` and the offline reference agent (simulator) ${simulators.join(", ")}`
        : ", not the offline reference agent") +
      judge;
  }
  return [
    ...(models.length ? [`real model${models.length > 1 ? "s" : ""} ${models.join(", ")}`] : []),
    `offline agent${offline.length > 1 ? "s" : ""} ${offline.join(", ")} (not a real model)`,
    ...(simulators.length
      ? [`the offline reference agent (simulator) ${simulators.join(", ")}`]
      : []),
  ].join(" and ") + judge;
}
