/** reproduce writes every file atomically and its manifest last: an interrupted set shows. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

const REPRODUCE = new URL("../../lib/cli/reproduce.ts", import.meta.url).pathname;

const spawn = (out: string) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", REPRODUCE, "--limit", "1", "--out", out],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();

Deno.test("reproduce lists every file it wrote, with its hash, in manifest.json", async () => {
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

Deno.test("an interrupted reproduce leaves no manifest, even where an old one was", async () => {
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
