/**
 * A figure as notebooks show it and reproduce writes it: the composed figure, its standalone
 * SVG (the exact bytes of `NAME.svg`) and Jupyter's display protocol, so a notebook cell shows
 * the same picture the file holds, with a plain-text fallback.
 */
import { standaloneSvg } from "./export_figure.ts";

/** A named figure with its standalone SVG; notebook cells display it. */
export interface DisplayFigure {
  /** File name without extension, e.g. "figure3_stages". */
  name: string;
  /** The composed figure (title, legend, charts, caption). */
  element: Element;
  /** The standalone SVG document, byte for byte what `exportFigure` writes to `NAME.svg`. */
  svg: string;
  /** Title text. */
  title: string;
  /** Caption text. */
  caption: string;
}

/** The key Jupyter kernels (Deno's among them) look up to display an object. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

function _escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Wrap a composed figure for display and export.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as Plot from "@observablehq/plot";
 * import { createDocument } from "./dom.ts";
 * import { displayFigure, JUPYTER_DISPLAY } from "./display_figure.ts";
 * const document = createDocument();
 * const element = Plot.plot({ document, title: "T", caption: "C", marks: [Plot.dot([1], { x: (d) => d, y: (d) => d })] });
 * const figure = displayFigure({ name: "dot", element });
 * const bundle = (figure as any)[JUPYTER_DISPLAY]();
 * assert.deepEqual(Object.keys(bundle).sort(), ["image/svg+xml", "text/html", "text/plain"]);
 * assert.equal(bundle["image/svg+xml"], figure.svg);
 * assert.match(bundle["text/plain"], /^T/);
 * ```
 */
export function displayFigure(options: {
  /** File name without extension. */
  name: string;
  /** The composed figure. */
  element: Element;
}): DisplayFigure {
  const { name, element } = options;
  const svg = standaloneSvg(element) + "\n";
  const title = element.querySelector?.("h2")?.textContent?.trim() ?? "";
  const caption = element.querySelector?.("figcaption")?.textContent?.trim() ?? "";
  const figure = { name, element, svg, title, caption };
  Object.defineProperty(figure, JUPYTER_DISPLAY, {
    enumerable: false,
    value: () => ({
      "text/plain": [title || name, caption].filter(Boolean).join("\n"),
      "image/svg+xml": svg,
      // The same SVG inline at its own size (13 px type), scrolling sideways in a narrow cell
      // rather than shrinking its text.
      "text/html": `<div class="memgauge-figure" data-name="${_escape(name)}" ` +
        `style="max-width: 100%; overflow-x: auto;">${svg}</div>`,
    }),
  });
  return figure;
}
