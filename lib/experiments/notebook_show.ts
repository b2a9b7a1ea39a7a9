/**
 * Show a figure or table in a notebook cell, numbered, so that `deno task notebooks` can tell a
 * display the Deno kernel sent and lost from one that was never sent: each display carries its
 * number in the output's metadata, and when `MEMGAUGE_SHOW_REPORT` names a file the number is
 * also appended there before the display goes out.
 */

/** Environment variable naming the file each display's number is appended to. */
export const SHOW_REPORT_ENV = "MEMGAUGE_SHOW_REPORT";

/** Key of a display's number in its output metadata. */
export const SHOWN_KEY = "memgauge.shown";

type _Broadcast = (type: string, content: Record<string, unknown>) => Promise<void>;

function _broadcast(): _Broadcast | undefined {
  try {
    // Deno.jupyter throws on access outside `deno jupyter`.
    // deno-lint-ignore no-explicit-any
    const jupyter = (Deno as any).jupyter;
    return typeof jupyter?.broadcast === "function" ? jupyter.broadcast.bind(jupyter) : undefined;
  } catch {
    return undefined;
  }
}

function _env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

let _shown = 0;

/** The bundle a value displays as: its Jupyter display protocol, or its text. */
async function _bundle(value: unknown): Promise<Record<string, unknown>> {
  const render = (value as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  return typeof render === "function"
    ? await (render as () => Record<string, unknown>).call(value)
    : { "text/plain": typeof value === "string" ? value : JSON.stringify(value, null, 2) };
}

/**
 * Show a displayable value (a figure, a table, a notice) in the notebook now, and wait until the
 * kernel has sent it. A cell's last expression is sent after the cell finishes, and the Deno
 * kernel (2.9.6) loses some of those in headless runs; a display sent while the cell runs is
 * kept far more often, and the number it carries lets `deno task notebooks` find one that was
 * lost. Outside a kernel it does nothing. Returns nothing, so the cell shows the value once.
 *
 * @example
 * ```ts
 * import { show } from "./notebook_show.ts";
 * await show({ [Symbol.for("Jupyter.display")]: () => ({ "text/plain": "hi" }) });
 * ```
 */
export async function show(value: unknown): Promise<void> {
  const broadcast = _broadcast();
  if (!broadcast) return;
  const data = await _bundle(value);
  const n = ++_shown;
  const report = _env(SHOW_REPORT_ENV);
  if (report) Deno.writeTextFileSync(report, `${n}\n`, { append: true });
  await broadcast("display_data", { data, metadata: { [SHOWN_KEY]: n }, transient: {} });
  // A pause before the kernel's next message: headless runs of 80 cells with two displays each
  // lost 10 of 1,440 displays in 9 runs without it, none of 2,400 in 15 runs with it
  // (tests/bench/notebook_display_loss.ts).
  await new Promise((resolve) => setTimeout(resolve, SHOW_PAUSE_MS));
}

/** Milliseconds `show` waits after each display (see its comment). */
export const SHOW_PAUSE_MS = 30;

/** One notebook output, as nbformat stores it (only what {@link lostDisplays} reads). */
interface _Output {
  output_type: string;
  metadata?: Record<string, unknown>;
}

/**
 * The displays a run sent (their numbers in the report file's text) that the executed notebook
 * does not hold, each with the index of the cell it followed (the cell holding the display
 * numbered just before it; -1 when it was the first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lostDisplays } from "./notebook_show.ts";
 * const out = (n: number) => ({ output_type: "display_data", metadata: { "memgauge.shown": n } });
 * const notebook = { cells: [{ cell_type: "code", outputs: [out(1)] }, { cell_type: "code", outputs: [out(3)] }] };
 * assert.deepEqual(lostDisplays({ notebook, report: "1\n2\n3\n" }), [{ display: 2, after: 0 }]);
 * ```
 */
export function lostDisplays(options: {
  /** The executed notebook. */
  notebook: { cells: { cell_type: string; outputs?: readonly _Output[] }[] };
  /** The report file's text: one number per line. */
  report: string;
}): { display: number; after: number }[] {
  const cellOf = new Map<number, number>();
  options.notebook.cells.forEach((cell, i) => {
    for (const o of cell.outputs ?? []) {
      const n = o.metadata?.[SHOWN_KEY];
      if (typeof n === "number") cellOf.set(n, i);
    }
  });
  const sent = options.report.split("\n").filter((l) => l.trim() !== "").map(Number);
  return sent.filter((n) => !cellOf.has(n)).map((n) => {
    let before = n - 1;
    while (before > 0 && !cellOf.has(before)) before--;
    return { display: n, after: before > 0 ? cellOf.get(before)! : -1 };
  });
}
