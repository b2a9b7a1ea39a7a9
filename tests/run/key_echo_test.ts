/**
 * A key echoed in 401 bodies (raw, masked, and as a Bearer header) appears in no file and no
 * output of sweep, batch import or reproduce, the retry command on exit 3 included.
 */
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const KEY = "sk-proj-Zq7vX2mN9pL4kR8tW1yB6cD3fG5hJ0aS";

async function task(script: string, args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}lib/cli/${script}.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: KEY },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr),
  };
}

/** Every 8-character piece of the key: none may appear anywhere. */
const PIECES = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));

function leaks(text: string): string[] {
  return PIECES.filter((p) => text.includes(p));
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

async function assertNoKey(dir: string, outputs: string[]) {
  for (const output of outputs) assert.deepEqual(leaks(output), [], output.slice(0, 400));
  for (const path of await filesUnder(dir)) {
    const bytes = new TextDecoder("latin1").decode(await Deno.readFile(path));
    assert.deepEqual(leaks(bytes), [], path);
  }
}

full.test("a key echoed in 401 bodies reaches no file and no output of sweep, batch import or reproduce", async () => {
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  const dir = await Deno.makeTempDir();
  try {
    const data = `${dir}/instances.json`;
    const instances = Array.from(
      { length: 3 },
      (_, i) =>
        syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 20 }),
    );
    await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
    // The key is also pasted into an argument, so the retry command echoes it.
    const baseUrl = `${server.baseUrl}?api-key=${KEY}`;
    const sweep = await task("sweep", [
      "--stage",
      "writing",
      "--grid",
      "0.5,1",
      "--dataset",
      data,
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
      "--max-retries",
      "0",
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      `${dir}/rows.jsonl`,
      "--quiet",
    ]);
    assert.equal(sweep.code, 3, sweep.out);
    assert.ok(server.requests > 0);
    assert.match(sweep.out, /HTTP 401/);
    assert.match(sweep.out, /Rerun only them: deno task sweep .*--retry-errors/);
    assert.match(sweep.out, /\[REDACTED\]/);
    const rows = await Deno.readTextFile(`${dir}/rows.jsonl`);
    assert.match(rows, /Incorrect API key provided: \[REDACTED\]/);

    // Batch import of output lines whose bodies echo the key.
    const key401 = {
      custom_id: "a".repeat(64),
      response: {
        status_code: 401,
        body: {
          error: {
            message: `Incorrect API key provided: ${KEY} (${KEY.slice(0, 8)}****${
              KEY.slice(-4)
            }). Authorization: Bearer ${KEY}`,
          },
        },
      },
      error: null,
    };
    const failed = {
      custom_id: "b".repeat(64),
      response: null,
      error: { code: "x", message: KEY },
    };
    await Deno.writeTextFile(
      `${dir}/output.jsonl`,
      [key401, failed].map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
    const imported = await task("batch", [
      "import",
      "--batch-in",
      `${dir}/output.jsonl`,
      "--cache",
      `${dir}/cache.sqlite`,
    ]);
    assert.equal(imported.code, 0, imported.out);
    assert.match(
      imported.out,
      /skipped line 1 .*HTTP 401: Incorrect API key provided: \[REDACTED\]/,
    );
    await Deno.remove(`${dir}/output.jsonl`); // the test's own input holds the key

    // reproduce against the same server.
    const reproduce = await task("reproduce", [
      "--out",
      `${dir}/figures`,
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--cache",
      `${dir}/cache.sqlite`,
      "--limit",
      "1",
      "--max-retries",
      "0",
    ]);
    assert.equal(reproduce.code, 3, reproduce.out);
    await assertNoKey(dir, [sweep.out, imported.out, reproduce.out]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
