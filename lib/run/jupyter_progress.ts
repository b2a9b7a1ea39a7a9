/** A live progress display for Jupyter (Deno kernel): one output cell updated in place. */
import type { Progress } from "./progress.ts";

/**
 * Progress that updates one display in the notebook via `Deno.jupyter.broadcast`; outside a
 * kernel it falls back to silence.
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
  let jupyter:
    | { broadcast(type: string, content: Record<string, unknown>): Promise<void> | void }
    | undefined;
  try {
    // Deno.jupyter throws on access outside `deno jupyter`.
    // deno-lint-ignore no-explicit-any
    jupyter = (Deno as any).jupyter;
  } catch {
    jupyter = undefined;
  }
  const id = `memgauge-progress-${crypto.randomUUID()}`;
  let total = 0;
  let started = 0;
  let last = 0;
  const send = (type: string, done: number, errors: number) => {
    if (!jupyter) return;
    const share = total > 0 ? done / total : 0;
    const seconds = (performance.now() - started) / 1000;
    const text =
      `${options.label} ${
        "█".repeat(Math.round(share * 30)).padEnd(30, "░")
      } ${done}/${total} trials` +
      ` | ${seconds > 0 ? (done / seconds).toFixed(0) : 0}/s | errors ${errors}`;
    Promise.resolve(jupyter.broadcast(type, {
      data: { "text/plain": text, "text/html": `<pre>${text}</pre>` },
      metadata: {},
      transient: { display_id: id },
    })).catch(() => {});
  };
  return {
    extend(more) {
      total += more;
    },
    start(n) {
      total = n;
      started = performance.now();
      send("display_data", 0, 0);
    },
    update(done, { errors }) {
      // Throttle: a broadcast per trial would flood the front end.
      if (done < total && performance.now() - last < 200) return;
      last = performance.now();
      send("update_display_data", done, errors);
    },
    stop() {},
  };
}
