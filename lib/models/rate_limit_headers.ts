/** What a provider's rate-limit headers ask of the client: `Retry-After` and `x-ratelimit-*`. */

/**
 * A duration header value in ms: `1.5` (seconds), `20ms`, `6m0s`, `1h2m3.5s`, an epoch time in
 * seconds (values above 10^9), or an HTTP date. Null when unreadable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationMs } from "./rate_limit_headers.ts";
 * assert.equal(durationMs({ value: "6m0s" }), 360_000);
 * assert.equal(durationMs({ value: "20ms" }), 20);
 * assert.equal(durationMs({ value: "1.5" }), 1500);
 * assert.equal(durationMs({ value: "soon" }), null);
 * ```
 */
export function durationMs(options: {
  /** The header's text. */
  value: string;
  /** Current time for epoch and date values; default `Date.now()`. */
  now?: number;
}): number | null {
  const value = options.value.trim();
  const now = options.now ?? Date.now();
  if (value === "") return null;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    return n > 1e9 ? Math.max(0, n * 1000 - now) : n * 1000;
  }
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length > 0 && parts.map((p) => p[0]).join("") === value) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
    return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long a 429's `Retry-After` (or `retry-after-ms`) says to wait, in ms; null when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retryAfterMs } from "./rate_limit_headers.ts";
 * assert.equal(retryAfterMs({ headers: new Headers({ "retry-after": "2" }) }), 2000);
 * assert.equal(retryAfterMs({ headers: new Headers() }), null);
 * ```
 */
export function retryAfterMs(options: {
  /** Response headers (absent for connection errors). */
  headers: Headers | undefined;
}): number | null {
  const ms = options.headers?.get("retry-after-ms");
  if (ms != null && Number.isFinite(Number(ms))) return Number(ms);
  const after = options.headers?.get("retry-after");
  return after == null ? null : durationMs({ value: after });
}

/**
 * How long to hold new requests to this endpoint, in ms, when its `x-ratelimit-remaining-*`
 * headers (requests or tokens) say nothing is left: until the matching `x-ratelimit-reset-*`.
 * Zero when something is left or the headers are absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exhaustedForMs } from "./rate_limit_headers.ts";
 * const headers = new Headers({ "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1s" });
 * assert.equal(exhaustedForMs({ headers }), 1000);
 * assert.equal(exhaustedForMs({ headers: new Headers({ "x-ratelimit-remaining-requests": "5" }) }), 0);
 * ```
 */
export function exhaustedForMs(options: {
  /** Response headers. */
  headers: Headers | undefined;
}): number {
  const h = options.headers;
  if (!h) return 0;
  let wait = 0;
  for (const kind of ["requests", "tokens", ""]) {
    const suffix = kind === "" ? "" : `-${kind}`;
    const remaining = h.get(`x-ratelimit-remaining${suffix}`);
    if (remaining === null || Number(remaining) > 0) continue;
    const reset = h.get(`x-ratelimit-reset${suffix}`);
    wait = Math.max(wait, reset === null ? 0 : durationMs({ value: reset }) ?? 0);
  }
  return wait;
}
