import assert from "node:assert/strict";
import { ModelCallError, ModelClient } from "../../lib/models/model_client.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { RequestLimiter } from "../../lib/models/request_limiter.ts";
import {
  type Fault,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";

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
      // Waiting out a 429 does not spend the retry budget: it is counted apart.
      assert.equal(fault === "429" ? c.stats.rateLimited : c.stats.retries, 2);
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

const ranked = {
  messages: [
    {
      role: "system" as const,
      content: 'Order the units. Reply as JSON: {"ranking": ["id", ...]}.',
    },
    { role: "user" as const, content: "[id=a] one\n[id=b] two" },
  ],
  responseFormat: {
    type: "json_schema",
    json_schema: {
      name: "ranking",
      schema: { type: "object", properties: { ranking: { type: "array" } } },
    },
  },
};
const rankingOf = (r: { content: string }) => {
  const v = JSON.parse(r.content);
  if (!Array.isArray(v.ranking)) throw new TypeError(`not a ranking: ${r.content}`);
};

for (const reasoning of ["think", "reasoning_content", "reasoning"] as const) {
  Deno.test(`ModelClient.chat() splits the answer from reasoning given as ${reasoning}`, async () => {
    const server = startFakeOpenAIServer({ modes: { reasoning } });
    try {
      const r = await client(server.baseUrl).chat(ask);
      assert.equal(r.content, "The value is 7.");
      assert.match(r.reasoning!, /^Let me think\. The records mention: the value is 7/);
      assert.equal(r.stopReason, "stop");
    } finally {
      await server.close();
    }
  });
}

Deno.test("ModelClient.chat(): finish_reason length is an error naming the limit, not retried, not cached", async () => {
  const server = startFakeOpenAIServer({ modes: { finishReason: "length" } });
  try {
    const cache = new ResponseCache({ path: ":memory:" });
    const c = client(server.baseUrl, { cache });
    await assert.rejects(c.chat({ ...ask, maxTokens: 64 }), (e: ModelCallError) => {
      assert.match(e.message, /^fake: truncated at max_tokens=64 \(finish_reason: length\)/);
      assert.equal(e.stopReason, "length");
      return true;
    });
    assert.equal(server.requests, 1);
    assert.equal(cache.size, 0);
    cache.close();
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): content_filter is an error row reason, not retried", async () => {
  const server = startFakeOpenAIServer({ modes: { finishReason: "content_filter" } });
  try {
    await assert.rejects(
      client(server.baseUrl).chat(ask),
      /content filter \(finish_reason: content_filter\)/,
    );
    assert.equal(server.requests, 1);
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): a null content is retried once, and its error names the finish reason", async () => {
  const server = startFakeOpenAIServer({ modes: { nullContent: true } });
  try {
    const c = client(server.baseUrl, { maxRetries: 4 });
    await assert.rejects(
      c.chat(ask),
      /fake: response has no message content \(finish_reason: stop\) after 2 attempt/,
    );
    assert.equal(server.requests, 2, "at most one retry, whatever --max-retries");
    server.modes = {};
    assert.equal((await c.chat(ask)).content, "The value is 7.");
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): a reply that fails validation is not cached; a healthy reply then is", async () => {
  let broken = true;
  const server = startFakeOpenAIServer({
    reply: (body) => (broken ? "I would rank a first." : majorityReply(body)),
  });
  try {
    const cache = new ResponseCache({ path: ":memory:" });
    const c = client(server.baseUrl, { cache });
    await assert.rejects(c.chat({ ...ranked, validate: rankingOf }), /not a ranking|JSON/);
    assert.equal(cache.size, 0);
    assert.equal(c.stats.rejected, 1);
    broken = false;
    const r = await c.chat({ ...ranked, validate: rankingOf });
    assert.deepEqual(JSON.parse(r.content), { ranking: ["a", "b"] });
    assert.equal(server.requests, 2);
    assert.equal((await c.chat({ ...ranked, validate: rankingOf })).cacheHit, true);
    assert.equal(server.requests, 2);
    cache.close();
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): a cached reply that fails validation is dropped and asked again", async () => {
  const server = startFakeOpenAIServer({});
  try {
    const cache = new ResponseCache({ path: ":memory:" });
    const c = client(server.baseUrl, { cache });
    // An invalid reply stored by an older kit (or a batch import).
    c.store(ranked, {
      content: "<think>hmm</think> no JSON",
      promptTokens: 1,
      completionTokens: 1,
    });
    const r = await c.chat({ ...ranked, validate: rankingOf });
    assert.equal(r.cacheHit, false);
    assert.equal(server.requests, 1);
    assert.equal((await c.chat({ ...ranked, validate: rankingOf })).cacheHit, true);
    cache.close();
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.body() sends what the endpoint accepts: temperature, seed, limit, effort, format", async () => {
  const server = startFakeOpenAIServer({
    modes: { reject: ["temperature", "seed", "json_schema", "max_tokens"] },
  });
  try {
    const c = new ModelClient({
      endpoint: {
        id: "picky",
        model: "picky-1",
        baseUrl: server.baseUrl,
        apiKey: SENTINEL,
        seed: false,
        extra: {},
        temperature: null,
        responseFormat: "json_object",
        maxTokensParam: "max_completion_tokens",
        maxTokens: 300,
        reasoningEffort: "low",
      },
    });
    const r = await c.chat({ ...ranked, validate: rankingOf });
    assert.deepEqual(JSON.parse(r.content), { ranking: ["a", "b"] });
    const body = server.bodies[0];
    assert.equal("temperature" in body || "seed" in body || "max_tokens" in body, false);
    assert.equal(body.max_completion_tokens, 300);
    assert.equal(body.reasoning_effort, "low");
    assert.deepEqual(body.response_format, { type: "json_object" });
    // The schema went into the prompt; the system prompt is unchanged.
    assert.equal(body.messages[0].content, ranked.messages[0].content);
    assert.match(body.messages[1].content, /JSON schema:\n\{"type":"object"/);
    // The same request on a default endpoint is refused by this server, in one redacted line.
    await assert.rejects(
      client(server.baseUrl).chat(ranked),
      /HTTP 400 after 1 attempt.*temperature/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): every request carries a max-token limit; missing usage is null", async () => {
  const server = startFakeOpenAIServer({ modes: { noUsage: true } });
  try {
    const r = await client(server.baseUrl).chat(ask);
    assert.equal(server.bodies[0].max_tokens, 4096);
    assert.equal(r.promptTokens, null);
    assert.equal(r.completionTokens, null);
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): a burst of 40 429s does not use up --max-retries; the wait has its own bound", async () => {
  const server = startFakeOpenAIServer({
    faults: Array(40).fill("429"),
    retryAfterSeconds: 0.01,
  });
  try {
    const limiter = new RequestLimiter({ concurrency: 8 });
    const c = client(server.baseUrl, { maxRetries: 1, limiter });
    const rows = await Promise.all(
      Array.from({ length: 8 }, (_, trial) => c.chat({ ...ask, trial })),
    );
    assert.ok(rows.every((r) => r.content === "The value is 7."));
    assert.equal(c.stats.rateLimited, 40);
    assert.equal(c.stats.errors, 0);
    assert.ok(limiter.stats.decreases > 0, "the window shrank");
    // A provider that never stops saying 429: the call fails once its wait bound is spent.
    const stuck = startFakeOpenAIServer({ faultFor: () => "429", retryAfterSeconds: 0.05 });
    try {
      const s = client(stuck.baseUrl, { rateLimitWaitMs: 300 });
      await assert.rejects(s.chat(ask), /HTTP 429 .*still rate-limited after waiting/);
    } finally {
      await stuck.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): exhausted x-ratelimit headers hold this endpoint until the reset", async () => {
  const server = startFakeOpenAIServer({ modes: { rateLimit: { requests: 3, windowMs: 300 } } });
  try {
    const c = client(server.baseUrl);
    const t = performance.now();
    for (let trial = 0; trial < 6; trial++) await c.chat({ ...ask, trial });
    // The third answer said "0 remaining": the client waited for the window, no 429 came.
    assert.equal(c.stats.rateLimited, 0);
    assert.equal(server.requests, 6);
    assert.ok(performance.now() - t >= 250);
  } finally {
    await server.close();
  }
});

Deno.test("ModelClient.chat(): a key echoed in a 401 body (raw, masked, Bearer) never reaches the error", async () => {
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  try {
    await assert.rejects(client(server.baseUrl).chat(ask), (e: Error) => {
      assert.match(e.message, /HTTP 401 after 1 attempt/);
      for (let i = 0; i + 8 <= SENTINEL.length; i++) {
        assert.ok(!e.message.includes(SENTINEL.slice(i, i + 8)), e.message);
      }
      assert.ok(!/Bearer (?!\[REDACTED\])/.test(e.message), e.message);
      return true;
    });
  } finally {
    await server.close();
  }
});
