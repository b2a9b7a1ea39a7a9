/**
 * Runs that end with error rows exit 3 and print their kinds and the exact --retry-errors
 * command, which then repairs them; --allow-errors exits 0; the Model calls line counts judge
 * replies that were rejected.
 */
import assert from "node:assert/strict";
import { jupyterAvailable } from "../../lib/cli/notebooks.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function cli(script: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}lib/cli/${script}`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-test-exit-codes" },
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A server that answers 401 until `healthy` is set, then like the scripted fake model. */
function flakyServer() {
  const state = { healthy: false, requests: 0 };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    state.requests++;
    const body = await req.json() as ChatBody;
    if (!state.healthy) {
      return Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 });
    }
    return Response.json({
      id: "x",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: majorityReply(body) },
      }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  return {
    state,
    baseUrl: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
    close: () => server.shutdown(),
  };
}

async function instances(dir: string) {
  const list = Array.from(
    { length: 2 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 20 }),
  );
  await Deno.writeTextFile(`${dir}/i.json`, JSON.stringify({ dataset: "x", instances: list }));
  return `${dir}/i.json`;
}

const errorRows = async (path: string) =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l))
    .filter((r) => r.error !== null).length;

full.test("sweep with every call failing exits 3, names the kind and the retry command, which repairs the rows", async () => {
  const server = flakyServer();
  const dir = await Deno.makeTempDir();
  try {
    const args = [
      "--stage",
      "writing",
      "--grid",
      "0,1",
      "--dataset",
      await instances(dir),
      "--bank-size",
      "20",
      "--attack",
      "minja",
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--max-retries",
      "0",
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      `${dir}/rows.jsonl`,
      "--quiet",
    ];
    const failed = await cli("sweep.ts", args);
    assert.equal(failed.code, 3, failed.stderr);
    assert.match(failed.stderr, /memgauge sweep: 8 of 8 rows are error rows \(HTTP 401: 8\)\./);
    assert.match(failed.stdout, /Model calls: \d+ requests, 0 cache hits, 0 retries, \d+ failed/);
    assert.equal(await errorRows(`${dir}/rows.jsonl`), 8);
    const retry = /Rerun only them: deno task sweep (.+)$/m.exec(failed.stderr)![1];
    assert.ok(retry.endsWith(" --retry-errors"));

    const allowed = await cli("sweep.ts", [...args, "--allow-errors"]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /8 of 8 rows are error rows[^]*--allow-errors/);

    // The printed command, as printed, on a server that now answers: nothing left to repair.
    server.state.healthy = true;
    const repaired = await cli("sweep.ts", retry.split(" "));
    assert.equal(repaired.code, 0, repaired.stderr);
    assert.equal(await errorRows(`${dir}/rows.jsonl`), 0);
    assert.doesNotMatch(repaired.stderr, /error rows/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep counts rejected judge replies as failed model calls", async () => {
  // The judge asks for JSON; this model answers prose, so every verdict is rejected.
  const server = startFakeOpenAIServer({
    reply: (body) => body.response_format ? "I think it is correct." : majorityReply(body),
  });
  const dir = await Deno.makeTempDir();
  try {
    const r = await cli("sweep.ts", [
      "--stage",
      "writing",
      "--grid",
      "1",
      "--dataset",
      await instances(dir),
      "--bank-size",
      "20",
      "--attack",
      "minja",
      "--agent",
      "llm:fake-1",
      "--judge",
      "llm:fake-judge",
      "--base-url",
      server.baseUrl,
      "--max-retries",
      "0",
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      `${dir}/rows.jsonl`,
      "--quiet",
    ]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /4 of 4 rows are error rows \(/);
    const calls =
      /Model calls: .* (\d+) failed \((\d+) after retries, (\d+) replies rejected as invalid\)/
        .exec(r.stdout);
    assert.ok(calls, r.stdout);
    assert.equal(Number(calls[2]), 0);
    assert.ok(Number(calls[3]) >= 4, calls[0]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("reproduce against a failing endpoint writes every file and the manifest, then exits 3", async () => {
  const server = flakyServer();
  const dir = await Deno.makeTempDir();
  try {
    const args = [
      "--limit",
      "1",
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--max-retries",
      "0",
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      `${dir}/figures`,
    ];
    const r = await cli("reproduce.ts", args);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /memgauge reproduce: (\d+) of \1 rows are error rows \(HTTP 401: \1\)/);
    assert.match(r.stderr, /Retry the failed calls .*: deno task reproduce .* --retry-errors$/m);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/figures/manifest.json`));
    assert.equal(manifest.complete, true);
    assert.ok(manifest.errorRows > 0 && manifest.errorRows === manifest.rows);
    assert.deepEqual(Object.keys(manifest.errorKinds), ["HTTP 401"]);
    const allowed = await cli("reproduce.ts", [...args, "--allow-errors"]);
    assert.equal(allowed.code, 0, allowed.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const jupyter = await jupyterAvailable();

Deno.test({
  name: "notebooks whose sweeps end with error rows exit 3 and name the notebooks to rerun",
  ignore: !jupyter,
  async fn() {
    const server = flakyServer();
    const dir = await Deno.makeTempDir();
    try {
      const r = await cli("notebooks.ts", [
        "03_",
        "--n",
        "2",
        "--agent",
        "llm:fake-1",
        "--base-url",
        server.baseUrl,
        "--cache",
        `${dir}/cache.sqlite`,
      ]);
      assert.equal(r.code, 3, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /ok {5}03_management\.ipynb \([\d.]+ s, (\d+) of \1 rows are error rows\)/,
      );
      assert.match(
        r.stderr,
        /memgauge notebooks: (\d+) of \1 rows are error rows \(HTTP 401: \1\)/,
      );
      assert.match(r.stderr, /: deno task notebooks .*--retry-errors 03_management$/m);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
