/**
 * A system model that never answers in JSON: every in-process system turns it into error rows
 * (never a memory that holds nothing), caches none of it, logs nothing of its own, and the CLI
 * exits 3. Before issue 22, mem0 and mem0-classic wrote rows with `error: null`, WR 0 and ASR 0
 * and exited 0 after logging the upstream parse error (2,684 and 4,026 stderr lines on 3 demo
 * instances); A-MEM silently made notes without keywords and exited 0.
 */
import assert from "node:assert/strict";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { measureSystem } from "../../lib/systems/measure.ts";
import { pipelineCheckReply } from "../../lib/systems/pipeline_check_reply.ts";
import { SYSTEMS } from "../../lib/systems/resolve_system.ts";
import { systemSetup } from "../../lib/systems/system_setup.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { demoInstances } from "./_setup.ts";
import { full } from "../support/tiers.ts";

const PROSE = "Sure! Here is what I found about that.";
const IN_PROCESS = SYSTEMS.filter((s) => s.needsModels).map((s) => s.name);

/** Run one system in process with a server whose replies `reply` gives; console captured. */
async function _run(name: string, reply: (body: ChatBody) => string, cache: ResponseCache) {
  const server = startFakeOpenAIServer({ reply });
  const logged: string[] = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  console.error = console.warn = console.log = (...a: unknown[]) => void logged.push(a.join(" "));
  try {
    const system = systemSetup({
      name,
      chatModel: "m",
      baseUrl: server.baseUrl,
      embeddingModel: "e",
      env: { OPENAI_API_KEY: "sk-Xq7Lm2Zp9Wv4" },
      cache,
      maxRetries: 0,
    });
    const rows = await measureSystem({
      system,
      instances: await demoInstances(2, 5),
      attacks: ["minja"],
      ks: [1, 5],
      agent: referenceAgent({ persona: "balanced" }),
      judge: deterministicJudge,
      runId: "unreadable",
      dataset: "demo",
      pipelineCheck: true,
    });
    return { rows: rows.filter((r) => r.condition !== "nomemory"), logged };
  } finally {
    Object.assign(console, saved);
    await server.close();
  }
}

const _script = (body: ChatBody) => pipelineCheckReply(body) ?? majorityReply(body);

for (const name of IN_PROCESS) {
  full.test(`${name}: an all-non-JSON system model gives error rows, logs nothing, caches nothing`, async () => {
    const cache = new ResponseCache({ path: ":memory:" });
    try {
      const bad = await _run(name, () => PROSE, cache);
      assert.ok(bad.rows.length > 0);
      assert.deepEqual(bad.rows.filter((r) => r.error === null).map((r) => r.pairId), []);
      for (const r of bad.rows) {
        assert.match(r.error!, /TypeError: .*reply is not/, r.error!);
        assert.deepEqual([r.admittedHelpful, r.admittedRisk, r.contextSize], [0, 0, 0]);
      }
      // Upstream's own parse-error logging never reaches the console.
      assert.deepEqual(bad.logged, []);
      // Nothing unreadable was cached: the same cache with a readable model gives no error row.
      const good = await _run(name, _script, cache);
      assert.deepEqual(good.rows.filter((r) => r.error !== null).map((r) => r.error), []);
    } finally {
      cache.close();
    }
  });
}

full.test("mem0-classic: a non-JSON ADD/UPDATE/DELETE decision (M1) is an error, not a managed memory", async () => {
  const cache = new ResponseCache({ path: ":memory:" });
  try {
    const { rows, logged } = await _run(
      "mem0-classic",
      (body) =>
        body.messages.some((m) => m.content.includes("smart memory manager"))
          ? PROSE
          : _script(body),
      cache,
    );
    const m1 = rows.filter((r) => r.management === "M1");
    assert.ok(
      m1.length > 0 && m1.every((r) => /decision reply is not readable/.test(r.error ?? "")),
    );
    assert.deepEqual(logged, []);
  } finally {
    cache.close();
  }
});

full.test("systems CLI: an all-non-JSON system model exits 3 with the error summary only", async () => {
  const server = startFakeOpenAIServer({ reply: () => PROSE });
  const dir = await Deno.makeTempDir({ prefix: "mg-unreadable-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../lib/cli/systems.ts", import.meta.url).pathname,
        ...[
          "--system",
          "mem0",
          "--agent",
          "llm:m",
          "--system-model",
          "m",
          "--embedding-model",
          "e",
        ],
        ...["--judge", "deterministic", "--base-url", server.baseUrl, "--limit", "2"],
        ...["--bank-size", "5", "--k", "1", "--attack", "minja", "--max-retries", "0"],
        ...["--cache", `${dir}/c.sqlite`, "--out", `${dir}/rows.jsonl`],
      ],
      env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-Xq7Lm2Zp9Wv4" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n");
    assert.equal(out.code, 3, stderr.join("\n"));
    assert.equal(stderr.length, 3, stderr.join("\n"));
    assert.match(stderr[0], /^memgauge systems: 8 of 12 rows are error rows \(TypeError: 8\)/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
