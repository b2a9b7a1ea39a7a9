/**
 * Redaction at every sink (issue 22): a key of any length from 8 characters, a password in a URL,
 * and a key the kit was never given but a provider echoes. Before: a 16-character key's masked
 * echo kept its 8-character prefix in rows.jsonl; `--base-url http://user:pass@...` put the
 * password in OUT.partial.json and in the printed retry command; `batch import` without the key
 * in the environment printed the echoed key.
 */
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function _sweep(
  options: { key: string; baseUrl: string; dir: string; whileRunning?: () => Promise<void> },
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}lib/cli/sweep.ts`,
      ...["--stage", "writing", "--limit", "2", "--agent", "llm:m", "--judge", "deterministic"],
      ...[
        "--base-url",
        options.baseUrl,
        "--max-retries",
        "0",
        "--cache",
        `${options.dir}/c.sqlite`,
      ],
      ...["--out", `${options.dir}/rows.jsonl`],
    ],
    env: { NO_COLOR: "1", OPENAI_API_KEY: options.key },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await options.whileRunning?.();
  const out = await child.output();
  return {
    code: out.code,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  };
}

/** Every file under `dir`, as text. */
async function _files(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile) {
      texts.push(new TextDecoder("latin1").decode(await Deno.readFile(`${dir}/${e.name}`)));
    }
  }
  return texts;
}

full.test("a 16-character key echoed raw and masked by a provider leaves no 8-character piece anywhere", async () => {
  const key = "sk-short-a1b2c3d";
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  const dir = await Deno.makeTempDir({ prefix: "mg-red16-" });
  try {
    const { code, text } = await _sweep({ key, baseUrl: server.baseUrl, dir });
    assert.equal(code, 3, text);
    for (const t of [text, ...await _files(dir)]) {
      for (let i = 0; i + 8 <= key.length; i++) {
        assert.ok(
          !t.includes(key.slice(i, i + 8)),
          `piece ${key.slice(i, i + 8)} in ${t.slice(0, 200)}`,
        );
      }
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("a password in --base-url reaches neither OUT.partial.json nor the printed retry command", async () => {
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true }, latencyMs: 100 });
  const dir = await Deno.makeTempDir({ prefix: "mg-redurl-" });
  const baseUrl = server.baseUrl.replace("http://", "http://alice:Hunter2Pass@");
  let manifest = "";
  try {
    const { code, text } = await _sweep({
      key: "sk-local-placeholder-0001",
      baseUrl,
      dir,
      whileRunning: async () => {
        for (let i = 0; i < 1000 && manifest === ""; i++) {
          manifest = await Deno.readTextFile(`${dir}/rows.jsonl.partial.json`).catch(() => "");
          await new Promise((r) => setTimeout(r, 5));
        }
      },
    });
    assert.equal(code, 3, text);
    assert.match(manifest, /"base-url": "http:\/\/\[REDACTED\]@127\.0\.0\.1:/);
    assert.match(
      text,
      /Rerun only them: deno task sweep .*--base-url http:\/\/\[REDACTED\]@127\.0\.0\.1:/,
    );
    for (const t of [manifest, text, ...await _files(dir)]) assert.ok(!t.includes("Hunter2Pass"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("batch import without the key in the environment prints no echoed key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mg-redbatch-" });
  const key = "sk-proj-Q7wErTy9UiOp1AsDfGh2";
  const masked = `${key.slice(0, 8)}${"*".repeat(12)}${key.slice(-4)}`;
  try {
    await Deno.writeTextFile(
      `${dir}/results.jsonl`,
      JSON.stringify({
        custom_id: "a".repeat(64),
        response: {
          status_code: 401,
          body: { error: { message: `Incorrect API key provided: ${key} (${masked}).` } },
        },
        error: null,
      }) + "\n",
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}lib/cli/batch.ts`,
        "import",
        "--batch-in",
        `${dir}/results.jsonl`,
        "--cache",
        `${dir}/c.sqlite`,
      ],
      env: { NO_COLOR: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.match(text, /Incorrect API key provided: \[REDACTED\] \(\[REDACTED\]\)/);
    for (let i = 0; i + 8 <= key.length; i++) assert.ok(!text.includes(key.slice(i, i + 8)), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
