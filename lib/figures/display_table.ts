/**
 * A table as notebooks show it and reproduce prints it: a Polars frame with a title, numbers
 * rounded to a fixed number of decimals, as plain text (the terminal) and HTML (notebook cells,
 * `figures/index.html`) through Jupyter's display protocol.
 */
import pl from "nodejs-polars";
import { JUPYTER_DISPLAY } from "./display_figure.ts";
import { fixed } from "./labels.ts";

/** A titled table; notebook cells display it. */
export interface DisplayTable {
  /** The frame, numbers as computed (tests read values from here). */
  frame: pl.DataFrame;
  title: string;
  /** A note under the table; "" for none. */
  caption: string;
  /** Fixed-width text, numbers rounded. */
  text(): string;
  /** An HTML table, numbers rounded. */
  html(): string;
}

function _escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text cut to `clip` characters with an ellipsis; as is when shorter or `clip` is unset. */
function _clipped(text: string, clip: number | undefined): string {
  return clip !== undefined && text.length > clip ? `${text.slice(0, clip - 1)}…` : text;
}

function _cells(frame: pl.DataFrame, digits: number): string[][] {
  const columns = frame.columns;
  const records = frame.toRecords();
  const floats = new Set(columns.filter((c) => /Float/.test(String(frame.getColumn(c).dtype))));
  // A float column of whole numbers above 1 holds counts (ranks, slots, sizes), not rates.
  const counts = new Set([...floats].filter((c) => {
    const values = records.map((r) => r[c]).filter((v) => v !== null && v !== undefined);
    return values.length > 0 && values.every((v) => Number.isInteger(Number(v))) &&
      values.some((v) => Number(v) > 1);
  }));
  return records.map((r) =>
    columns.map((c) => {
      const v = r[c];
      if (v === null || v === undefined) return "";
      if (counts.has(c)) return String(Math.round(Number(v)));
      return floats.has(c) ? fixed(v, digits) : String(v);
    })
  );
}

function _isNumber(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text);
}

/**
 * Wrap a frame for display: floats shown with `digits` decimals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { JUPYTER_DISPLAY } from "./display_figure.ts";
 * import { displayTable } from "./display_table.ts";
 * const table = displayTable({ frame: pl.DataFrame({ policy: ["UM"], asr: [0.4462500000000001] }), title: "ASR" });
 * assert.match(table.text(), /0\.446/);
 * const bundle = (table as any)[JUPYTER_DISPLAY]();
 * assert.match(bundle["text/html"], /<td>0\.446<\/td>/);
 * // Long texts: cut in the text form, whole on a click in the HTML form.
 * const long = displayTable({ frame: pl.DataFrame({ text: ["a".repeat(30)] }), title: "T", clip: 10 });
 * assert.match(long.text(), /a{9}…/);
 * assert.match(long.html(), /<details><summary>a{9}…<\/summary>a{30}<\/details>/);
 * ```
 */
export function displayTable(options: {
  /** The frame. */
  frame: pl.DataFrame;
  /** Title shown above. */
  title: string;
  /** Note shown below; default none. */
  caption?: string;
  /** Decimals of floats; default 3. */
  digits?: number;
  /**
   * Longest text shown in a cell; a longer one is cut with "…" in the text form and opens in
   * full on a click in the HTML form; default no limit.
   */
  clip?: number;
}): DisplayTable {
  const { frame, title, clip } = options;
  const caption = options.caption ?? "";
  const digits = options.digits ?? 3;
  const text = () => {
    const cells = _cells(frame, digits).map((r) => r.map((v) => _clipped(v, clip)));
    const header = frame.columns;
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
    const numeric = header.map((_, i) =>
      cells.length > 0 && cells.every((r) => r[i] === "" || _isNumber(r[i]))
    );
    const line = (r: string[]) =>
      r.map((v, i) => numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])).join("  ")
        .trimEnd();
    return [
      title,
      line(header),
      ...cells.map(line),
      ...(caption ? [caption] : []),
    ].join("\n");
  };
  const html = () => {
    const cells = _cells(frame, digits);
    return `<table class="memgauge-table"><caption style="caption-side: top; text-align: left; font-weight: bold;">${
      _escape(title)
    }</caption><thead><tr>${
      frame.columns.map((c) => `<th>${_escape(c)}</th>`).join("")
    }</tr></thead><tbody>${
      cells.map((r) =>
        `<tr>${
          r.map((v) =>
            _isNumber(v) || v === ""
              ? `<td>${_escape(v)}</td>`
              : `<td style="text-align: left;">${
                _clipped(v, clip) === v
                  ? _escape(v)
                  : `<details><summary>${_escape(_clipped(v, clip))}</summary>${
                    _escape(v)
                  }</details>`
              }</td>`
          ).join("")
        }</tr>`
      ).join("")
    }</tbody></table>${
      caption
        ? `<p class="memgauge-table-note" style="font-size: 90%;">${_escape(caption)}</p>`
        : ""
    }`;
  };
  const table = { frame, title, caption, text, html };
  Object.defineProperty(table, JUPYTER_DISPLAY, {
    enumerable: false,
    value: () => ({ "text/plain": text(), "text/html": html() }),
  });
  return table;
}

/**
 * Several tables shown one after another as one; `frame` is the first table's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { displayTable, stackTables } from "./display_table.ts";
 * const a = displayTable({ frame: pl.DataFrame({ x: [1] }), title: "A" });
 * const b = displayTable({ frame: pl.DataFrame({ y: [2] }), title: "B" });
 * assert.match(stackTables({ tables: [a, b] }).text(), /A[\s\S]*B/);
 * ```
 */
export function stackTables(options: {
  /** The tables, in order (at least one). */
  tables: readonly DisplayTable[];
}): DisplayTable {
  const { tables } = options;
  const text = () => tables.map((t) => t.text()).join("\n\n");
  const html = () => tables.map((t) => t.html()).join("\n");
  const table = { frame: tables[0].frame, title: tables[0].title, caption: "", text, html };
  Object.defineProperty(table, JUPYTER_DISPLAY, {
    enumerable: false,
    value: () => ({ "text/plain": text(), "text/html": html() }),
  });
  return table;
}

/**
 * A two-column table of named values (what a "what to notice" cell shows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyValues } from "./display_table.ts";
 * const t = keyValues({ title: "Notice", values: { "ASR at θw = 1": 0.5123, answers: 240 } });
 * assert.match(t.text(), /ASR at θw = 1 +0\.512/);
 * assert.match(t.text(), /answers +240$/m);
 * ```
 */
export function keyValues(options: {
  /** Title. */
  title: string;
  /** Values by name, in order. */
  values: Readonly<Record<string, number | string | null>>;
}): DisplayTable {
  const entries = Object.entries(options.values);
  return displayTable({
    title: options.title,
    frame: pl.DataFrame({
      quantity: entries.map(([k]) => k),
      // Counts as integers ("240"), other numbers with three decimals.
      value: entries.map(([, v]) =>
        typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v ?? ""
      ),
    }),
  });
}
