/**
 * Links from a figure to the trials behind it: one link per operating point (and attack and
 * setting) into the explorer page, filtered by the URL fragment the page reads. Used by
 * `deno task reproduce` under each figure of `figures/index.html`.
 */
import type { PairSummary } from "./explore_data.ts";
import type { Facet } from "./pair_facets.ts";

function _esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

/**
 * The explorer URL (relative) for a set of filters, e.g.
 * `explorer.html#figure=figure3_writing&point=θw%200.3&attack=minja`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explorerHref } from "./trial_links.ts";
 * assert.equal(explorerHref({ page: "explorer.html", filters: { point: "θw 0.3", outcome: "attacked" } }),
 *   "explorer.html#point=%CE%B8w+0.3&outcome=attacked");
 * ```
 */
export function explorerHref(options: {
  /** The page, relative to where the link is. */
  page: string;
  /** Facet (or `outcome`, `pair`) to value. */
  filters: Partial<Record<Facet | "outcome" | "pair", string>>;
}): string {
  const params = new URLSearchParams(
    Object.entries(options.filters).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return `${options.page}#${params}`;
}

/**
 * HTML for one figure: a table of links, one row per attack and setting, one link per operating
 * point with its number of pairs, and one to the pairs a counterfactual rerun flipped when any
 * did. Empty when the figure has no pairs (figures of published values only).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialLinks } from "./trial_links.ts";
 * const pair = { stage: "writing", point: "θw 0.5", setting: "K 5", attack: "minja", dataset: "demo" };
 * const html = trialLinks({ page: "explorer.html", figure: "figure3_writing", pairs: [pair, pair] as never });
 * assert.match(html, /href="explorer.html#figure=figure3_writing&amp;attack=minja&amp;setting=K\+5&amp;point=%CE%B8w\+0.5">θw 0.5<\/a> \(2\)/);
 * ```
 */
export function trialLinks(options: {
  /** The explorer page, relative to the index. */
  page: string;
  /** The figure's name (the explorer's `figure` facet value). */
  figure: string;
  /** The pairs behind the figure. */
  pairs: readonly Pick<PairSummary, "stage" | "point" | "setting" | "attack" | "dataset">[];
  /** Pairs a counterfactual rerun flipped; default 0 (no link). */
  flipped?: number;
}): string {
  const { page, figure, pairs } = options;
  if (pairs.length === 0) return "";
  const groups = new Map<string, Map<string, number>>();
  for (const p of pairs) {
    const group = JSON.stringify([p.attack, p.setting]);
    const points = groups.get(group) ?? new Map<string, number>();
    points.set(p.point, (points.get(p.point) ?? 0) + 1);
    groups.set(group, points);
  }
  const rows = [...groups].map(([group, points]) => {
    const [attack, setting] = JSON.parse(group) as [string, string];
    const links = [...points].map(([point, n]) =>
      `<a href="${_esc(explorerHref({ page, filters: { figure, attack, setting, point } }))}">${
        _esc(point)
      }</a> (${n})`
    ).join(" · ");
    return `<tr><td>${_esc(attack)}</td><td>${_esc(setting)}</td><td>${links}</td></tr>`;
  }).join("\n");
  const flipped = options.flipped
    ? `<p>Pairs a record-level counterfactual flipped: <a href="${
      _esc(explorerHref({ page, filters: { figure, outcome: "flipped" } }))
    }">${options.flipped}</a></p>`
    : "";
  return `<details class="trials"><summary>The trials behind each point: ${pairs.length} pairs in the explorer (<a href="${
    _esc(explorerHref({ page, filters: { figure } }))
  }">all</a>, <a href="${
    _esc(explorerHref({ page, filters: { figure, outcome: "attacked" } }))
  }">attacked</a>)</summary>
<table><thead><tr><th>attack</th><th>held fixed</th><th>operating points (pairs)</th></tr></thead><tbody>
${rows}
</tbody></table>${flipped}</details>`;
}
