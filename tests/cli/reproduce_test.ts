/** reproduce writes every file atomically and its manifest last: an interrupted set shows. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { full } from "../support/tiers.ts";

const REPRODUCE = new URL("../../lib/cli/reproduce.ts", import.meta.url).pathname;

const spawn = (out: string) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", REPRODUCE, "--limit", "1", "--out", out],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();

full.test("reproduce lists every file it wrote, with its hash, in manifest.json", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await spawn(dir).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
    assert.equal(manifest.complete, true);
    assert.equal(manifest.errorRows, 0);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      n !== "manifest.json"
    );
    assert.deepEqual(manifest.files.map((f: { file: string }) => f.file).sort(), files.sort());
    assert.ok(files.length >= 29, `${files.length} files`);
    assert.ok(!files.some((f) => f.startsWith(".")), "no temporary file left");
    for (const f of manifest.files) {
      const bytes = await Deno.readFile(`${dir}/${f.file}`);
      assert.equal(f.bytes, bytes.length);
      assert.equal(f.sha256, createHash("sha256").update(bytes).digest("hex"), f.file);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("an interrupted reproduce leaves no manifest, even where an old one was", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify({ complete: true, files: [] }));
    const child = spawn(dir);
    // Kill it once the first figure is there, long before the last.
    for (let i = 0; i < 600; i++) {
      if ([...Deno.readDirSync(dir)].some((e) => e.name === "figure3_stages.svg")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGKILL");
    await child.output();
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.ok(names.includes("figure3_stages.svg"));
    assert.ok(!names.includes("manifest.json"), names.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

full.test("reproduce prints a compact summary per figure and writes figures/index.html with every figure", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await spawn(dir).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    for (const name of ["figure3_writing", "figure5_rankers", "figure7_memory_size"]) {
      assert.match(stdout, new RegExp(`-> ${dir}/${name}\\.svg`));
    }
    assert.match(stdout, /Figure 3, management: median across agents/);
    assert.match(stdout, /demo\s+MINJA\s+ASR\s/);
    // Building instances is announced (on stderr, beside the progress bars).
    assert.match(stderr, /Built \d+ demo instances \(\|B\| = 100, trace load 1\)/);
    const html = await Deno.readTextFile(`${dir}/index.html`);
    const images = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(images.length >= 11, `${images.length} images`);
    for (const image of images) assert.ok(Deno.statSync(`${dir}/${image}`).isFile, image);
    assert.ok(!/https?:\/\//.test(html.replace(/<p>Written by[^\n]*/, "")), "no network address");
    // Every figure CSV says which backend produced it.
    for (const csv of [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".csv"))) {
      const header = (await Deno.readTextFile(`${dir}/${csv.name}`)).split("\n")[0];
      assert.match(header, /(^|,)backend(,|$)/, csv.name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test({
  name: "figures/index.html opens offline in headless Chromium with every image loaded",
  ignore: !hasChromium,
  async fn() {
    const dir = await Deno.makeTempDir();
    const profile = await Deno.makeTempDir();
    try {
      const out = await spawn(dir).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      // A copy of the page beside it, with a script that reports in the title whether every
      // image decoded: same folder, so the same relative image paths.
      const html = await Deno.readTextFile(`${dir}/index.html`);
      await Deno.writeTextFile(
        `${dir}/_check.html`,
        html.replace(
          "</body>",
          `<script>addEventListener("load", () => { const imgs = [...document.images]; ` +
            `const bad = imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src); ` +
            `document.title = bad.length ? "BROKEN " + bad.join(" ") : "LOADED " + imgs.length; });</script></body>`,
        ),
      );
      const chrome = await new Deno.Command(CHROMIUM, {
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          `--user-data-dir=${profile}`,
          "--virtual-time-budget=10000",
          "--dump-dom",
          `file://${dir}/_check.html`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dom = new TextDecoder().decode(chrome.stdout);
      const title = /<title>([^<]*)<\/title>/.exec(dom)?.[1] ?? "";
      const count = [...html.matchAll(/<img /g)].length;
      assert.equal(title, `LOADED ${count}`, new TextDecoder().decode(chrome.stderr).slice(-400));
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(profile, { recursive: true });
    }
  },
});

full.test("reproduce --dry-run plans every experiment: nothing sent, no file, --model list, --model-option and --api-key-env taken", async () => {
  const { startFakeOpenAIServer } = await import("../../lib/testing/fake_openai_server.ts");
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "memgauge-repro-dry-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        REPRODUCE,
        "--limit",
        "1",
        "--model",
        "fake-a,fake-b",
        "--base-url",
        server.baseUrl,
        "--api-key-env",
        "VLLM_API_KEY",
        "--model-option",
        "fake-a.responseFormat=json_object",
        "--model-option",
        "fake-a.prices.inputPer1M=1",
        "--model-option",
        "fake-a.prices.outputPer1M=2",
        "--max-cost",
        "5",
        "--cache",
        `${dir}/cache.sqlite`,
        "--out",
        `${dir}/figures`,
        "--dry-run",
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    assert.equal(server.requests, 0, "a dry run sends nothing");
    assert.deepEqual([...Deno.readDirSync(dir)], [], "and writes nothing");
    assert.match(out, /^DRY RUN: nothing was sent and no file was written\.$/m);
    assert.match(
      out,
      /every experiment of deno task reproduce on demo \(first 1 instances\) with llm:fake-a, llm:fake-b/,
    );
    assert.match(out, /^agent +[\d,]+ +[\d,]+ +0 +[\d,]+/m);
    assert.match(out, /^fake-a +[\d,]+ .* 1 \/ 2 /m);
    assert.match(out, /--max-cost 5: the plan's live cost \([\d.]+ USD\) stays under it/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("reproduce against a json_object-only endpoint: HTTP 400 named, and the printed command changes the request", async () => {
  const { startFakeOpenAIServer } = await import("../../lib/testing/fake_openai_server.ts");
  const server = startFakeOpenAIServer({ modes: { reject: ["json_schema"] } });
  const dir = await Deno.makeTempDir({ prefix: "memgauge-repro-400-" });
  try {
    const run = async (args: string[]) => {
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", REPRODUCE, ...args],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-2c8e4f6a1b9d3e7f5a0c2e4b" },
      }).output();
      return { code, err: new TextDecoder().decode(stderr) };
    };
    const first = await run([
      "--limit",
      "1",
      "--model",
      "fake-j",
      "--base-url",
      server.baseUrl,
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      `${dir}/figures`,
    ]);
    assert.equal(first.code, 3, first.err);
    assert.match(first.err, /error rows \(HTTP 400 invalid_parameter \(response_format\): \d+/);
    const line = /Run again with the request changed \(a new run\): deno task reproduce (.*)$/m
      .exec(first.err)?.[1];
    assert.ok(line?.includes("--model-option fake-j.responseFormat=json_object"), first.err);
    const fixed = await run(line!.split(" "));
    assert.equal(fixed.code, 0, fixed.err);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
