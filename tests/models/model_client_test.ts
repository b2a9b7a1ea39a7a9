import assert from "node:assert/strict";
import { ModelClient } from "../../lib/models/model_client.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { RequestLimiter } from "../../lib/models/request_limiter.ts";
import { type Fault, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const SENTINEL = "sk-SENTINEL-must-never-appear-4242";

function client(
  baseUrl: string,
  extra: Partial<ConstructorParameters<typeof ModelClient>[0]> = {},
) {
  return new ModelClient({
    endpoint: { id: "fake", model: "fake-1", baseUrl, apiKey: SENTINEL, seed: true, extra: {} },
    retryBaseMs: 5,
    retryMaxMs: 200,
    timeoutMs: 300,
    ...extra,
  });
}

const ask = { messages: [{ role: "user" as const, content: "Notes: the value is 7." }] };

Deno.test("ModelClient.chat() returns the answer through the openai client and sends the key", async () => {
  const server = startFakeOpenAIServer({});
  try {
    const c = client(server.baseUrl);
    const r = await c.chat(ask);
    assert.equal(r.content, "The value is 7.");
    assert.equal(r.cacheHit, false);
    assert.ok(r.promptTokens! > 0);
    assert.ok(server.authorizations.has(`Bearer ${SENTINEL}`));
  } finally {
    await server.close();
  }
});

for (const fault of ["429", "500", "hang", "malformed"] as Fault[]) {
  Deno.test(`ModelClient.chat() retries after ${fault} and then succeeds`, async () => {
    const server = startFakeOpenAIServer({ faults: [fault, fault] });
    try {
      const c = client(server.baseUrl);
      const r = await c.chat(ask);
      assert.equal(r.content, "The value is 7.");
      assert.equal(c.stats.retries, 2);
      assert.equal(server.requests, 3);
    } finally {
      await server.close();
    }
  });
}

Deno.test("ModelClient.chat() honours Retry-After on 429", async () => {
  const server = startFakeOpenAIServer({ faults: ["429"], retryAfterSeconds: 0.3 });
  try {
    const c = client(server.baseUrl, { retryMaxMs: 5000 });
    const t = performance.now();
    await c.chat(ask);
    assert.ok(performance.now() - t >= 280, "waited for Retry-After");
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat() fails with a redacted error after exhausted retries; 0 means none", async () => {
  const server = startFakeOpenAIServer({ faultFor: () => "500" });
  try {
    const c = client(server.baseUrl, { maxRetries: 2 });
    await assert.rejects(c.chat(ask), (e: Error) => {
      assert.equal(e.name, "ModelCallError");
      assert.match(e.message, /HTTP 500 after 3 attempt/);
      assert.ok(!e.message.includes(SENTINEL));
      return true;
    });
    assert.equal(server.requests, 3);
    const none = client(server.baseUrl, { maxRetries: 0 });
    await assert.rejects(none.chat(ask), /after 1 attempt/);
    assert.equal(server.requests, 4);
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat() does not retry a 404 client error", async () => {
  const server = startFakeOpenAIServer({});
  try {
    const c = client(server.baseUrl.replace("/v1", "/nope"));
    await assert.rejects(c.chat(ask), /HTTP 404 after 1 attempt/);
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat() makes zero requests on a cached rerun; trials have own slots", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/cache.sqlite`;
    let cache = new ResponseCache({ path });
    await client(server.baseUrl, { cache }).chat(ask);
    await client(server.baseUrl, { cache }).chat({ ...ask, trial: 1 });
    cache.close();
    assert.equal(server.requests, 2);
    cache = new ResponseCache({ path });
    const again = client(server.baseUrl, { cache });
    const r = await again.chat(ask);
    await again.chat({ ...ask, trial: 1 });
    assert.equal(r.cacheHit, true);
    assert.equal(server.requests, 2);
    cache.close();
    const bytes = await Deno.readFile(path);
    assert.ok(!new TextDecoder("latin1").decode(bytes).includes(SENTINEL));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ModelClient.chat() keeps at most `concurrency` requests in flight", async () => {
  let now = 0, peak = 0;
  const server = startFakeOpenAIServer({
    reply: () => "ok",
    latencyMs: 20,
  });
  try {
    const limiter = new RequestLimiter({ concurrency: 3 });
    const c = client(server.baseUrl, { limiter });
    await Promise.all(Array.from({ length: 9 }, (_, i) =>
      limiter.run(async () => {
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 1));
        now--;
      }).then(() => c.chat({ ...ask, trial: i }))));
    assert.ok(peak <= 3);
    assert.equal(server.requests, 9);
  } finally {
    await server.close();
  }
});
