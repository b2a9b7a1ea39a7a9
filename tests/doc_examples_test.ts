/**
 * Runs every `@example` of lib/ and tests/ (each ```ts block of a JSDoc comment), as `deno test --doc` does,
 * but in this one isolate: `--doc` starts a fresh worker per block and loads the documented
 * module's whole graph again each time (409 blocks, about 2 minutes of CPU, 87% of it loading),
 * where one isolate loads each module once. Each block is written to a module of its own (its
 * relative imports made absolute) and imported by its own test, named `lib/FILE.ts#FIRST-LAST`
 * as `--doc` names it. An example that fails here runs again alone in a fresh isolate (a Web
 * Worker, as `--doc` would run it) before it counts as failed: examples that register a plugin or
 * guard the console leave that behind for the next. The blocks are type-checked by `deno check --doc lib/ tests/` (the test tasks
 * run it first), since a module imported by a computed path is not in the checked graph.
 */
import { full } from "./support/tiers.ts";

const ROOT = new URL("../", import.meta.url);

/** Examples that start a subprocess (the explorer bundles its script with `deno bundle`). */
const STARTS_A_PROCESS = ["lib/explore/explorer_page.ts", "lib/explore/explorer_script.ts"];

/** One example: where it is and its code. */
interface Example {
  file: string;
  first: number;
  last: number;
  code: string;
}

/** The ```ts blocks of the JSDoc comments of a source text (```ts ignore is left out). */
export function examplesOf(file: string, source: string): Example[] {
  const out: Example[] = [];
  const lines = source.split("\n");
  let inDoc = false;
  let block: { first: number; lines: string[] } | null = null;
  lines.forEach((line, i) => {
    if (!inDoc && /^\s*\/\*\*/.test(line)) inDoc = true;
    if (inDoc) {
      const text = line.replace(/^\s*\/?\*+\/?\s?/, "");
      if (block === null && /^```(ts|typescript)\s*$/.test(text.trim())) {
        block = { first: i + 1, lines: [] };
      } else if (block !== null && /^```\s*$/.test(text.trim())) {
        out.push({ file, first: block.first, last: i + 1, code: block.lines.join("\n") });
        block = null;
      } else if (block !== null) block.lines.push(text);
    }
    if (inDoc && line.includes("*/")) {
      inDoc = false;
      block = null;
    }
  });
  return out;
}

async function _sources(dir: URL, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory) out.push(...await _sources(new URL(`${entry.name}/`, dir), rel));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out.sort();
}

/** The example's code with its relative imports made absolute (it runs from another folder). */
function _absolute(example: Example): string {
  const base = new URL(example.file, ROOT);
  return example.code.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)(["'])(\.{1,2}\/[^"']+)\2/gm,
    (_, head, quote, path) => `${head}${quote}${new URL(path, base).href}${quote}`,
  );
}

/** Run one example module in a fresh isolate; throws what it threw there. */
async function _alone(href: string): Promise<void> {
  const worker = new Worker(new URL("./support/doc_example_worker.ts", import.meta.url), {
    type: "module",
  });
  const reply = await new Promise<{ ok: boolean; error?: string }>((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => (e.preventDefault(), resolve({ ok: false, error: e.message }));
    worker.postMessage({ href });
  });
  worker.terminate();
  if (!reply.ok) throw new Error(`in a fresh isolate too: ${reply.error}`);
}

// Inside the repository (git-ignored), so bare imports resolve through deno.json as in lib/.
await Deno.mkdir(new URL(".memgauge/", ROOT), { recursive: true });
const DIR = await Deno.makeTempDir({
  dir: new URL(".memgauge/", ROOT).pathname,
  prefix: "doc-examples-",
});
globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(DIR, { recursive: true });
  } catch { /* already gone */ }
});

let n = 0;
const files = [
  ...await _sources(new URL("lib/", ROOT), "lib"),
  ...await _sources(new URL("tests/", ROOT), "tests"),
];
for (const file of files) {
  const examples = examplesOf(file, await Deno.readTextFile(new URL(file, ROOT)));
  for (const example of examples) {
    const path = `${DIR}/${String(n++).padStart(4, "0")}.ts`;
    await Deno.writeTextFile(path, _absolute(example));
    const name = `${file}#${example.first}-${example.last}`;
    const test = STARTS_A_PROCESS.includes(file) ? full.test : Deno.test;
    const href = new URL(`file://${path}`).href;
    test(name, async () => {
      try {
        await import(href);
      } catch {
        await _alone(href);
      }
    });
  }
}
