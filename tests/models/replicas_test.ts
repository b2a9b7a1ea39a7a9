/**
 * Many endpoints, one model (issue 21, item 7): a model served by several replicas (vLLM,
 * SGLang) spreads its requests over them with a limiter per endpoint, skips a replica that
 * fails, and keeps cache keys that do not depend on which replica answered.
 */
import assert from "node:assert/strict";
import { resolveModelEndpoint } from "../../lib/models/model_catalog.ts";
import { ModelClient } from "../../lib/models/model_client.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const ask = (i: number) => ({
  messages: [{ role: "user" as const, content: `the value is ${i}.` }],
});

Deno.test("resolveModelEndpoint(): --base-url A,B is one model on two replicas, the first named in cache keys", () => {
  const e = resolveModelEndpoint({
    id: "m",
    baseUrl: "http://a:8000/v1, http://b:8000/v1",
    env: { OPENAI_API_KEY: "k" },
  });
  assert.equal(e.baseUrl, "http://a:8000/v1");
  assert.deepEqual(e.baseUrls, ["http://a:8000/v1", "http://b:8000/v1"]);
  assert.equal(
    resolveModelEndpoint({ id: "m", baseUrl: "http://a/v1", env: { OPENAI_API_KEY: "k" } })
      .baseUrls,
    undefined,
  );
});

Deno.test("replicas: requests are spread with a limiter per endpoint, a dead or failing replica is skipped, and the cache key does not depend on the replica", async () => {
  const a = startFakeOpenAIServer({ latencyMs: 30 });
  const b = startFakeOpenAIServer({ latencyMs: 30 });
  // A replica that answers every request with a 500.
  const sick = startFakeOpenAIServer({ faultFor: () => "500" });
  const dead = "http://127.0.0.1:9/v1";
  const dir = await Deno.makeTempDir({ prefix: "memgauge-replicas-" });
  try {
    const cache = new ResponseCache({ path: `${dir}/cache.sqlite` });
    const models = modelSetup({
      cache,
      baseUrl: [a.baseUrl, b.baseUrl, sick.baseUrl, dead].join(","),
      concurrency: 3,
      retryBaseMs: 5,
      env: { OPENAI_API_KEY: "sk-replicas" },
    });
    const client: ModelClient = models.client("m");
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => client.chat(ask(i))));
    assert.deepEqual(results.map((r) => r.content), results.map((_, i) => `The value is ${i}.`));
    // Both healthy replicas took a share; neither had more than --concurrency in flight.
    assert.ok(a.requests >= 15 && b.requests >= 15, `${a.requests} and ${b.requests}`);
    assert.ok(a.peakInFlight <= 3 && b.peakInFlight <= 3, `${a.peakInFlight}, ${b.peakInFlight}`);
    // The failing replicas were tried, then skipped: a few requests, not a third each.
    assert.ok(sick.requests <= 6, `the failing replica got ${sick.requests} requests`);
    assert.equal(client.stats.errors, 0);
    models.close();

    // The same requests on the first endpoint alone (or another replica list starting with
    // it): every answer comes from the cache, whichever replica gave it.
    const alone = modelSetup({
      cache,
      baseUrl: `${a.baseUrl},${b.baseUrl}`,
      env: { OPENAI_API_KEY: "k" },
    });
    const before = a.requests + b.requests;
    for (let i = 0; i < 60; i++) {
      assert.equal((await alone.client("m").chat(ask(i))).cacheHit, true);
    }
    assert.equal(a.requests + b.requests, before);
    alone.close();
    cache.close();
  } finally {
    await Promise.all([a.close(), b.close(), sick.close()]);
    await Deno.remove(dir, { recursive: true });
  }
});
