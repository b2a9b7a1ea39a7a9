import assert from "node:assert/strict";

/** Assert that `fn` rejects with an instance of `kind` whose message contains `text`. */
async function _rejectsWith(
  fn: () => Promise<unknown>,
  kind: abstract new (...args: never[]) => Error,
  text: string,
): Promise<void> {
  await assert.rejects(fn, (e: unknown) => {
    assert.ok(e instanceof kind, `expected ${kind.name}, got ${e}`);
    assert.ok(
      e.message.includes(text),
      `message ${JSON.stringify(e.message)} lacks ${JSON.stringify(text)}`,
    );
    return true;
  });
}
import { z } from "zod";
import { jsonPathAt, readJsonFile } from "../../lib/data/read_json_file.ts";
import { MissingDataFileError } from "../../lib/data/missing_data_file_error.ts";
import { LocomoFile } from "../../lib/data/locomo/locomo_schema.ts";
import { LongMemEvalFile } from "../../lib/data/longmemeval/longmemeval_schema.ts";
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { full } from "../support/tiers.ts";

Deno.test("readJsonFile() names the file and the zod path of a schema violation", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/locomo10.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify([{
      sample_id: "s",
      conversation: { speaker_a: "A", speaker_b: "B" },
      qa: [{ question: "q", evidence: [], category: 9 }],
    }]),
  );
  await _rejectsWith(
    () => readJsonFile({ path, schema: LocomoFile }),
    TypeError,
    `${path} at $[0].qa[0].category`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readJsonFile() names the file and the JSON path of a truncated file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/longmemeval_oracle.json`;
  const full = JSON.stringify([{
    question_id: "a",
    haystack_sessions: [[{ role: "user", content: "hello there" }]],
  }]);
  await Deno.writeTextFile(path, full.slice(0, full.indexOf("hello") + 3));
  await _rejectsWith(
    () => readJsonFile({ path, schema: LongMemEvalFile }),
    TypeError,
    `Invalid JSON in ${path} at $[0].haystack_sessions[0][0].content`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readJsonFile() says where to download a missing file", async () => {
  await _rejectsWith(
    () =>
      readJsonFile({
        path: "/nonexistent/x.json",
        schema: z.unknown(),
        url: "https://example.org/x.json",
      }),
    MissingDataFileError,
    "https://example.org/x.json",
  );
});

Deno.test("jsonPathAt() tracks array indices and object keys", () => {
  const text = '{"a": [1, {"b": [true, false';
  assert.deepEqual(jsonPathAt(text, text.length), "$.a[1].b[1]");
});

Deno.test("buildLocomo() on a malformed data dir fails naming the file and path", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/locomo`);
  await Deno.writeTextFile(`${dir}/locomo/locomo10.json`, '[{"sample_id": 3}]');
  await _rejectsWith(
    () => buildLocomo({ seed: 1, bankSize: 50, traceLoad: 1, dataDir: dir }),
    TypeError,
    "locomo10.json at $[0].sample_id",
  );
  await Deno.remove(dir, { recursive: true });
});

full.test("deno task data exits non-zero on a truncated file and names it", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/locomo`);
  await Deno.mkdir(`${dir}/longmemeval`);
  await Deno.writeTextFile(`${dir}/locomo/locomo10.json`, '[{"sample_id": "conv-1", "qa": [');
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "lib/cli/data.ts", "--stats", "--dataset", "locomo", "--data-dir", dir],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.deepEqual(out.code, 2);
  assert.deepEqual(stderr.includes("locomo10.json at $[0].qa"), true, stderr);
  await Deno.remove(dir, { recursive: true });
});

full.test("deno task data exits non-zero offline and names the URL", async () => {
  const dir = await Deno.makeTempDir();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "lib/cli/data.ts",
      "--stats",
      "--dataset",
      "longmemeval",
      "--data-dir",
      dir,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.deepEqual(out.code, 2);
  assert.deepEqual(stderr.includes("huggingface.co"), true, stderr);
  await Deno.remove(dir, { recursive: true });
});
