/** Progress reporting for long work: a terminal bar, or nothing. Notebooks plug in their own. */
import cliProgress from "cli-progress";

/** A progress sink; `update` receives the count done and running tallies. */
export interface Progress {
  start(total: number): void;
  /** More work than planned at start (counterfactual reruns found on the way); default ignored. */
  extend?(more: number): void;
  update(done: number, tallies: { errors: number; cacheHits?: number }): void;
  stop(): void;
}

/** A silent progress sink. */
export const silentProgress: Progress = { start() {}, update() {}, stop() {} };

/**
 * A progress bar on stderr with rate, ETA and error count (cli-progress).
 *
 * @example
 * ```ts
 * import { terminalProgress } from "./progress.ts";
 * const bar = terminalProgress({ label: "demo" });
 * bar.start(1); bar.update(1, { errors: 0 }); bar.stop();
 * ```
 */
export function terminalProgress(options: {
  /** Text before the bar. */
  label: string;
}): Progress {
  const bar = new cliProgress.SingleBar({
    format:
      `${options.label} [{bar}] {value}/{total} trials | {rate}/s | ETA {eta_formatted} | cache hits {hits} | errors {errors}`,
    stream: process.stderr,
    noTTYOutput: false,
    hideCursor: false,
    clearOnComplete: false,
  }, cliProgress.Presets.shades_classic);
  let started = 0;
  return {
    start(total) {
      started = performance.now();
      bar.start(total, 0, { rate: "0", errors: 0, hits: 0 });
    },
    extend(more) {
      bar.setTotal(bar.getTotal() + more);
    },
    update(done, { errors, cacheHits = 0 }) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(done, {
        rate: seconds > 0 ? (done / seconds).toFixed(0) : "0",
        errors,
        hits: cacheHits,
      });
    },
    stop: () => bar.stop(),
  };
}
