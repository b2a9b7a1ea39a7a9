import assert from "node:assert/strict";
import { pathProblem } from "../../lib/io/path_problem.ts";
import { full } from "../support/tiers.ts";

/** Root ignores mode bits (tests run as root here and in CI): the immutable bit then. */
async function readOnly(path: string): Promise<() => Promise<void>> {
  if (Deno.uid() === 0) {
    const on = await new Deno.Command("chattr", { args: ["+i", path] }).output();
    assert.ok(on.success, "chattr +i failed");
    return async () => {
      await new Deno.Command("chattr", { args: ["-i", path] }).output();
    };
  }
  await Deno.chmod(path, Deno.statSync(path).isDirectory ? 0o555 : 0o444);
  return () => Deno.chmod(path, 0o755);
}

full.test("pathProblem() names each unusable path and changes nothing", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/ro`);
  await Deno.mkdir(`${dir}/sub`);
  await Deno.writeTextFile(`${dir}/file.txt`, "x");
  await Deno.writeTextFile(`${dir}/empty.txt`, "");
  await Deno.writeTextFile(`${dir}/locked.txt`, "x");
  await Deno.writeTextFile(`${dir}/bad.sqlite`, "not sqlite at all, just text");
  const restore = [await readOnly(`${dir}/ro`), await readOnly(`${dir}/locked.txt`)];
  try {
    const cases: [string, Parameters<typeof pathProblem>[0]["use"], RegExp | null][] = [
      ["out.csv", "output-file", null],
      ["file.txt", "output-file", null],
      ["missing/out.csv", "output-file", /directory ".*missing" does not exist/],
      ["sub", "output-file", /is a directory, not a file/],
      ["ro/out.csv", "output-file", /directory ".*ro" is not writable/],
      ["locked.txt", "output-file", /is read-only/],
      ["file.txt/out.csv", "output-file", /is not a directory/],
      ["file.txt", "input-file", null],
      ["nope.txt", "input-file", /does not exist/],
      ["sub", "input-file", /is a directory/],
      ["sub", "output-dir", null],
      ["new", "output-dir", null],
      ["missing/new", "output-dir", /does not exist/],
      ["file.txt", "output-dir", /is not a directory/],
      ["ro", "output-dir", /is not writable/],
      ["sub", "input-dir", null],
      ["nope", "input-dir", /does not exist/],
      ["c.sqlite", "database", null],
      ["deep/er/c.sqlite", "database", null],
      ["empty.txt", "database", null],
      ["bad.sqlite", "database", /is not a SQLite database/],
      ["sub", "database", /is a directory/],
      ["ro/c.sqlite", "database", /is not writable/],
      ["file.txt/c.sqlite", "database", /is not a directory/],
    ];
    const before = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    for (const [rel, use, expected] of cases) {
      const problem = pathProblem({ path: `${dir}/${rel}`, use });
      if (expected === null) assert.equal(problem, null, `${rel} as ${use}: ${problem}`);
      else assert.match(problem ?? "(null)", expected, `${rel} as ${use}`);
    }
    assert.match(
      pathProblem({ path: `${dir}/empty.txt`, use: "input-file", nonEmpty: true })!,
      /is empty/,
    );
    assert.equal(pathProblem({ path: "", use: "output-file" }), "the path is empty");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), before);
    assert.deepEqual([...Deno.readDirSync(`${dir}/ro`)], []);
  } finally {
    for (const r of restore) await r();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pathProblem() checks UTF-8 of a file larger than a read block, in blocks", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/rows.jsonl`;
  const block = 4 << 20;
  // "é" (2 bytes) straddles the first block boundary; "€" (3 bytes) the second.
  const bytes = new Uint8Array(2 * block + 10).fill(0x61);
  bytes.set([0xc3, 0xa9], block - 1);
  bytes.set([0xe2, 0x82, 0xac], 2 * block - 2);
  await Deno.writeFile(path, bytes);
  assert.equal(pathProblem({ path, use: "input-file", utf8: true }), null);
  bytes[2 * block + 5] = 0xff;
  await Deno.writeFile(path, bytes);
  assert.match(pathProblem({ path, use: "input-file", utf8: true })!, /offset 8388613\)/);
  // A character cut short by the end of the file.
  await Deno.writeFile(path, bytes.subarray(0, 2 * block - 1));
  assert.match(pathProblem({ path, use: "input-file", utf8: true })!, /offset 8388606\)/);
  // A bad continuation right after a boundary that split a character: the offset is the byte
  // that breaks it, as a decode of the whole file finds.
  bytes[2 * block + 5] = 0x61;
  bytes[2 * block] = 0x41;
  await Deno.writeFile(path, bytes);
  assert.match(pathProblem({ path, use: "input-file", utf8: true })!, /offset 8388608\)/);
  await Deno.remove(dir, { recursive: true });
});
