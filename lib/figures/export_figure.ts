/**
 * Write a figure as standalone SVG and PNG. Plot returns an HTML `<figure>` when it has a title,
 * legend or caption; a standalone file needs them inside the image, so they are redrawn as SVG.
 */
import { Resvg } from "@resvg/resvg-js";
import { writeFileAtomic } from "../io/atomic_write.ts";

/** Font folders searched for PNG text; DejaVu ships with Debian's fonts-dejavu-core. */
export const DEFAULT_FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts"];

const _FONT = "DejaVu Sans, Verdana, Arial, sans-serif";
const _GAP = 12;
const _PAD = 12;

function _escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

function _wrap(text: string, width: number, charWidth: number): string[] {
  const perLine = Math.max(20, Math.floor(width / charWidth));
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function _size(svg: Element): { width: number; height: number } {
  const width = Number(svg.getAttribute("width"));
  const height = Number(svg.getAttribute("height"));
  if (width > 0 && height > 0) return { width, height };
  const box = (svg.getAttribute("viewBox") ?? "0 0 640 400").split(/[\s,]+/).map(Number);
  return { width: box[2], height: box[3] };
}

/**
 * Flatten a figure into one standalone SVG document: title, subtitle, legend swatches, the
 * charts side by side, and the caption, all as SVG with an explicit font and white background.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as Plot from "@observablehq/plot";
 * import { createDocument } from "./dom.ts";
 * import { standaloneSvg } from "./export_figure.ts";
 * const document = createDocument();
 * const figure = Plot.plot({ document, title: "Hi", marks: [Plot.dot([1, 2], { x: (d) => d, y: (d) => d })] });
 * const svg = standaloneSvg(figure);
 * assert.ok(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
 * assert.ok(svg.includes(">Hi</text>"));
 * ```
 */
export function standaloneSvg(figure: Element): string {
  const isSvg = figure.tagName.toLowerCase() === "svg";
  const charts = isSvg
    ? [figure]
    : [...figure.querySelectorAll("svg")].filter((svg) =>
      svg.hasAttribute("viewBox") && !svg.closest("span") &&
      svg.parentElement?.closest("svg") === null
    );
  if (charts.length === 0) {
    throw new TypeError(`Cannot export figure: it holds no chart SVG (got <${figure.tagName}>)`);
  }
  const title = isSvg ? "" : figure.querySelector("h2")?.textContent?.trim() ?? "";
  const subtitle = isSvg ? "" : figure.querySelector("h3")?.textContent?.trim() ?? "";
  const caption = isSvg ? "" : figure.querySelector("figcaption")?.textContent?.trim() ?? "";
  const legend = isSvg ? [] : [...figure.querySelectorAll("span")].flatMap((span) => {
    const cls = span.getAttribute("class") ?? "";
    if (cls === "memgauge-swatch") {
      return [{
        color: span.getAttribute("data-color") ?? "black",
        shape: span.getAttribute("data-shape") ?? "square",
        label: span.textContent?.trim() ?? "",
      }];
    }
    // Plot's own categorical legend: <span class="plot-…-swatch"><svg fill=…>…</svg>label</span>
    if (/-swatch$/.test(cls)) {
      const swatch = span.querySelector("svg");
      return [{
        color: swatch?.getAttribute("fill") ?? swatch?.getAttribute("stroke") ?? "black",
        shape: "square",
        label: span.textContent?.trim() ?? "",
      }];
    }
    return [];
  });

  const sizes = charts.map(_size);
  const width = Math.max(
    320,
    sizes.reduce((w, s) => w + s.width, 0) + _GAP * (charts.length - 1) + 2 * _PAD,
  );
  const parts: string[] = [];
  let y = _PAD;
  for (const line of _wrap(title, width - 2 * _PAD, 9.5)) {
    y += 20;
    parts.push(
      `<text x="${_PAD}" y="${y}" font-size="17" font-weight="bold">${_escape(line)}</text>`,
    );
  }
  for (const line of _wrap(subtitle, width - 2 * _PAD, 7.5)) {
    y += 17;
    parts.push(`<text x="${_PAD}" y="${y}" font-size="13" fill="#444">${_escape(line)}</text>`);
  }
  if (legend.length > 0) {
    y += 10;
    let x = _PAD;
    let rowTop = y;
    for (const entry of legend) {
      const itemWidth = 22 + entry.label.length * 7 + 16;
      if (x > _PAD && x + itemWidth > width - _PAD) {
        x = _PAD;
        rowTop += 20;
      }
      const color = _escape(entry.color);
      if (entry.shape === "line") {
        parts.push(
          `<rect x="${x}" y="${rowTop + 5}" width="16" height="4" fill="${color}"/>`,
        );
      } else if (entry.shape === "diamond") {
        parts.push(
          `<path d="M${x + 8},${rowTop}L${x + 15},${rowTop + 7}L${x + 8},${rowTop + 14}L${x + 1},${
            rowTop + 7
          }Z" fill="none" stroke="${color}" stroke-width="2"/>`,
        );
      } else {
        parts.push(
          `<rect x="${x}" y="${rowTop}" width="14" height="14" fill="${color}"/>`,
        );
      }
      parts.push(
        `<text x="${x + 22}" y="${rowTop + 11.5}" font-size="12">${_escape(entry.label)}</text>`,
      );
      x += itemWidth;
    }
    y = rowTop + 20;
  }
  y += 6;
  let x = _PAD;
  let chartsHeight = 0;
  charts.forEach((chart, i) => {
    const { width: w, height: h } = sizes[i];
    const markup = chart.outerHTML.replace(
      /^<svg\b/,
      `<svg x="${x}" y="${y}" width="${w}" height="${h}"`,
    ).replace(
      /(<svg x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*")((?:\s+\w[\w-]*="[^"]*")*?)\s+width="[^"]*"/,
      "$1$2",
    )
      .replace(
        /(<svg x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*")((?:\s+\w[\w-]*="[^"]*")*?)\s+height="[^"]*"/,
        "$1$2",
      );
    parts.push(markup);
    x += w + _GAP;
    chartsHeight = Math.max(chartsHeight, h);
  });
  y += chartsHeight;
  for (const line of _wrap(caption, width - 2 * _PAD, 6.6)) {
    y += 16;
    parts.push(`<text x="${_PAD}" y="${y}" font-size="12" fill="#333">${_escape(line)}</text>`);
  }
  const height = Math.ceil(y + _PAD);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${_FONT}" color="black"><rect width="100%" height="100%" fill="white"/>${
    parts.join("")
  }</svg>`.replaceAll('font-family="system-ui, sans-serif"', `font-family="${_FONT}"`);
}

/**
 * Rasterize a standalone SVG to PNG with resvg, using fonts from `fontDirs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { svgToPng } from "./export_figure.ts";
 * const png = svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', {});
 * assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]); // "PNG"
 * ```
 */
export function svgToPng(
  svg: string,
  options: {
    /** Pixels per SVG unit; default 2. */
    scale?: number;
    /** Font folders; default {@link DEFAULT_FONT_DIRS}. */
    fontDirs?: readonly string[];
  },
): Uint8Array {
  const resvg = new Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: options.scale ?? 2 },
    font: {
      fontDirs: [...(options.fontDirs ?? DEFAULT_FONT_DIRS)],
      loadSystemFonts: false,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
  return new Uint8Array(resvg.render().asPng());
}

/** Options of {@link exportFigure}. */
export interface ExportFigureOptions {
  /** Output folder, created when missing; default "figures". */
  dir?: string;
  /** File name without extension, e.g. "figure3_stages". */
  name: string;
  /** Formats to write; default both. */
  formats?: readonly ("svg" | "png")[];
  /** PNG pixels per SVG unit; default 2. */
  scale?: number;
  /** Font folders for the PNG; default {@link DEFAULT_FONT_DIRS}. */
  fontDirs?: readonly string[];
}

/**
 * Write a figure (a Plot figure, a Plot SVG, a composed figure, or a `DisplayFigure`) to `dir/name.svg` and
 * `dir/name.png`; returns the paths written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as Plot from "@observablehq/plot";
 * import { createDocument } from "./dom.ts";
 * import { exportFigure } from "./export_figure.ts";
 * const document = createDocument();
 * const figure = Plot.plot({ document, caption: "demo", marks: [Plot.dot([1], { x: (d) => d, y: (d) => d })] });
 * const dir = await Deno.makeTempDir();
 * const paths = await exportFigure(figure, { dir, name: "dot" });
 * assert.deepEqual(paths, [`${dir}/dot.svg`, `${dir}/dot.png`]);
 * ```
 */
export async function exportFigure(
  figure: Element | { svg: string },
  options: ExportFigureOptions,
): Promise<string[]> {
  if (!/^[\w.-]+$/.test(options.name)) {
    throw new TypeError(
      `Cannot export figure: name must be a plain file name, got ${JSON.stringify(options.name)}`,
    );
  }
  const dir = options.dir ?? "figures";
  await Deno.mkdir(dir, { recursive: true });
  // A displayed figure carries its SVG: the file gets exactly the bytes the notebook showed.
  const svg = "svg" in figure && typeof figure.svg === "string"
    ? figure.svg.replace(/\n$/, "")
    : standaloneSvg(figure as Element);
  const written: string[] = [];
  for (const format of options.formats ?? ["svg", "png"]) {
    const path = `${dir}/${options.name}.${format}`;
    // Temporary name, then rename: an interrupted export never leaves a truncated image.
    const data = format === "svg" ? svg + "\n" : svgToPng(svg, options);
    await writeFileAtomic({ path, data });
    written.push(path);
  }
  return written;
}
