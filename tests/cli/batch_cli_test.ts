import assert from "node:assert/strict";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { recordBatchExport } from "../../lib/run/batch/batch_plan_store.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const BATCH = new URL("../../lib/cli/batch.ts", import.meta.url).pathname;
const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const SENTINEL = "sk-SENTINEL-batch-never-export-4411";

async function run(script: string, args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr),
  };
}

async function setup() {
  const dir = await Deno.makeTempDir();
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 3 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  // Every model-backed stage at once: LLM ranker, writer, agent and judge.
  const args = (baseUrl: string, cache: string, out: string) => [
    "--stage",
    "writing",
    "--grid",
    "0,1",
    "--dataset",
    data,
    "--attack",
    "minja",
    "--agent",
    "llm:fake-1",
    "--ranker",
    "llm:self",
    "--writer",
    "llm:fake-1",
    "--judge",
    "llm:fake-1",
    "--base-url",
    baseUrl,
    "--bank-size",
    "20",
    "--cache",
    `${dir}/${cache}`,
    "--out",
    `${dir}/${out}`,
    "--quiet",
  ];
  return { dir, args };
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === "object"
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as never)[k])]))
    : v;
const canonical = (body: unknown) => JSON.stringify(sorted(body));
const read = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
const strip = (rows: TrialRow[]) =>
  rows.map((r) => JSON.stringify({ ...r, latencyMs: 0, cacheHit: null }));

