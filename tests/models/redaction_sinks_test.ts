/** The redaction layer at each sink it guards: console (logs, stderr), cache, batch import output. */
import assert from "node:assert/strict";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { registerSecret } from "../../lib/models/redact.ts";
import { full } from "../support/tiers.ts";

const SENTINEL = "sk-SENTINEL-sinks-2468-qrstuvwxyz";
const REDACT = new URL("../../lib/models/redact.ts", import.meta.url).href;
const BATCH = new URL("../../lib/cli/batch.ts", import.meta.url).pathname;

function assertClean(text: string) {
  for (let i = 0; i + 8 <= SENTINEL.length; i++) {
    assert.ok(!text.includes(SENTINEL.slice(i, i + 8)), `${SENTINEL.slice(i, i + 8)} in ${text}`);
  }
}

full.test("guardConsole(): strings, errors and objects printed by any library are redacted", async () => {
  const script = `import { guardConsole } from "${REDACT}";
    guardConsole();
    const key = Deno.env.get("OPENAI_API_KEY");
    console.log("sending", key);
    console.error(new Error("401 for " + key.slice(0, 12) + "****"));
    console.warn({ headers: { authorization: "Bearer " + key } });
    console.info("plain line stays");`;
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assertClean(text);
  assert.match(text, /plain line stays/);
  assert.match(text, /sending \[REDACTED\]/);
});

Deno.test("ResponseCache.set() stores values through the redaction layer", () => {
  registerSecret({ secret: SENTINEL });
  const cache = new ResponseCache({ path: ":memory:" });
  cache.set("k", { content: `echo ${SENTINEL}`, reasoning: `the key is ${SENTINEL.slice(3, 15)}` });
  assertClean(JSON.stringify(cache.get("k")));
  cache.close();
});

full.test("batch import reports a provider's error message without the key", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const line = JSON.stringify({
      custom_id: "a".repeat(64),
      response: null,
      error: { code: "invalid_api_key", message: `Incorrect API key provided: ${SENTINEL}` },
    });
    await Deno.writeTextFile(`${dir}/out.jsonl`, line + "\n");
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        BATCH,
        "import",
        "--batch-in",
        `${dir}/out.jsonl`,
        "--cache",
        `${dir}/c.sqlite`,
      ],
      env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.equal(code, 0, text);
    assert.match(text, /skipped line 1 .*invalid_api_key Incorrect API key provided: \[REDACTED\]/);
    assertClean(text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
