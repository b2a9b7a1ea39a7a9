/**
 * Adaptive concurrency for one endpoint: additive increase, multiplicative decrease on 429s and
 * timeouts, and pauses that hold only this endpoint's requests.
 */
import { FieldError } from "../schema/field_error.ts";

/** How a request ended, as far as the endpoint's load is concerned. */
export type RequestOutcome =
  /** Answered (whatever the content). */
  | "ok"
  /** 429 or timeout: the endpoint is overloaded. */
  | "congested"
  /** Any other failure (500, connection refused, malformed body): says nothing about load. */
  | "failed";

/** A granted slot; release it exactly once. */
export interface RequestSlot {
  release(options: {
    outcome: RequestOutcome;
    /** A 429's Retry-After in ms; default none. */
    retryAfterMs?: number | null;
  }): void;
}

/** Counters of a limiter, for reports and tests. */
export interface LimiterStats {
  /** Multiplicative decreases applied. */
  decreases: number;
  /** Pauses begun (Retry-After after a 429 streak, or exhausted `x-ratelimit-*`). */
  pauses: number;
  /** Lowest window reached. */
  lowest: number;
}

/** Consecutive congested answers after which the endpoint as a whole waits out Retry-After. */
const STREAK = 3;

/**
 * Congested share, smoothed over windows, below which the window is not narrowed: sparse 429s
 * (a provider's random rejections) are each waited out on their own, while a provider that is
 * over its limit rejects far more than this, window after window.
 */
const TOLERATED = 0.1;

/** Weight of the latest window in the smoothed congested share. */
const SMOOTHING = 0.3;

/** A window at least this congested narrows at once, whatever came before. */
const SURGE = 0.5;

interface _Waiting {
  /** 0 for retries (they go first), 1 otherwise. */
  tier: number;
  rank: number;
  seq: number;
  grant: () => void;
}

const _before = (a: _Waiting, b: _Waiting) =>
  a.tier !== b.tier ? a.tier < b.tier : a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq;

/** A binary heap of waiting requests: retries first, then by rank, then in arrival order. */
class _Queue {
  #items: _Waiting[] = [];

  get length(): number {
    return this.#items.length;
  }

  push(item: _Waiting): void {
    const a = this.#items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!_before(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  shift(): _Waiting | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && _before(a[l], a[m])) m = l;
        if (r < a.length && _before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Up to `limit` requests run at once, where `limit` adapts between 1 and `concurrency`. The
 * window is DCTCP-style: after each window of `limit` answers, the congested share (429s,
 * timeouts) is smoothed over windows (`0.7 * before + 0.3 * now`); when the smoothed share
 * reaches 10%, or a window is half congested, the limit shrinks by half the window's share
 * (`limit * (1 - share / 2)`: a window of 429s halves it); a clean window adds one; a window
 * with a few 429s keeps it. Random, rare 429s thus cost only their own wait (each waits out its
 * Retry-After without a slot), while a provider that rejects a large share is backed off from
 * within a window or two. A
 * streak of 429s with Retry-After, or `pause(ms)` (exhausted `x-ratelimit-*` headers), holds new
 * requests of this endpoint only. Retries may `acquire({ priority: true })` to go first; other
 * waiting requests are served by `rank` (their place in the run's plan, lower first), then in
 * arrival order, so the rows due next are finished first.
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
 * for (let i = 0; i < 2; i++) (await limiter.acquire()).release({ outcome: "congested" });
 * assert.equal(limiter.limit, 1);
 * ```
 */
export class RequestLimiter {
  /** The most requests in flight (`--concurrency`). */
  readonly concurrency: number;
  readonly stats: LimiterStats;
  #limit: number;
  #active = 0;
  #queue = new _Queue();
  #seq = 0;
  #pausedUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #answered = 0;
  #congested = 0;
  #streak = 0;
  #smoothed = 0;

  constructor(options: {
    /** Maximum requests in flight; default 8. */
    concurrency?: number;
  }) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new FieldError({
        field: "concurrency",
        detail: `expected an integer >= 1, got ${concurrency}`,
      });
    }
    this.concurrency = concurrency;
    this.#limit = concurrency;
    this.stats = { decreases: 0, pauses: 0, lowest: concurrency };
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.max(1, Math.floor(this.#limit));
  }

  /** Requests in flight now. */
  get active(): number {
    return this.#active;
  }

  /** Hold new starts for `ms` milliseconds from now (extends, never shortens, a pause). */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    const until = Date.now() + ms;
    if (until > this.#pausedUntil) {
      if (this.#pausedUntil < Date.now()) this.stats.pauses++;
      this.#pausedUntil = until;
    }
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Wait for a slot. */
  acquire(options: {
    /** Go before requests that have not been tried yet (retries); default false. */
    priority?: boolean;
    /** Place in the run's plan: lower ranks are served first; default last, in arrival order. */
    rank?: number;
  } = {}): Promise<RequestSlot> {
    return new Promise((resolve) => {
      this.#queue.push({
        tier: options.priority ? 0 : 1,
        rank: options.rank ?? Number.MAX_SAFE_INTEGER,
        seq: this.#seq++,
        grant: () => resolve(this.#slot()),
      });
      this.#pump();
    });
  }

  /** Run `fn` in a slot; its success counts as an answer, its failure says nothing about load. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    try {
      const value = await fn();
      slot.release({ outcome: "ok" });
      return value;
    } catch (e) {
      slot.release({ outcome: "failed" });
      throw e;
    }
  }

  #slot(): RequestSlot {
    let released = false;
    return {
      release: ({ outcome, retryAfterMs }) => {
        if (released) return;
        released = true;
        this.#active--;
        this.#record(outcome, retryAfterMs ?? null);
        this.#pump();
      },
    };
  }

  #record(outcome: RequestOutcome, retryAfterMs: number | null): void {
    if (outcome === "failed") return;
    this.#answered++;
    if (outcome === "congested") {
      this.#congested++;
      if (++this.#streak >= STREAK && retryAfterMs !== null) this.pause(retryAfterMs);
    } else {
      this.#streak = 0;
    }
    if (this.#answered < this.limit) return;
    const share = this.#congested / this.#answered;
    this.#smoothed = (1 - SMOOTHING) * this.#smoothed + SMOOTHING * share;
    if (share >= SURGE || (share > 0 && this.#smoothed >= TOLERATED)) {
      this.#limit = Math.max(1, this.#limit * (1 - share / 2));
      this.stats.decreases++;
      this.stats.lowest = Math.min(this.stats.lowest, this.limit);
    } else if (this.#congested === 0) {
      this.#limit = Math.min(this.concurrency, this.#limit + 1);
    }
    this.#answered = this.#congested = 0;
  }

  #pump(): void {
    const wait = this.#pausedUntil - Date.now();
    if (wait > 0) {
      if (this.#timer === undefined && this.#queue.length > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, wait);
      }
      return;
    }
    while (this.#queue.length > 0 && this.#active < this.limit) {
      this.#active++;
      this.#queue.shift()!.grant();
    }
  }
}
