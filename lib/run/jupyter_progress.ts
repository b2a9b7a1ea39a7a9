/**
 * Live progress for Jupyter (Deno kernel): one output updated in place through
 * `Deno.jupyter.display` with a display id. Outside a kernel both sinks are silent.
 */
import type { Progress } from "./progress.ts";

type _Display = (bundle: unknown, options: Record<string, unknown>) => Promise<void>;

function _display(): _Display | undefined {
  try {
    // Deno.jupyter throws on access outside `deno jupyter`.
    // deno-lint-ignore no-explicit-any
    const jupyter = (Deno as any).jupyter;
    return typeof jupyter?.display === "function" ? jupyter.display.bind(jupyter) : undefined;
  } catch {
    return undefined;
  }
}

function _escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** One display that can be shown, then updated in place. */
function _liveDisplay(): (text: string) => void {
  const display = _display();
  const id = `memgauge-${crypto.randomUUID()}`;
  let shown = false;
  return (text: string) => {
    if (!display) return;
    const bundle = { "text/plain": text, "text/html": `<pre>${_escape(text)}</pre>` };
    // The first call creates the output, later ones replace it (update_display_data).
    const options = { raw: true, display_id: id, ...(shown && { update: true }) };
    shown = true;
    display(bundle, options).catch(() => {});
  };
}

/**
 * Progress that updates one output of the notebook cell; silent outside a kernel.
 *
 * @example
 * ```ts
 * import { jupyterProgress } from "./jupyter_progress.ts";
 * const progress = jupyterProgress({ label: "writing" });
 * progress.start(10);
 * progress.update(5, { errors: 0 });
 * progress.stop();
 * ```
 */
export function jupyterProgress(options: {
  /** Text before the bar. */
  label: string;
}): Progress {
  const show = _liveDisplay();
  let total = 0;
  let started = 0;
  let last = 0;
  const send = (done: number, errors: number) => {
    const share = total > 0 ? done / total : 0;
    const seconds = (performance.now() - started) / 1000;
    show(
      `${options.label} ${
        "█".repeat(Math.round(share * 30)).padEnd(30, "░")
      } ${done}/${total} trials` +
        ` | ${seconds > 0 ? (done / seconds).toFixed(0) : 0}/s | errors ${errors}`,
    );
  };
  let errors = 0;
  let done = 0;
  return {
    extend(more) {
      total += more;
    },
    start(n) {
      total = n;
      started = performance.now();
      send(0, 0);
    },
    update(count, tallies) {
      done = count;
      errors = tallies.errors;
      // Throttle: a display update per trial would flood the front end.
      if (count < total && performance.now() - last < 250) return;
      last = performance.now();
      send(count, errors);
    },
    stop() {
      send(done, errors);
    },
  };
}

/**
 * A status line (what is being prepared, e.g. building a benchmark's instances) shown in one
 * output that each message replaces; silent outside a kernel.
 *
 * @example
 * ```ts
 * import { jupyterStatus } from "./jupyter_progress.ts";
 * const status = jupyterStatus();
 * status("Building locomo instances ...");
 * status("Built 100 locomo instances in 8.1 s.");
 * ```
 */
export function jupyterStatus(): (message: string) => void {
  return _liveDisplay();
}

/**
 * Show a displayable value (a figure, a table) in the notebook now, and wait until the kernel
 * has sent it. A cell's last expression is sent after the cell finishes, and the Deno kernel
 * (2.9.6) loses some of those in headless runs; a display sent while the cell runs is kept.
 * Outside a kernel it does nothing. Returns nothing, so the cell shows the value once.
 *
 * @example
 * ```ts
 * import { show } from "./jupyter_progress.ts";
 * await show({ [Symbol.for("Jupyter.display")]: () => ({ "text/plain": "hi" }) });
 * ```
 */
export async function show(value: unknown): Promise<void> {
  const display = _display();
  if (!display) return;
  const render = (value as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  const bundle = typeof render === "function"
    ? await (render as () => unknown).call(value)
    : { "text/plain": typeof value === "string" ? value : JSON.stringify(value, null, 2) };
  await display(bundle, { raw: true });
}
