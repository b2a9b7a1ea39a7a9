/**
 * An executed notebook as one HTML page that needs no network: equations rendered to MathML by
 * KaTeX (browsers draw MathML natively, so no script, font or stylesheet is fetched), solution
 * cells folded under a "Solution" summary, and no MathJax or require.js from a CDN.
 */
import katex from "katex";

/** The nbconvert template beside this module (extends JupyterLab's, drops CDN scripts). */
export const NOTEBOOK_HTML_TEMPLATE: string =
  new URL("./notebook_html.j2", import.meta.url).pathname;

/** A notebook as nbformat JSON (only what the conversion reads). */
export interface NotebookJson {
  cells: { cell_type: string; source: string | string[]; [key: string]: unknown }[];
  [key: string]: unknown;
}

const _TOKEN = (i: number) => `MGMATH${i}MGMATH`;

/** TeX to MathML, without the TeX annotation (the page needs only what it draws). */
function _mathml(tex: string, display: boolean): string {
  return katex.renderToString(tex, { output: "mathml", displayMode: display, throwOnError: true })
    .replace(/<annotation\b[^>]*>[\s\S]*?<\/annotation>/g, "");
}

/**
 * Replace every `$$...$$` and `$...$` of the markdown cells by a placeholder that Markdown
 * leaves alone, and return the notebook with a function that puts the MathML into the HTML
 * nbconvert makes of it. Code spans and fences are left as they are; a `$` followed or preceded
 * by a space ("costs $5 and $6") is not math. TeX KaTeX cannot parse is an error naming it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offlineMath } from "./notebook_html.ts";
 * const nb = { cells: [{ cell_type: "markdown", source: "Coverage $\\theta_w$ costs $5 and $6:\n$$\nb = \\lceil \\theta_w |Z| \\rceil\n$$\n`$HOME`" }] };
 * const { notebook, fill } = offlineMath(nb);
 * const md = String(notebook.cells[0].source);
 * assert.match(md, /^Coverage MGMATH1MGMATH costs \$5 and \$6:\nMGMATH0MGMATH\n`\$HOME`$/); // display math first
 * const html = fill(`<p>${md}</p>`);
 * assert.match(html, /<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"><semantics><mrow><msub><mi>θ<\/mi>/);
 * assert.match(html, /<math [^>]*display="block">/);
 * assert.doesNotMatch(html, /annotation/);
 * ```
 */
export function offlineMath(notebook: NotebookJson): {
  notebook: NotebookJson;
  fill: (html: string) => string;
} {
  const math: string[] = [];
  const cells = notebook.cells.map((cell) => {
    if (cell.cell_type !== "markdown") return cell;
    const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    // Code fences and spans are masked first, so a `$` inside code is never math.
    const code: string[] = [];
    const masked = source.replace(/```[\s\S]*?```|`[^`\n]*`/g, (m) => {
      code.push(m);
      return `MGCODE${code.length - 1}MGCODE`;
    });
    const replaced = masked
      .replace(/\$\$([\s\S]+?)\$\$/g, (_, tex: string) => {
        math.push(_mathml(tex.trim(), true));
        return _TOKEN(math.length - 1);
      })
      .replace(/(?<![\\$\w])\$(?![\s$])([^$\n]+?)(?<!\s)\$(?![\w$])/g, (_, tex: string) => {
        math.push(_mathml(tex, false));
        return _TOKEN(math.length - 1);
      })
      .replace(/MGCODE(\d+)MGCODE/g, (_, i: string) => code[Number(i)]);
    return { ...cell, source: replaced };
  });
  return {
    notebook: { ...notebook, cells },
    fill: (html) => html.replace(/MGMATH(\d+)MGMATH/g, (_, i: string) => math[Number(i)]),
  };
}
