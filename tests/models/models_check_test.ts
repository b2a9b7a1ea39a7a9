import assert from "node:assert/strict";
import { checkEndpoint } from "../../lib/models/check_endpoint.ts";
import { resolveModelEndpoint } from "../../lib/models/model_catalog.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { full } from "../support/tiers.ts";

const MODELS = new URL("../../lib/cli/models.ts", import.meta.url).pathname;
const SENTINEL = "sk-SENTINEL-models-check-5150-xyzw";

async function cli(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MODELS, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

Deno.test("checkEndpoint() finds what a GPT-5-like endpoint refuses and the catalog change", async () => {
  const server = startFakeOpenAIServer({
    modes: { reject: ["temperature", "max_tokens"], reasoning: "reasoning_content", noUsage: true },
  });
  try {
    const endpoint = resolveModelEndpoint({
      id: "gpt-5.4",
      baseUrl: server.baseUrl,
      env: { OPENAI_API_KEY: SENTINEL },
      overrides: { temperature: 0, maxTokensParam: "max_tokens" },
    });
    const check = await checkEndpoint({ endpoint });
    assert.equal(check.request.status, "ok");
    assert.equal(check.modelConfirmed, false);
    assert.deepEqual(
      [
        check.probes!.temperature.status,
        check.probes!.max_tokens.status,
        check.probes!.seed.status,
      ],
      ["refused", "refused", "ok"],
    );
    assert.equal(check.probes!.json_schema.status, "ok");
    assert.equal(check.reasoning, "field");
    assert.equal(check.usage, false);
    assert.deepEqual(check.changes, { maxTokensParam: "max_completion_tokens", temperature: null });
    // One minimal request per parameter and reply format, no more.
    assert.ok(server.requests <= 8, `${server.requests} requests`);
  } finally {
    await server.close();
  }
});

Deno.test("checkEndpoint(): json_object only (DeepSeek, GLM), <think> replies and fenced JSON", async () => {
  const server = startFakeOpenAIServer({
    modes: { reject: ["json_schema", "seed"], reasoning: "think", jsonStyle: "fenced" },
  });
  try {
    const endpoint = resolveModelEndpoint({
      id: "local",
      baseUrl: server.baseUrl,
      env: { OPENAI_API_KEY: SENTINEL },
    });
    const check = await checkEndpoint({ endpoint });
    assert.equal(check.probes!.json_schema.status, "refused");
    assert.equal(check.probes!.json_object.status, "wrapped");
    assert.equal(check.reasoning, "think");
    assert.deepEqual(check.changes, { seed: false, responseFormat: "json_object" });
  } finally {
    await server.close();
  }
});

full.test("deno task models check prints the table, the change, and exits 3 on an unreachable model without leaking its key", async () => {
  const picky = startFakeOpenAIServer({ modes: { reject: ["temperature"] } });
  const locked = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  try {
    const ok = await cli(["check", "--model", "local-a", "--base-url", picky.baseUrl]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /^model\s+name\s+request\s+temperature\s+seed\s+max_tokens/m);
    assert.match(ok.out, /^local-a\s+-\s+ok\s+refused\s+ok/m);
    assert.match(
      ok.out,
      /local-a: "temperature": null\n\s+--model-option local-a\.temperature=null/,
    );
    const bad = await cli(["check", "--model", "local-b", "--base-url", locked.baseUrl]);
    assert.equal(bad.code, 3, bad.out);
    assert.match(bad.out, /Could not check:\n\s+local-b \(local-b\): HTTP 401/);
    for (let i = 0; i + 8 <= SENTINEL.length; i++) {
      assert.ok(!bad.out.includes(SENTINEL.slice(i, i + 8)), bad.out);
    }
  } finally {
    await picky.close();
    await locked.close();
  }
});

full.test("deno task models check: bad input is one line and exit 2, before any request", async () => {
  for (
    const [args, message] of [
      [[], /expected check/],
      [["check", "--model", "nosuch"], /--model: unknown model "nosuch"/],
      [["check", "--base-url", "ftp://x"], /--base-url: .*expected an http\(s\) URL/],
      [["check", "--base-url", "http://127.0.0.1:9/v1"], /--model: required with --base-url/],
      [["check", "--model", "gpt-5.4", "--model-option", "gpt-5.4.seed=maybe"], /--model-option/],
      [["check", "--timeout", "soon"], /--timeout: expected an integer/],
      [["check", "--api-key-env", "K"], /--api-key-env: applies with --base-url only/],
      [["check", "--model", "gpt-5.4,"], /--model: an empty model id/],
      [["check", "--frobnicate"], /--frobnicate: unknown option/],
    ] as const
  ) {
    const r = await cli([...args]);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}`);
    assert.equal(r.out.trim().split("\n").length, 1, r.out);
    assert.match(r.out, message);
  }
});
