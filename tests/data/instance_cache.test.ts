/** The on-disk instance cache: same bytes as a build, keyed by what a build depends on, self-healing. */
import assert from "node:assert/strict";
import { loadDataset } from "../../lib/data/datasets.ts";
import {
  BUILDER_FOLDERS,
  instanceCacheKey,
  instanceCachePath,
} from "../../lib/data/instance_cache.ts";
import { importPaths } from "../support/import_paths.ts";
import { FIXTURE_DIR } from "./_built.ts";

const BASE = { seed: 3, bankSize: 10, traceLoad: 1, dataDir: FIXTURE_DIR } as const;
const SETTINGS = [
  { name: "locomo", count: 8 },
  { name: "longmemeval", count: 5 },
] as const;

function _files(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("a cached build gives the same instances, to the byte, as an uncached one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const s of SETTINGS) {
      const plain = await loadDataset({ ...BASE, ...s, instanceCache: false });
      const first = await loadDataset({ ...BASE, ...s, instanceCache: { dir } });
      const again = await loadDataset({ ...BASE, ...s, instanceCache: { dir } });
      assert.ok(plain.length > 0);
      assert.equal(JSON.stringify(first), JSON.stringify(plain));
      assert.equal(JSON.stringify(again), JSON.stringify(plain));
      // Not only the same JSON: the same objects (no field undefined on one side, absent on other).
      assert.deepStrictEqual(again, plain);
    }
    assert.equal(_files(dir).length, SETTINGS.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a second load reads the cache file; rebuild: true builds and writes it again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const options = { ...BASE, name: "locomo", count: 8 };
    await loadDataset({ ...options, instanceCache: { dir } });
    const [name] = _files(dir);
    const path = `${dir}/${name}`;
    // A planted file with a valid header and checksum is what a second load returns: it read it.
    const text = await Deno.readTextFile(path);
    const header = JSON.parse(text.slice(0, text.indexOf("\n")));
    const body = JSON.stringify([{ id: "planted" }]);
    const { createHash } = await import("node:crypto");
    header.sha256 = createHash("sha256").update(body).digest("hex");
    await Deno.writeTextFile(path, `${JSON.stringify(header)}\n${body}`);
    const read = await loadDataset({ ...options, instanceCache: { dir } });
    assert.deepEqual(read, [{ id: "planted" }]);
    const rebuilt = await loadDataset({ ...options, instanceCache: { dir, rebuild: true } });
    assert.notEqual(rebuilt[0].id, "planted");
    assert.equal(await Deno.readTextFile(path), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt cache file is rebuilt with one warning naming it, and repaired", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const options = { ...BASE, name: "longmemeval", count: 5 };
    const built = await loadDataset({ ...options, instanceCache: { dir } });
    const path = `${dir}/${_files(dir)[0]}`;
    const good = await Deno.readTextFile(path);
    const corruptions = {
      truncated: good.slice(0, good.length / 2),
      "a flipped byte": good.replace(/"id":"(.)/, (_, c) => `"id":"${c === "x" ? "y" : "x"}`),
      "no header": JSON.stringify(built),
      "not JSON": "\u0000\u0001garbage",
      empty: "",
    };
    for (const [what, text] of Object.entries(corruptions)) {
      await Deno.writeTextFile(path, text);
      const warnings: string[] = [];
      const loaded = await loadDataset({
        ...options,
        instanceCache: { dir, warn: (l) => warnings.push(l) },
      });
      assert.equal(JSON.stringify(loaded), JSON.stringify(built), what);
      assert.equal(warnings.length, 1, `${what}: ${warnings}`);
      assert.match(warnings[0], /instance cache .* is unusable \(.+\); rebuilding it/, what);
      assert.ok(warnings[0].includes(path), what);
      assert.equal(await Deno.readTextFile(path), good, `${what}: repaired`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the cache key changes with the raw files, the seed and every build option", async () => {
  const data = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${data}/locomo`);
    await Deno.copyFile(`${FIXTURE_DIR}/locomo/locomo10.json`, `${data}/locomo/locomo10.json`);
    const base = {
      dataset: "locomo",
      sourceDirs: [`${data}/locomo`],
      seed: 3,
      bankSize: 10,
      traceLoad: 1,
    };
    const path = async (o: Partial<typeof base> & { count?: number } = {}) =>
      instanceCachePath({ dir: "c", key: (await instanceCacheKey({ ...base, ...o }))! });
    const first = await path();
    assert.equal(await path(), first);
    const others = [
      await path({ seed: 4 }),
      await path({ bankSize: 11 }),
      await path({ traceLoad: 1.25 }),
      await path({ count: 7 }),
      await path({ dataset: "longmemeval" }),
    ];
    await Deno.writeTextFile(`${data}/locomo/locomo10.json`, " ", { append: true });
    others.push(await path());
    await Deno.writeTextFile(`${data}/locomo/extra.json`, "[]");
    others.push(await path());
    assert.equal(new Set([first, ...others]).size, others.length + 1);
    // A missing raw folder is no key: the builder itself says what is missing.
    assert.equal(await instanceCacheKey({ ...base, sourceDirs: [`${data}/none`] }), null);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("an unwritable cache folder leaves the build uncached, with one warning", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const warnings: string[] = [];
    const instances = await loadDataset({
      ...BASE,
      name: "locomo",
      count: 8,
      instanceCache: { dir: `${dir}/file/sub`, warn: (l) => warnings.push(l) },
    });
    assert.ok(instances.length > 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot be written .*; not cached/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the builder version covers every lib/ folder a dataset build imports", async () => {
  const lib = new URL("../../lib/", import.meta.url);
  const seen = new Set<string>();
  const todo = [new URL("data/datasets.ts", lib).href];
  while (todo.length > 0) {
    const href = todo.pop()!;
    // The cache itself (it imports lib/io to write) is not part of the build.
    if (seen.has(href) || href.endsWith("/instance_cache.ts")) continue;
    seen.add(href);
    if (!href.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(href));
    for (const p of importPaths(source)) todo.push(new URL(p, href).href);
  }
  const folders = new Set([...seen].map((h) => h.slice(lib.href.length).split("/")[0]));
  assert.deepEqual([...folders].sort(), [...BUILDER_FOLDERS].sort());
});
