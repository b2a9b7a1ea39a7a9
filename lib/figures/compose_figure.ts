/**
 * Lay one or more Plot charts side by side under a title, a legend and a caption, as one
 * `<figure>` shaped like Plot's own, so notebooks show it and `exportFigure` flattens it.
 */

/** One legend entry. */
export interface LegendEntry {
  /** Text of the entry. */
  label: string;
  /** CSS colour of its swatch. */
  color: string;
  /** Swatch shape; default "square". */
  shape?: "square" | "line" | "diamond";
}

/** Options of {@link composeFigure}. */
export interface ComposeFigureOptions {
  /** Document to create elements in (see `createDocument`). */
  document: Document;
  /** Charts (Plot SVG elements) placed left to right. */
  charts: readonly Element[];
  /** Title; default none. */
  title?: string;
  /** Subtitle under the title; default none. */
  subtitle?: string;
  /** Legend entries; default none. */
  legend?: readonly LegendEntry[];
  /** Caption under the charts; default none. */
  caption?: string;
}

/**
 * Compose charts into a `<figure>`: `h2` title, `h3` subtitle, a swatch legend, the charts in a
 * row, a `figcaption`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as Plot from "@observablehq/plot";
 * import { createDocument } from "./dom.ts";
 * import { composeFigure } from "./compose_figure.ts";
 * const document = createDocument();
 * const chart = Plot.plot({ document, marks: [Plot.dot([1, 2], { x: (d) => d, y: (d) => d })] });
 * const figure = composeFigure({ document, charts: [chart], title: "T", caption: "C" });
 * assert.equal(figure.querySelector("h2")?.textContent, "T");
 * ```
 */
export function composeFigure(options: ComposeFigureOptions): Element {
  const { document } = options;
  const figure = document.createElement("figure");
  figure.setAttribute("class", "memgauge-figure");
  figure.setAttribute("style", "font-family: 'DejaVu Sans', system-ui, sans-serif; margin: 0;");
  if (options.title) {
    const h2 = document.createElement("h2");
    h2.textContent = options.title;
    figure.append(h2);
  }
  if (options.subtitle) {
    const h3 = document.createElement("h3");
    h3.textContent = options.subtitle;
    figure.append(h3);
  }
  if (options.legend && options.legend.length > 0) {
    const legend = document.createElement("div");
    legend.setAttribute("class", "memgauge-swatches");
    legend.setAttribute("style", "display: flex; flex-wrap: wrap; gap: 1em; font-size: 12px;");
    for (const entry of options.legend) {
      const span = document.createElement("span");
      span.setAttribute("class", "memgauge-swatch");
      span.setAttribute("data-color", entry.color);
      span.setAttribute("data-shape", entry.shape ?? "square");
      span.setAttribute("style", "display: inline-flex; align-items: center; gap: 0.4em;");
      const swatch = document.createElement("span");
      swatch.setAttribute(
        "style",
        `display: inline-block; width: 14px; height: ${
          entry.shape === "line" ? 3 : 14
        }px; background: ${entry.color};`,
      );
      span.append(swatch, document.createTextNode(entry.label));
      legend.append(span);
    }
    figure.append(legend);
  }
  const row = document.createElement("div");
  row.setAttribute("class", "memgauge-charts");
  row.setAttribute("style", "display: flex; flex-wrap: wrap; align-items: flex-start;");
  for (const chart of options.charts) row.append(chart);
  figure.append(row);
  if (options.caption) {
    const caption = document.createElement("figcaption");
    caption.setAttribute("style", "font-size: 12px; max-width: 60em;");
    caption.textContent = options.caption;
    figure.append(caption);
  }
  return figure;
}
