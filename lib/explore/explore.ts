/**
 * `mg.explore(rows, { pairId })`: the explorer's pair view in a notebook cell, through the
 * Jupyter display protocol, drawn server-side by the same `pairView` the page runs.
 */
import { JUPYTER_DISPLAY } from "../figures/display_figure.ts";
import { createDocument } from "../figures/dom.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { pairSummaries, type PairSummary } from "./explore_data.ts";
import { PAIR_VIEW_CSS, pairView } from "./pair_view.ts";

/** One pair as a notebook shows it. */
export interface ExploredPair {
  /** The pair (rows and trajectory). */
  pair: PairSummary;
  /** The view as HTML (stylesheet included). */
  html: string;
  /** A plain-text line for consoles. */
  text: string;
}

/**
 * The pair view of one pair trial of `rows`, displayable in a notebook cell (`await
 * mg.show(mg.explore(rows, { pairId }))`, or as a cell's last value). Without `pairId`, the first
 * pair whose poisoned run matched the target (else the first pair). With its `trajectories` (a
 * sweep's sidecar lines, `anatomy(...).trajectory`) the view shows ranks, records, quarantine
 * and the agent's reading; without, what the rows hold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAgent } from "../agents/reference_agent.ts";
 * import { loadDataset } from "../data/datasets.ts";
 * import { anatomy } from "../experiments/anatomy.ts";
 * import { explore } from "./explore.ts";
 * const [instance] = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
 * const walk = await anatomy({ instance, attack: "minja", agent: referenceAgent({ persona: "balanced" }) });
 * const shown = explore(walk.rows, { pairId: walk.rows[0].pairId, trajectories: [walk.trajectory] });
 * const bundle = (shown as any)[Symbol.for("Jupyter.display")]();
 * assert.match(bundle["text/html"], /<ol class="mg-slots" data-condition="poisoned">/);
 * assert.match(bundle["text/plain"], /^Pair anatomy:/);
 * ```
 */
export function explore(
  rows: readonly TrialRow[],
  options: {
    /** The pair to show; default the first attacked pair (else the first). */
    pairId?: string;
    /** Its repeat (`trial`); default 0. */
    trial?: number;
    /** Sidecar lines of the rows; default none. */
    trajectories?: readonly PairTrajectory[];
  } = {},
): ExploredPair {
  const pairs = pairSummaries({ rows, trajectories: options.trajectories });
  const pair = options.pairId !== undefined
    ? pairs.find((p) => p.pairId === options.pairId && p.trial === (options.trial ?? 0))
    : pairs.find((p) => p.poisoned?.matchesTarget) ?? pairs[0];
  if (!pair) {
    throw new RangeError(
      options.pairId !== undefined
        ? `explore: no pair ${JSON.stringify(options.pairId)} (trial ${
          options.trial ?? 0
        }) among ${pairs.length} pairs of the rows`
        : "explore: the rows hold no pair",
    );
  }
  const html = `<div class="memgauge-explore"><style>${PAIR_VIEW_CSS}</style>${
    pairView({ pair, document: createDocument() })
  }</div>`;
  const said = (r: PairSummary["clean"]) => r?.error ? `error` : JSON.stringify(r?.output ?? null);
  const text =
    `Pair ${pair.pairId}#${pair.trial}: instance ${pair.instanceId}, ${pair.attack}, ${pair.agent}, ${pair.stage} at ${pair.point}; clean said ${
      said(pair.clean)
    }, poisoned said ${said(pair.poisoned)}`;
  const shown: ExploredPair = { pair, html, text };
  Object.defineProperty(shown, JUPYTER_DISPLAY, {
    enumerable: false,
    value: () => ({ "text/plain": text, "text/html": html }),
  });
  return shown;
}
