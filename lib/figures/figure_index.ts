/**
 * `figures/index.html`: every figure of a reproduce run with its caption and tables, one page
 * that opens offline (images by relative path, no script, no network).
 */

function _escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

/** One figure on the page. */
export interface IndexEntry {
  /** File name without extension: the page shows `NAME.svg` and links `NAME.png`, `NAME.csv`. */
  name: string;
  title: string;
  /** The caption; the SVG draws it under the chart, so the page gives it only as alt text. */
  caption: string;
  /** HTML tables shown under the figure (already escaped, e.g. `DisplayTable.html()`). */
  tables: readonly string[];
  /** HTML linking the figure's operating points to the trial explorer; default none. */
  trials?: string;
}

/**
 * The page.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureIndex } from "./figure_index.ts";
 * const html = figureIndex({ title: "t", figures: [{ name: "figure3_stages", title: "Figure 3", caption: "The caption.", tables: [] }] });
 * assert.match(html, /<img src="figure3_stages.svg"/);
 * // The image carries its caption; the page repeats it only as the image's alt text.
 * assert.equal(html.split("The caption.").length - 1, 1);
 * ```
 */
export function figureIndex(options: {
  /** Page title. */
  title: string;
  /** Figures in order. */
  figures: readonly IndexEntry[];
  /** The trial explorer page beside the index (linked at the top); default none. */
  explorer?: string;
}): string {
  const toc = options.figures.map((f) =>
    `<li><a href="#${_escape(f.name)}">${_escape(f.title || f.name)}</a></li>`
  ).join("");
  const sections = options.figures.map((f) =>
    `<section id="${_escape(f.name)}">
<h2>${_escape(f.title || f.name)}</h2>
<img src="${_escape(f.name)}.svg" alt="${_escape([f.title || f.name, f.caption].join(". "))}">
<p class="files">Files: <a href="${_escape(f.name)}.svg">SVG</a> · <a href="${
      _escape(f.name)
    }.png">PNG</a></p>
${f.tables.join("\n")}
${f.trials ?? ""}
</section>`
  ).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${_escape(options.title)}</title>
<style>
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 2em auto; max-width: 1400px; padding: 0 1em; color: #222; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f4f4f4; }
td:first-child, th:first-child { text-align: left; }
section { margin-bottom: 3em; }
details.trials { margin: 0.6em 0; }
details.trials td, details.trials th { text-align: left; }
</style>
</head>
<body>
<h1>${_escape(options.title)}</h1>
<p>Written by <code>deno task reproduce</code>. Each figure's CSV beside it holds the per-agent summary with its <code>backend</code> column.</p>
${
    options.explorer
      ? `<p class="explorer">Every trial behind these figures, clean and poisoned side by side: <a href="${
        _escape(options.explorer)
      }">the trial explorer</a>; under each figure, its operating points link to their pairs.</p>\n`
      : ""
  }<ul>${toc}</ul>
${sections}
</body>
</html>
`;
}
