import assert from "node:assert/strict";
import fc from "fast-check";
import { redact, redactError } from "../../lib/models/redact.ts";

const KEY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
const key = fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 20, maxLength: 64 })
  .map((s) => `sk-${s}`);
// Prose that cannot contain an 8-character piece of a key by accident: no key characters at all.
const prose = fc.string({ unit: fc.constantFrom(" ", ".", ",", ":", "!", "?", "(", ")", "\n") });

Deno.test("redact() removes every 8+ character piece of a key wherever it appears", () => {
  fc.assert(
    fc.property(key, prose, prose, fc.nat(), fc.nat(), (secret, before, after, a, b) => {
      const start = a % (secret.length - 8), end = start + 8 + (b % (secret.length - start - 7));
      const piece = secret.slice(start, end);
      const out = redact({ text: `${before}${piece}${after}`, secrets: [secret] });
      assert.ok(!out.includes(piece), out);
      assert.equal(out, `${before}[REDACTED]${after}`);
    }),
  );
});

Deno.test("redact() leaves text without key pieces unchanged, short keys ignored", () => {
  fc.assert(
    fc.property(key, prose, (secret, text) => {
      assert.equal(redact({ text, secrets: [secret] }), text);
    }),
  );
  // Placeholder keys such as `none` would otherwise corrupt ordinary text; short ones that are
  // not provider keys go whole only.
  assert.equal(redact({ text: "none of them", secrets: ["none"] }), "none of them");
  assert.equal(
    redact({ text: "/tmp/memgauge-notebooks-x sk-test-notebooks", secrets: ["sk-test-notebooks"] }),
    "/tmp/memgauge-notebooks-x [REDACTED]",
  );
});

Deno.test("redact() removes Bearer tokens and masked key forms", () => {
  const secret = "sk-proj-SENTINEL0123456789abcdef";
  const masked = `${secret.slice(0, 8)}${"*".repeat(20)}${secret.slice(-4)}`;
  const out = redact({
    text: `Incorrect API key provided: ${masked}. Authorization: Bearer ${secret}`,
    secrets: [secret],
  });
  assert.equal(
    out,
    `Incorrect API key provided: [REDACTED]${"*".repeat(20)}cdef. Authorization: Bearer [REDACTED]`,
  );
  assert.equal(redact({ text: "Bearer abc.DEF-123", secrets: [] }), "Bearer [REDACTED]");
});

Deno.test("redactError() redacts message and stack in place", () => {
  const secret = "sk-errorkey-0123456789abcdef";
  const e = redactError({ error: new Error(`401 for ${secret}`), secrets: [secret] });
  assert.equal(e.message, "401 for [REDACTED]");
  assert.ok(!e.stack!.includes(secret));
});
