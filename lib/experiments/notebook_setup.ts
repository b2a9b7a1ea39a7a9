/**
 * What every notebook's second cell does with its parameters: build the agents and judge as the
 * sweep CLI builds them (`modelSetup`), resolve data and cache paths from the repository root,
 * and gather the experiment options with live progress in the cell.
 */
import type { Attack } from "../schema/instance.ts";
import { PAPER_DEFAULTS } from "../schema/operating_point.ts";
import { FILLS } from "../stages/retrieval/fills.ts";
import { jupyterProgress, jupyterStatus } from "../run/jupyter_progress.ts";
import { type ModelSetup, modelSetup } from "../run/model_setup.ts";
import type { ExperimentOptions } from "./experiment_setup.ts";
import { param } from "./notebook_param.ts";
import { repoCachePath, repoDataDir, repoPath } from "./repo_paths.ts";
import { simulatorNote } from "../figures/figure_notes.ts";

/** The knobs of a notebook's parameters cell that every experiment reads. */
export interface NotebookKnobs {
  /** demo, locomo, longmemeval, or an instance file (relative to the repository root). */
  DATASET: string;
  /** minja, sleeper, or both. */
  ATTACK: string;
  /** Agent specs: reference (every persona), reference:PERSONA, llm:MODEL. */
  AGENT: readonly string[];
  /** deterministic or llm:MODEL. */
  JUDGE?: string;
  /** OpenAI-compatible endpoint for every model; "" for each catalog entry's. */
  BASE_URL?: string;
  SEED: number;
  /** Instances per experiment; 0 for all. */
  N: number;
  /** Fixed stages. */
  THETA_W?: number;
  POLICY?: string;
  THETA_R?: number;
  K?: number;
  FILL?: string;
  BANK_SIZE?: number;
  /**
   * Plugin modules (relative to the repository root), as `--plugin` on the command line;
   * default `MEMGAUGE_PLUGINS` (comma-separated; `deno task notebooks --plugin` sets it) or none.
   */
  PLUGINS?: readonly string[];
}

/** What {@link notebookSetup} returns. */
export interface NotebookSetup {
  /** Options for every experiment and figure spec of the notebook. */
  options: ExperimentOptions;
  /** The model setup (clients, judge); `close()` at the end. */
  models: ModelSetup;
}

/**
 * Build a notebook's experiment options from its knobs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookSetup } from "./notebook_setup.ts";
 * const { options, models } = notebookSetup({ DATASET: "demo", ATTACK: "minja", AGENT: ["reference:careful"], SEED: 0, N: 2, K: 3 });
 * assert.deepEqual(options.attacks, ["minja"]);
 * assert.equal(options.base?.k, 3);
 * assert.equal(options.n, 2);
 * models.close();
 * ```
 */
export function notebookSetup(knobs: NotebookKnobs): NotebookSetup {
  const attacks: Attack[] = knobs.ATTACK === "both"
    ? ["minja", "sleeper"]
    : knobs.ATTACK === "minja" || knobs.ATTACK === "sleeper"
    ? [knobs.ATTACK]
    : (() => {
      throw new RangeError(
        `ATTACK: expected minja, sleeper or both, got ${JSON.stringify(knobs.ATTACK)}`,
      );
    })();
  const plugins = (knobs.PLUGINS ?? param("PLUGINS", [] as string[], { of: "string" })).map((
    path,
  ) => repoPath({ path }));
  // A plugin's fill is registered when the first sweep loads the plugins; checked there.
  if (knobs.FILL !== undefined && !FILLS.has(knobs.FILL) && plugins.length === 0) {
    throw new RangeError(
      `FILL: expected one of ${FILLS.ids().join(", ")}, got ${JSON.stringify(knobs.FILL)}`,
    );
  }
  const models = modelSetup({
    baseUrl: knobs.BASE_URL || undefined,
    judge: knobs.JUDGE ?? "deterministic",
    cachePath: repoCachePath(),
  });
  const status = jupyterStatus();
  const options: ExperimentOptions = {
    dataset: knobs.DATASET.endsWith(".json") ? repoPath({ path: knobs.DATASET }) : knobs.DATASET,
    dataDir: repoDataDir(),
    agents: models.agents(knobs.AGENT),
    models,
    seed: knobs.SEED,
    n: knobs.N > 0 ? knobs.N : undefined,
    attacks,
    base: {
      thetaW: knobs.THETA_W ?? PAPER_DEFAULTS.thetaW,
      policy: knobs.POLICY ?? PAPER_DEFAULTS.policy,
      thetaR: knobs.THETA_R ?? PAPER_DEFAULTS.thetaR,
      k: knobs.K ?? PAPER_DEFAULTS.k,
      fill: knobs.FILL ?? PAPER_DEFAULTS.fill,
    },
    bankSize: knobs.BANK_SIZE ?? PAPER_DEFAULTS.bankSize,
    plugins,
    progress: (label: string) => jupyterProgress({ label }),
    status,
  };
  return { options, models };
}

/**
 * The line under a notebook's setup: which agents, judge and data the numbers below come from,
 * and, for the simulator, what its curves can and cannot show. Displays as Markdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookBanner } from "./notebook_setup.ts";
 * const banner = notebookBanner({ options: { dataset: "demo", agents: [{ id: "reference:careful", simulated: true, answer: () => Promise.resolve({ output: "" }) }] } });
 * assert.match(banner.text, /simulator/);
 * ```
 */
export function notebookBanner(options: {
  /** The notebook's experiment options. */
  options: ExperimentOptions;
}): { text: string } {
  const o = options.options;
  const agents = o.agents ?? [];
  const simulated = agents.length === 0 || agents.some((a) => a.simulated);
  const text =
    `**Agent backend:** ${
      simulated && agents.every((a) => a.simulated)
        ? "the offline reference agent (a simulator, not a real model)"
        : `real model${agents.filter((a) => !a.simulated).length > 1 ? "s" : ""} ${
          agents.filter((a) => !a.simulated).map((a) => a.id).join(", ")
        }`
    }: ${agents.map((a) => `\`${a.id}\``).join(", ") || "every reference persona"}; judge \`${
      o.models?.judge.id ?? "deterministic"
    }\`; dataset \`${String(o.dataset ?? "demo").replace(/^.*\//, "")}\`${
      o.n ? `, first ${o.n} instances` : ""
    }; seed ${o.seed ?? 0}.` + (simulated ? `\n\n${simulatorNote([{ simulated: true }])}` : "");
  const banner = { text };
  Object.defineProperty(banner, Symbol.for("Jupyter.display"), {
    enumerable: false,
    value: () => ({ "text/markdown": text, "text/plain": text.replace(/\*\*|`/g, "") }),
  });
  return banner;
}
