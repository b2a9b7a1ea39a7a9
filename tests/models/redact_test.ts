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
  // Placeholders under 8 characters (`none`) would otherwise corrupt ordinary text.
  assert.equal(redact({ text: "none of them", secrets: ["none"] }), "none of them");
});

Deno.test("redact() removes every 8+ character piece of a short secret too (issue 22)", () => {
  // Before, secrets under 20 characters went whole only: the masked echo of a 16-character key
  // ("sk-short****2c3d") kept its 8-character prefix in rows.jsonl.
  const secret = "sk-short-a1b2c3d";
  assert.equal(
    redact({ text: "Incorrect API key provided: sk-short****2c3d.", secrets: [secret] }),
    "Incorrect API key provided: [REDACTED]****2c3d.",
  );
  fc.assert(fc.property(fc.nat(), fc.nat(), prose, (a, b, around) => {
    const start = a % (secret.length - 7), end = start + 8 + (b % (secret.length - start - 7));
    const out = redact({
      text: `${around}${secret.slice(start, end)}${around}`,
      secrets: [secret],
    });
    assert.equal(out, `${around}[REDACTED]${around}`);
  }));
  // The price: a word that shares 8 characters with a short placeholder goes too.
  assert.equal(
    redact({ text: "/tmp/memgauge-notebooks-x sk-test-notebooks", secrets: ["sk-test-notebooks"] }),
    "/tmp/memgauge[REDACTED]-x [REDACTED]",
  );
});

Deno.test("redact() removes URL credentials and provider-shaped keys the kit was never given", () => {
  assert.equal(
    redact({
      text: "deno task sweep --base-url http://alice:Hunter2Pass@10.0.0.5:8000/v1 --x",
      secrets: [],
    }),
    "deno task sweep --base-url http://[REDACTED]@10.0.0.5:8000/v1 --x",
  );
  assert.equal(
    redact({ text: "https://tok3n@example.org/v1", secrets: [] }),
    "https://[REDACTED]@example.org/v1",
  );
  assert.equal(redact({ text: "mail ann@example.org", secrets: [] }), "mail ann@example.org");
  // A batch results file imported without the key in the environment: the echo is still removed.
  assert.equal(
    redact({
      text:
        "HTTP 401: Incorrect API key provided: sk-proj-Q7wErTy9UiOp1AsDfGh2 (sk-proj-************fGh2).",
      secrets: [],
    }),
    "HTTP 401: Incorrect API key provided: [REDACTED] ([REDACTED]).",
  );
  assert.equal(
    redact({ text: "key=AIzaSyD4x9Qw2e3r4t5y6u7i8o9p0", secrets: [] }),
    "key=[REDACTED]",
  );
  assert.equal(redact({ text: "a task-runner sk-test", secrets: [] }), "a task-runner sk-test");
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
