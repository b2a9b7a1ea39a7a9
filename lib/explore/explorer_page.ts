/**
 * The explorer page: one self-contained HTML file (data, styles and the bundled script inside,
 * no network), which opens from `file://` and behind any static server. The pair table is on
 * top, the pair view below it.
 */
import { gzipSync } from "node:zlib";
import type { ExplorePayload } from "./explore_data.ts";
import { explorerScript } from "./explorer_script.ts";
import { OUTCOMES } from "./pair_facets.ts";
import { PAIR_VIEW_CSS } from "./pair_view.ts";

const _PAGE_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 "DejaVu Sans", system-ui, sans-serif; color: #1d1d1f; background: #fff; }
header.mg-top { padding: 10px 16px 6px; border-bottom: 1px solid #ddd; background: #fafafa; }
header.mg-top h1 { font-size: 17px; margin: 0 0 2px; }
header.mg-top p { margin: 2px 0; color: #444; }
.mg-sim { color: #8a4b00; font-weight: 600; }
#mg-filters { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; padding: 6px 16px; }
#mg-filters label { white-space: nowrap; color: #333; }
#mg-filters select { max-width: 240px; font: inherit; }
.mg-bar { display: flex; gap: 12px; align-items: center; padding: 2px 16px 6px; }
#mg-count { font-weight: 600; }
#mg-problem { color: #b71c1c; }
.mg-grid { margin: 0 16px; border: 1px solid #ccc; border-radius: 4px; }
.mg-head, .mg-row { display: grid; grid-template-columns: 56px 150px 62px 150px 130px minmax(140px, 1fr) minmax(140px, 1fr) 240px; align-items: center; }
.mg-head { background: #f0f0f3; font-weight: 600; border-bottom: 1px solid #ccc; height: 28px; }
.mg-head > span[title] { text-decoration: underline dotted; cursor: help; }
.mg-head > span, .mg-row > span { padding: 0 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
#mg-scroll { height: 38vh; min-height: 180px; overflow: auto; position: relative; }
#mg-spacer { position: relative; width: 100%; }
.mg-row { position: absolute; left: 0; right: 0; height: 30px; border-bottom: 1px solid #eee; cursor: pointer; }
.mg-row:hover { background: #f3f7ff; }
.mg-row.mg-open { background: #dbe8ff; }
.mg-c-n { color: #888; text-align: right; }
.mg-good { color: #1b5e20; }
.mg-bad { color: #b71c1c; font-weight: 600; }
.mg-flag { display: inline-block; font-size: 11px; border-radius: 3px; padding: 0 4px; margin-right: 3px; background: #eee; }
.mg-flag-risk { background: #ffd8d3; color: #8e1b10; }
.mg-flag-error { background: #333; color: #fff; }
#mg-view { padding: 8px 16px 40px; }
#mg-view:empty::before { content: "Click a pair in the table to see its clean and poisoned runs side by side (keys j / k: next, previous)."; color: #666; }
.mg-help { margin: 4px 16px; color: #555; }
.mg-help summary { cursor: pointer; }
`;

function _esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** JSON inside a `<script>` data block: `</` is written `<\/` so the block cannot end early. */
function _embed(text: string): string {
  return text.replaceAll("</", "<\\/");
}

/**
 * Detail lines, gzipped and in base64: a tenth of their size, so a page of 100,000 pairs loads
 * fast; the page inflates them (DecompressionStream) when the first pair is opened.
 */
function _packed(text: string): string {
  return gzipSync(new TextEncoder().encode(text), { level: 6 }).toString("base64");
}

/**
 * The page's HTML for a payload (see `explorePayload`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explorePayload } from "./explore_data.ts";
 * import { explorerPage } from "./explorer_page.ts";
 * const html = await explorerPage({ payload: explorePayload({ pairs: [], title: "t", source: "s" }) });
 * assert.match(html, /^<!doctype html>/);
 * assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="http/);
 * ```
 */
export async function explorerPage(options: {
  /** The data to embed. */
  payload: ExplorePayload;
}): Promise<string> {
  const { data, details, definitions } = options.payload;
  const script = await explorerScript();
  const simulated = data.simulated
    ? `<p class="mg-sim">Pairs of the offline reference agent are a simulation for teaching and smoke runs, never a result about real models.</p>`
    : "";
  const outcomes = Object.entries(OUTCOMES).map(([k, v]) =>
    `<li><b>${_esc(k)}</b>: ${_esc(v)}</li>`
  )
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${_esc(data.title)}</title>
<style>${_PAGE_CSS}${PAIR_VIEW_CSS}</style>
</head>
<body>
<header class="mg-top">
<h1>${_esc(data.title)}</h1>
<p>${data.n.toLocaleString("en")} pairs from ${_esc(data.source)}; ${
    data.withTrajectory.toLocaleString("en")
  } with their trajectory. Each pair is one instance run twice, clean (helpful trace only) and poisoned (plus the attacker's risk trace), with everything else the same (Zang et al. 2026, problem formulation); filter, then click a pair.</p>
${simulated}</header>
<div id="mg-filters"></div>
<div class="mg-bar"><span id="mg-count"></span><label>instance or answer contains <input id="mg-q" type="search" size="18"></label><button id="mg-reset" type="button">clear filters</button><span id="mg-problem"></span></div>
<details class="mg-help"><summary>What the outcomes mean</summary><ul>${outcomes}</ul></details>
<div class="mg-grid" role="table" aria-label="pairs">
<div class="mg-head" role="row"><span>#</span><span>instance</span><span>attack</span><span>agent</span><span title="the operating point: the varied stage's value (θw writing coverage, the management policy, θr retrieval exposure); hover a row for the stages held fixed">point</span><span title="✓ supports y*">clean answer</span><span title="✓ supports y*; ⚠ matches the attacker's target y_adv">poisoned answer</span><span title="risk in ctx: the risk record reached the poisoned context; counterfactual flip: replacing one retrieved record undid a decision (risk removed: undone, when it was the risk record)">flags</span></div>
<div id="mg-scroll"><div id="mg-spacer"><div id="mg-rows"></div></div></div>
</div>
<div id="mg-view"></div>
<script type="application/json" id="mg-data">${_embed(JSON.stringify(data))}</script>
<script type="application/gzip+base64" id="mg-details">${_packed(details)}</script>
<script type="application/gzip+base64" id="mg-defs">${_packed(definitions)}</script>
<script type="module">${script}</script>
</body>
</html>
`;
}
