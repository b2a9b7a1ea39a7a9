/** Executes every notebook through Jupyter when it is installed; says so visibly when not. */
import assert from "node:assert/strict";
import { jupyterAvailable } from "../../lib/cli/notebooks.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const NOTEBOOKS = new URL("../../lib/cli/notebooks.ts", import.meta.url).pathname;

const available = await jupyterAvailable();
if (!available) {
  console.log(
    "SKIPPED: Jupyter not installed (apt-get install -y jupyter-nbconvert python3-nbclient python3-ipykernel); notebooks not executed",
  );
}

Deno.test({
  name: "deno task notebooks runs every notebook without a cell error",
  ignore: !available,
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "notebooks"],
      env: { MEMGAUGE_N: "6" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    assert.match(text, /All 7 notebooks ran/);
  },
});

Deno.test({
  name: "notebooks run an llm: agent and judge against an OpenAI-compatible endpoint and say so",
  ignore: !available,
  async fn() {
    const server = startFakeOpenAIServer({});
    const dir = await Deno.makeTempDir();
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", NOTEBOOKS, "02_", "06_"],
        env: {
          MEMGAUGE_N: "2",
          MEMGAUGE_AGENT: "llm:fake-1",
          MEMGAUGE_JUDGE: "llm:fake-judge",
          MEMGAUGE_BASE_URL: server.baseUrl,
          MEMGAUGE_CACHE: `${dir}/cache.sqlite`,
          OPENAI_API_KEY: "sk-test-notebooks",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.ok(out.success, text);
      assert.ok(server.requests > 0);
      const outputs = /outputs in (.+)\)\./.exec(text)![1];
      const management = await Deno.readTextFile(`${outputs}/02_management.ipynb`);
      assert.match(
        management,
        /Agent backend: real model llm:fake-1, not the offline reference agent/,
      );
      assert.doesNotMatch(management, /Agent backend: offline reference agent/);
      const judge = await Deno.readTextFile(`${outputs}/06_judge_agreement.ipynb`);
      assert.match(judge, /judged by the matcher and llm:fake-judge\./);
      assert.ok(!text.includes("sk-test-notebooks"));
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
