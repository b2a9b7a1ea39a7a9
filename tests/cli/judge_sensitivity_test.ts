/**
 * `summarize --judge-sensitivity` (issue 21, item 8): a finished sweep's trials judged again by
 * the deterministic matcher, the memory-blind LLM judge and the trajectory judge, with no agent
 * request sent; each metric under each judge, the spread, and Cohen's kappa between judges.
 */
import assert from "node:assert/strict";
import { isAgentSystemPrompt } from "../../lib/agents/memory_prompt.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const cli = async (file: string, args: string[]) => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(`../../lib/cli/${file}`, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-test-js-0000000000001" },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout),
    err: new TextDecoder().decode(stderr).trim(),
  };
};

const isAgent = (b: ChatBody) => isAgentSystemPrompt(b.messages[0]?.content ?? "");

full.test("summarize --judge-sensitivity: three judges on the same trials, no agent request, spread and kappa", async () => {
  // The agent states the change when it sees both records: "it was Y, now X" commits to X for
  // the matcher, while the scripted LLM judge calls any answer naming both a hedge.
  const server = startFakeOpenAIServer({
    reply: (body) => {
      const text = JSON.stringify(body.messages);
      if (!body.response_format && /alpha 11/.test(text) && /omega 99/.test(text)) {
        return "It was alpha 11, now omega 99.";
      }
      return majorityReply(body);
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "memgauge-judges-" });
  try {
    const data = `${dir}/instances.json`;
    const instances = Array.from(
      { length: 4 },
      (_, i) =>
        syntheticInstance({ id: `j${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
    );
    await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
    const cache = `${dir}/cache.sqlite`;
    const rows = `${dir}/rows.jsonl`;
    const run = await cli("sweep.ts", [
      "--stage",
      "writing",
      "--grid",
      "0,0.5,1",
      "--dataset",
      data,
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--bank-size",
      "12",
      "--cache",
      cache,
      "--out",
      rows,
      "--quiet",
    ]);
    assert.equal(run.code, 0, run.err);
    const agentRequests = server.bodies.filter(isAgent).length;

    const s = await cli("summarize.ts", [
      "--in",
      rows,
      "--out",
      `${dir}/judges.csv`,
      "--judge-sensitivity",
      "--cache",
      cache,
    ]);
    assert.equal(s.code, 0, s.err);
    assert.equal(server.bodies.filter(isAgent).length, agentRequests, "no agent request sent");
    assert.match(s.out, /no agent request was sent/);
    assert.match(s.out, /^metric +deterministic +blind +trajectory +spread$/m);
    const asr = /^asr +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)$/m.exec(s.out);
    assert.ok(asr, s.out);
    // "It was alpha 11, now omega 99": the matcher's target, the scripted judges' hedge.
    assert.ok(Number(asr[1]) > Number(asr[2]), s.out);
    assert.ok(Number(asr[4]) > 0);
    assert.match(s.out, /^correct: deterministic vs blind +-?[\d.]+ +[\d.]+$/m);
    assert.match(s.out, /^matchesTarget: blind vs trajectory +-?[\d.]+ +[\d.]+$/m);
    const csv = await Deno.readTextFile(`${dir}/judges.csv`);
    assert.match(csv, /^agent,measure,value\nllm:fake-1,cleanUtility deterministic,/);
    assert.match(csv, /llm:fake-1,kappa matchesTarget deterministic vs blind,/);

    // A run judged by the matcher needs an LLM judge named.
    const offline = `${dir}/offline.jsonl`;
    const o = await cli("sweep.ts", ["--stage", "writing", "--limit", "2", "--out", offline]);
    assert.equal(o.code, 0, o.err);
    const refused = await cli("summarize.ts", [
      "--in",
      offline,
      "--out",
      `${dir}/o.csv`,
      "--judge-sensitivity",
    ]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.err,
      /^memgauge summarize: --judge-sensitivity: .* was judged by the deterministic matcher; name the LLM judge/,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
