import assert from "node:assert/strict";
import { withAtomicPath, writeFileAtomic } from "../../lib/io/atomic_write.ts";
import { full } from "../support/tiers.ts";

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("withAtomicPath() never shows a partial target: absent or old until the rename", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/summary.csv`;
    await withAtomicPath({ path }, async (tmp) => {
      await Deno.writeTextFile(tmp, "a,b\n");
      // Mid-write: the target does not exist yet; the temporary is hidden and marked.
      await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
      assert.match(tmp, /\/\.summary\.csv\.[0-9a-f]{8}\.tmp$/);
    });
    assert.equal(await Deno.readTextFile(path), "a,b\n");
    await withAtomicPath({ path }, async (tmp) => {
      await Deno.writeTextFile(tmp, "a,b\n1,2\n");
      assert.equal(await Deno.readTextFile(path), "a,b\n"); // the old file, whole
    });
    assert.equal(await Deno.readTextFile(path), "a,b\n1,2\n");
    assert.deepEqual(names(dir), ["summary.csv"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withAtomicPath() on a failed write removes the temporary and keeps the old file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/figure.svg`;
    await writeFileAtomic({ path, data: "<svg/>" });
    await assert.rejects(
      withAtomicPath({ path }, async (tmp) => {
        await Deno.writeTextFile(tmp, "<svg");
        throw new Error("renderer crashed");
      }),
      /renderer crashed/,
    );
    assert.equal(await Deno.readTextFile(path), "<svg/>");
    assert.deepEqual(names(dir), ["figure.svg"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("writeFileAtomic() writes bytes and text, and a killed writer leaves no target", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeFileAtomic({ path: `${dir}/b.png`, data: new Uint8Array([137, 80, 78, 71]) });
    assert.deepEqual([...await Deno.readFile(`${dir}/b.png`)], [137, 80, 78, 71]);
    // A process killed between writing and renaming: only the hidden temporary is left.
    const script = `${dir}/writer.ts`;
    const lib = new URL("../../lib/io/atomic_write.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { withAtomicPath } from ${JSON.stringify(lib)};
await withAtomicPath({ path: ${JSON.stringify(`${dir}/big.csv`)} }, async (tmp) => {
  await Deno.writeTextFile(tmp, "x".repeat(1 << 20));
  console.log("written");
  // Hang until killed: a timer keeps the event loop alive (a bare pending promise would not).
  await new Promise(() => setInterval(() => {}, 1000));
});`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script],
      stdout: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /written/);
    child.kill("SIGKILL");
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel();
    await assert.rejects(() => Deno.stat(`${dir}/big.csv`), Deno.errors.NotFound);
    assert.ok(names(dir).some((n) => /^\.big\.csv\.[0-9a-f]{8}\.tmp$/.test(n)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
