/** Keep secrets out of rows, logs and errors. */

/**
 * Replace every occurrence of each secret (and any bearer token) in `text` with `[REDACTED]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact } from "./redact.ts";
 * assert.equal(redact({ text: "bad key sk-123", secrets: ["sk-123"] }), "bad key [REDACTED]");
 * ```
 */
export function redact(options: {
  /** Text that may contain a secret. */
  text: string;
  /** Secrets to remove; empty strings are ignored. */
  secrets: readonly string[];
}): string {
  let text = options.text;
  for (const secret of options.secrets) {
    if (secret.length > 0) text = text.split(secret).join("[REDACTED]");
  }
  return text.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/g, "Bearer [REDACTED]");
}