full.test("batch export/import: three rounds, live bodies, then a sweep with zero requests", async () => {
  // A live run records the bodies the client really sends, and gives the reference rows.
  const sent: string[] = [];
  const live = startFakeOpenAIServer({
    reply: (body: ChatBody) => (sent.push(canonical(body)), majorityReply(body)),
  });
  const counting = startFakeOpenAIServer({});
  const { dir, args } = await setup();
  try {
    const liveRun = await run(SWEEP, args(live.baseUrl, "live.sqlite", "live.jsonl"));
    assert.equal(liveRun.code, 0, liveRun.out);

    // Batch: export, answer offline with the same scripted model, import; until nothing is left.
    const exported: string[] = [];
    const rounds: string[] = [];
    for (let round = 0; round < 6; round++) {
      const ex = await run(BATCH, [
        "export",
        ...args(counting.baseUrl, "batch.sqlite", "unused.jsonl"),
        "--batch-out",
        `${dir}/requests.jsonl`,
      ]);
      assert.equal(ex.code, 0, ex.out);
      if (/Nothing to export/.test(ex.out)) break;
      const said = /Round (\d+) of (\d+): (\d+) requests \(([^)]*)\)/.exec(ex.out);
      assert.ok(said, ex.out);
      rounds.push(`${said[1]}/${said[2]} ${said[4].replace(/ \d+/g, "")}`);
      const text = await Deno.readTextFile(`${dir}/requests.jsonl`);
      assert.ok(!text.includes(SENTINEL), "the API key must never be exported");
      assert.ok(!/batch-export-needs-no-key|authorization|api_key/i.test(text));
      const lines = text.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(said[3], String(lines.length));
      const results = lines.map((l, i) => {
        assert.deepEqual(Object.keys(l), ["custom_id", "method", "url", "body"]);
        assert.equal(l.method, "POST");
        assert.equal(l.url, "/v1/chat/completions");
        assert.match(l.custom_id, /^[0-9a-f]{64}$/);
        exported.push(canonical(l.body));
        return JSON.stringify({
          id: `batch_req_${i}`,
          custom_id: l.custom_id,
          response: {
            status_code: 200,
            request_id: `r${i}`,
            body: {
              choices: [{
                index: 0,
                message: { role: "assistant", content: majorityReply(l.body) },
                finish_reason: "stop",
              }],
              usage: { prompt_tokens: 10, completion_tokens: 2 },
            },
          },
          error: null,
        });
      });
      await Deno.writeTextFile(`${dir}/results.jsonl`, results.join("\n") + "\n");
      const im = await run(BATCH, [
        "import",
        "--batch-in",
        `${dir}/results.jsonl`,
        "--cache",
        `${dir}/batch.sqlite`,
      ]);
      assert.equal(im.code, 0, im.out);
      assert.match(im.out, new RegExp(`${lines.length} responses cached`));
    }
    // Ranking and writing in one round: each unit is written once whatever its rank.
    assert.deepEqual(rounds, ["1/3 ranking, writing", "2/3 agent", "3/3 judge"]);
    // Exactly the bodies the live client sent (the live run shares identical requests too).
    assert.deepEqual([...new Set(exported)].sort(), [...new Set(sent)].sort());
    assert.equal(exported.length, new Set(exported).size);
    assert.equal(exported.length, sent.length); // the live client also asks each body once

    // The sweep now completes from the cache: zero requests, the live run's rows. (Through
    // --then-sweep; importing the last results twice is harmless: first write wins.)
    const done = await run(BATCH, [
      "import",
      "--batch-in",
      `${dir}/results.jsonl`,
      "--then-sweep",
      ...args(counting.baseUrl, "batch.sqlite", "batch.jsonl"),
    ]);
    assert.equal(done.code, 0, done.out);
    assert.equal(counting.requests, 0);
    const rows = await read(`${dir}/batch.jsonl`);
    assert.ok(rows.every((r) => r.error === null && r.cacheHit === true));
    // Same bodies and scripted answers: same decisions (token counts differ: the fake results
    // say 10 and 2; the rows do not record the base URL).
    const decisions = (rs: TrialRow[]) =>
      strip(rs.map((r) => ({ ...r, promptTokens: null, completionTokens: null })));
    assert.deepEqual(decisions(rows), decisions(await read(`${dir}/live.jsonl`)));
  } finally {
    await live.close();
    await counting.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("batch import rejects a malformed line by number and field, and caches nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const good = {
      custom_id: "a".repeat(64),
      response: { status_code: 200, body: { choices: [{ message: { content: "ok" } }] } },
      error: null,
    };
    const bad = { ...good, custom_id: "b".repeat(64), response: { status_code: "200", body: {} } };
    await Deno.writeTextFile(
      `${dir}/out.jsonl`,
      `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`,
    );
    const r = await run(BATCH, [
      "import",
      "--batch-in",
      `${dir}/out.jsonl`,
      "--cache",
      `${dir}/c.sqlite`,
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.out, /line 2: response\.status_code/);
    const cache = new ResponseCache({ path: `${dir}/c.sqlite` });
    assert.equal(cache.size, 0);
    cache.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("batch import reports and skips failed requests, caching the rest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ok = (id: string) => ({
      custom_id: id,
      response: { status_code: 200, body: { choices: [{ message: { content: "ok" } }] } },
      error: null,
    });
    const lines = [
      ok("k1"),
      {
        custom_id: "k2",
        response: {
          status_code: 429,
          body: { error: { message: "Rate limit reached for requests", type: "rate_limit" } },
        },
        error: null,
      },
      { custom_id: "k3", response: null, error: { code: "batch_expired", message: "expired" } },
      {
        custom_id: "k4",
        response: {
          status_code: 401,
          body: { error: { message: `Incorrect API key provided: ${SENTINEL}.` } },
        },
        error: null,
      },
    ];
    await Deno.writeTextFile(`${dir}/out.jsonl`, lines.map((l) => JSON.stringify(l)).join("\n"));
    const r = await run(BATCH, [
      "import",
      "--batch-in",
      `${dir}/out.jsonl`,
      "--cache",
      `${dir}/c.sqlite`,
    ]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /1 responses cached/);
    // Each failed line with the provider's message, keys redacted.
    assert.match(r.out, /skipped line 2 \(k2\): HTTP 429: Rate limit reached for requests/);
    assert.match(r.out, /skipped line 3 \(k3\): error batch_expired expired/);
    assert.match(
      r.out,
      /skipped line 4 \(k4\): HTTP 401: Incorrect API key provided: \[REDACTED\]/,
    );
    assert.ok(!r.out.includes(SENTINEL));
    assert.match(r.out, /3 failed requests skipped/);
    const cache = new ResponseCache({ path: `${dir}/c.sqlite` });
    assert.equal(cache.size, 1);
    cache.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("batch import warns about custom_ids that no export with this cache planned", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cachePath = `${dir}/c.sqlite`;
    recordBatchExport({
      cachePath,
      round: 1,
      requests: [{ customId: "planned-1", phase: "ranking", body: { model: "m" } }],
    });
    const line = (id: string) =>
      JSON.stringify({
        custom_id: id,
        response: { status_code: 200, body: { choices: [{ message: { content: "ok" } }] } },
        error: null,
      });
    await Deno.writeTextFile(`${dir}/out.jsonl`, [line("planned-1"), line("stray-2")].join("\n"));
    const r = await run(BATCH, ["import", "--batch-in", `${dir}/out.jsonl`, "--cache", cachePath]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /2 responses cached/);
    assert.match(
      r.out,
      /warning: 1 custom_ids of .*out\.jsonl are in no export made with .*c\.sqlite \(first: stray-2\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("batch CLI names a missing subcommand or --batch-out", async () => {
  const none = await run(BATCH, []);
  assert.equal(none.code, 2);
  assert.match(none.out, /expected export or import/);
  const noOut = await run(BATCH, ["export", "--stage", "writing"]);
  assert.equal(noOut.code, 2);
  assert.match(noOut.out, /--batch-out: required/);
});
