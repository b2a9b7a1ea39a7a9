import assert from "node:assert/strict";
import { MODEL_CATALOG, resolveModelEndpoint } from "../../lib/models/model_catalog.ts";
import { parseModelOptions } from "../../lib/models/model_options.ts";
import { FieldError } from "../../lib/schema/field_error.ts";

Deno.test("the catalog lists the paper's 11 models with capabilities and dated, unverified prices", () => {
  assert.equal(MODEL_CATALOG.length, 11);
  for (const m of MODEL_CATALOG) {
    assert.ok(
      m.maxTokens > 0 && ["max_tokens", "max_completion_tokens"].includes(m.maxTokensParam),
    );
    assert.ok(m.prices && m.prices.read.match(/^\d{4}-\d{2}-\d{2}$/) && m.prices.basis !== "");
    // Written offline: none may claim to have been read from the provider.
    assert.equal(m.prices.verified, false, m.id);
  }
  // Names that look guessed are marked.
  for (const id of ["gemini-3.1-flash", "grok-4.2-fast", "doubao-seed-2.0-pro"]) {
    const m = MODEL_CATALOG.find((x) => x.id === id)!;
    assert.equal(m.modelConfirmed, false, id);
    assert.match(m.note, /guessed/);
  }
  // Providers that document json_object only.
  for (const id of ["deepseek-v4-flash", "glm-5.1"]) {
    assert.equal(MODEL_CATALOG.find((x) => x.id === id)!.responseFormat, "json_object");
  }
  // GPT-5 family: no temperature, max_completion_tokens.
  const gpt = MODEL_CATALOG.find((x) => x.id === "gpt-5.4")!;
  assert.equal(gpt.temperature, null);
  assert.equal(gpt.maxTokensParam, "max_completion_tokens");
});

Deno.test("resolveModelEndpoint(): with --base-url a catalog id does not want the provider's key", () => {
  const env = { OPENAI_API_KEY: "sk-local-proxy-key", XAI_API_KEY: "xai-real-key-0000" };
  const e = resolveModelEndpoint({ id: "grok-4.3-high", baseUrl: "http://127.0.0.1:1/v1", env });
  assert.equal(e.apiKey, "sk-local-proxy-key");
  assert.equal(e.model, "grok-4.3");
  assert.equal(e.reasoningEffort, "high");
  const named = resolveModelEndpoint({
    id: "grok-4.3-high",
    baseUrl: "http://127.0.0.1:1/v1",
    apiKeyEnv: "PROXY_KEY",
    env: { PROXY_KEY: "proxy-key-123456" },
  });
  assert.equal(named.apiKey, "proxy-key-123456");
  assert.throws(
    () =>
      resolveModelEndpoint({
        id: "grok-4.3-high",
        baseUrl: "http://127.0.0.1:1/v1",
        env: { XAI_API_KEY: "x" },
      }),
    /environment variable OPENAI_API_KEY is not set .*--api-key-env NAME/,
  );
  // Without --base-url the catalog's variable is read.
  assert.equal(resolveModelEndpoint({ id: "grok-4.3-high", env }).apiKey, "xai-real-key-0000");
});

Deno.test("resolveModelEndpoint(): overrides replace catalog values, nulls included, and are validated", () => {
  const env = { OPENAI_API_KEY: "k" };
  const e = resolveModelEndpoint({
    id: "gemini-2.5-flash",
    env: { GEMINI_API_KEY: "g" },
    overrides: { temperature: null, responseFormat: "none", maxTokens: 100, model: "gemini-x" },
  });
  assert.deepEqual(
    [e.temperature, e.responseFormat, e.maxTokens, e.model],
    [null, "none", 100, "gemini-x"],
  );
  const priced = resolveModelEndpoint({
    id: "local",
    baseUrl: "http://127.0.0.1:1/v1",
    env,
    overrides: { "prices.inputPer1M": 0.1, "prices.outputPer1M": 0.2 },
  });
  assert.equal(priced.prices?.inputPer1M, 0.1);
  assert.equal(priced.prices?.verified, false);
  assert.throws(
    () =>
      resolveModelEndpoint({
        id: "local",
        baseUrl: "http://127.0.0.1:1/v1",
        env,
        overrides: { "prices.inputPer1M": 0.1 },
      }),
    /--model-option local\.prices\.outputPer1M: .*needs both/,
  );
});

Deno.test("parseModelOptions() types values by key and names the field in every error (a FieldError)", () => {
  const o = parseModelOptions({
    specs: [
      "gpt-5.4.temperature=0.3",
      "gpt-5.4.seed=false",
      "gpt-5.4.responseFormat=json_object",
      "gpt-5.4.maxTokensParam=max_tokens",
      "gpt-5.4.reasoningEffort=low",
      "gpt-5.4.prices.batchDiscount=null",
      "glm-5.1.model=glm-5.1-air",
    ],
  });
  assert.deepEqual(o.get("gpt-5.4"), {
    temperature: 0.3,
    seed: false,
    responseFormat: "json_object",
    maxTokensParam: "max_tokens",
    reasoningEffort: "low",
    "prices.batchDiscount": null,
  });
  assert.deepEqual(o.get("glm-5.1"), { model: "glm-5.1-air" });
  for (
    const [spec, message] of [
      ["gpt-5.4.temperature", /expected ID\.key=value/],
      ["gpt-5.4.temperature=hot", /"gpt-5.4.temperature=hot": /],
      ["gpt-5.4.temperature=9", /"gpt-5.4.temperature=9": /],
      ["gpt-5.4.maxTokens=0", /"gpt-5.4.maxTokens=0": /],
      ["gpt-5.4.maxTokens=1.5", /"gpt-5.4.maxTokens=1.5": /],
      ["gpt-5.4.responseFormat=xml", /"gpt-5.4.responseFormat=xml": /],
      ["gpt-5.4.seed=yes", /"gpt-5.4.seed=yes": /],
      ["nosuch.temperature=0", /unknown model "nosuch"/],
      [".temperature=0", /with a model id/],
    ] as const
  ) {
    assert.throws(() => parseModelOptions({ specs: [spec] }), (e: Error) => {
      assert.ok(e instanceof FieldError);
      assert.equal(e.field, "modelOptions");
      assert.match(e.message, /^modelOptions /);
      assert.match(e.message, message);
      return true;
    }, spec);
  }
  // With --base-url any model name is accepted.
  assert.deepEqual(
    parseModelOptions({ specs: ["qwen2.5-7b.temperature=null"], baseUrl: true }).get("qwen2.5-7b"),
    { temperature: null },
  );
});
