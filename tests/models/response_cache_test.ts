import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  CACHE_SCHEMA_VERSION,
  CacheFileError,
  ResponseCache,
} from "../../lib/models/response_cache.ts";

async function tempDir() {
  return await Deno.makeTempDir({ prefix: "memgauge-cache-" });
}

Deno.test("ResponseCache creates its file on the first write only, and records its schema version", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/sub/cache.sqlite`;
    const cache = new ResponseCache({ path });
    assert.equal(cache.get("k"), undefined);
    assert.equal(cache.size, 0);
    assert.equal(await Deno.stat(path).then(() => true, () => false), false, "no file yet");
    cache.set("k", { content: "hi", promptTokens: 3 });
    cache.close();
    const db = new DatabaseSync(path);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as {
      value: string;
    };
    db.close();
    assert.equal(Number(row.value), CACHE_SCHEMA_VERSION);
    const again = new ResponseCache({ path });
    assert.deepEqual(again.get("k"), {
      content: "hi",
      reasoning: null,
      stopReason: null,
      promptTokens: 3,
      completionTokens: null,
    });
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ResponseCache reads a corrupt value as a miss and lets the next answer take its place", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/cache.sqlite`;
    const cache = new ResponseCache({ path });
    cache.set("good", { content: "ok" });
    cache.close();
    const db = new DatabaseSync(path);
    const put = db.prepare(
      "INSERT OR REPLACE INTO responses (key, value, created) VALUES (?, ?, 'x')",
    );
    put.run("torn", '{"content": "hal');
    put.run("shape", '{"content": 42}');
    db.close();
    const reopened = new ResponseCache({ path });
    assert.equal(reopened.get("torn"), undefined);
    assert.equal(reopened.get("shape"), undefined);
    reopened.set("torn", { content: "fixed" });
    assert.equal(reopened.get("torn")?.content, "fixed");
    assert.equal(reopened.get("good")?.content, "ok");
    reopened.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ResponseCache refuses a file that is not a cache in one line naming the file and what to do", async () => {
  const dir = await tempDir();
  try {
    for (
      const [name, bytes] of [
        [
          "text.sqlite",
          new TextEncoder().encode("this is not a database, it is a note\n".repeat(200)),
        ],
        ["zeros.sqlite", new Uint8Array(8192)],
      ] as const
    ) {
      const path = `${dir}/${name}`;
      await Deno.writeFile(path, bytes);
      assert.throws(() => new ResponseCache({ path }), (e: Error) => {
        assert.ok(e instanceof CacheFileError && e instanceof TypeError);
        assert.match(
          e.message,
          new RegExp(
            `^--cache ${dir}/${name}: .*; move the file away or pass another --cache path$`,
          ),
        );
        assert.ok(!e.message.includes("\n"));
        return true;
      });
    }
    const foreign = new DatabaseSync(`${dir}/foreign.sqlite`);
    foreign.exec("CREATE TABLE photos (id INTEGER)");
    foreign.close();
    assert.throws(
      () => new ResponseCache({ path: `${dir}/foreign.sqlite` }),
      /is a SQLite database but not a memgauge response cache \(tables photos\)/,
    );
    await Deno.mkdir(`${dir}/a-directory`);
    assert.throws(() => new ResponseCache({ path: `${dir}/a-directory` }), CacheFileError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ResponseCache refuses a cache written by a newer kit", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/cache.sqlite`;
    const first = new ResponseCache({ path });
    first.set("k", { content: "x" });
    first.close();
    const db = new DatabaseSync(path);
    db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    assert.throws(() => new ResponseCache({ path }), /cache schema 99, this kit reads 2/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ResponseCache reads a version-1 file (no meta table) and upgrades its version", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/v1.sqlite`;
    const db = new DatabaseSync(path);
    db.exec(
      "CREATE TABLE responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created TEXT NOT NULL)",
    );
    db.prepare("INSERT INTO responses VALUES ('k', ?, 'x')").run(
      JSON.stringify({ content: "old", promptTokens: 1, completionTokens: 2 }),
    );
    db.close();
    const cache = new ResponseCache({ path });
    assert.equal(cache.get("k")?.content, "old");
    assert.equal(cache.get("k")?.stopReason, null);
    cache.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
