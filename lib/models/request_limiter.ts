/** Bounded concurrency for model requests, with a shared pause when the provider says 429. */

/**
 * At most `concurrency` tasks run at once. `pause(ms)` holds every new start until the pause
 * ends (a 429 with Retry-After slows the whole run, not only the request that got it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestLimiter } from "./request_limiter.ts";
 * const limiter = new RequestLimiter({ concurrency: 2 });
 * let peak = 0, now = 0;
 * await Promise.all([1, 2, 3, 4].map(() => limiter.run(async () => {
 *   peak = Math.max(peak, ++now); await new Promise((r) => setTimeout(r, 5)); now--;
 * })));
 * assert.equal(peak, 2);
 * ```
 */
export class RequestLimiter {
  readonly concurrency: number;
  #active = 0;
  #waiting: (() => void)[] = [];
  #pausedUntil = 0;

  constructor(options: {
    /** Maximum tasks in flight; default 8. */
    concurrency?: number;
  }) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`--concurrency: expected an integer >= 1, got ${concurrency}`);
    }
    this.concurrency = concurrency;
  }

  /** Hold new starts for `ms` milliseconds from now (extends, never shortens, a pause). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }

  /** Run `fn` when a slot is free and no pause is in force. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.concurrency) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active++;
    }
    try {
      for (
        let wait = this.#pausedUntil - Date.now();
        wait > 0;
        wait = this.#pausedUntil - Date.now()
      ) {
        await new Promise((r) => setTimeout(r, wait));
      }
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      // Hand the slot straight to the next waiter, so the count never over- or undershoots.
      if (next) next();
      else this.#active--;
    }
  }
}
