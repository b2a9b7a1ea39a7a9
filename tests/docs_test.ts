/**
 * The README and docs/ stay navigable (issue 24, item 5): the README is short, names every task and
 * the test command CI runs, and every relative link in README.md and docs/*.md reaches a file and,
 * with a `#fragment`, a heading of that file.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";

const root = new URL("../", import.meta.url).pathname;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** A markdown text without its fenced code blocks (their `#` lines and brackets are code). */
function _withoutFences(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").filter((line) => {
    if (line.trimStart().startsWith("```")) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The anchors of a markdown file's headings, numbered as GitHub numbers repeats (`x`, `x-1`). */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of _withoutFences(markdown)) {
    const m = line.match(/^#{1,6}\s+(.*)$/);
    if (!m) continue;
    const slug = headingSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The link targets of a markdown text: inline `[text](target)` and reference `[id]: target`. */
export function linkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const line of _withoutFences(markdown)) {
    const text = line.replace(/`[^`]*`/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]);
    const ref = text.match(/^\[[^\]]+\]:\s*(\S+)/);
    if (ref) out.push(ref[1]);
  }
  return out;
}

const DOCS = [
  "README.md",
  ...[...Deno.readDirSync(join(root, "docs"))].filter((e) => e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`).sort(),
];

Deno.test("every relative link in README.md and docs/ reaches a file and a heading", async () => {
  const broken: string[] = [];
  for (const file of DOCS) {
    const text = await Deno.readTextFile(join(root, file));
    for (const target of linkTargets(text)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, fragment] = target.split("#");
      const to = path === "" ? file : relative(root, normalize(join(root, dirname(file), path)));
      let body: string;
      try {
        body = await Deno.readTextFile(join(root, to));
      } catch {
        broken.push(`${file}: ${target} (no file ${to})`);
        continue;
      }
      if (fragment !== undefined && !headingAnchors(body).has(fragment)) {
        broken.push(`${file}: ${target} (no heading #${fragment} in ${to})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("the README is under 250 lines and names every task and the test command CI runs", async () => {
  const readme = await Deno.readTextFile(join(root, "README.md"));
  const lines = readme.split("\n").length;
  assert.ok(lines < 250, `README.md has ${lines} lines; move detail into docs/`);
  const tasks = Object.keys(JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).tasks);
  const missing = tasks.filter((t) => !readme.includes(`\`deno task ${t}`));
  assert.deepEqual(missing, [], "tasks missing from the README's table");
  // .ci/run runs `deno task test`, the command the README's quick start gives.
  const ci = await Deno.readTextFile(join(root, ".ci/run"));
  assert.match(ci, /^deno task test\b/m);
  assert.match(readme, /```sh\n(?:.*\n)*?deno task test\n(?:.*\n)*?```/);
});

Deno.test("docs/README.md links every page of docs/", async () => {
  const index = linkTargets(await Deno.readTextFile(join(root, "docs/README.md")));
  const pages = DOCS.filter((f) => f.startsWith("docs/") && f !== "docs/README.md")
    .map((f) => f.slice("docs/".length));
  assert.deepEqual(pages.filter((p) => !index.includes(p)), []);
});

Deno.test("headingSlug() and linkTargets() read headings and links as GitHub does", () => {
  assert.equal(
    headingSlug("Existing memory systems (Tables 1 and 2)"),
    "existing-memory-systems-tables-1-and-2",
  );
  assert.equal(
    headingSlug("Interrupted runs: resume, lock, overwrite"),
    "interrupted-runs-resume-lock-overwrite",
  );
  assert.equal(
    headingSlug("Example (synthetic instance, rendered with `renderInstance`)"),
    "example-synthetic-instance-rendered-with-renderinstance",
  );
  assert.deepEqual([...headingAnchors("# A\n```sh\n# not a heading\n```\n## A\n")], ["a", "a-1"]);
  assert.deepEqual(
    linkTargets(
      "[a](x.md#y) `[no](code.md)` ![img](f.png)\n[ref]: docs/z.md\n```\n[no](n.md)\n```",
    ),
    ["x.md#y", "f.png", "docs/z.md"],
  );
});

Deno.test("no doc example uses console.assert, which cannot fail", async () => {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(join(root, dir))) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|md)$/.test(e.name)) {
        const text = await Deno.readTextFile(join(root, path));
        if (text.includes("console.assert(")) found.push(path);
      }
    }
  };
  for (const dir of ["lib", "docs"]) await walk(dir);
  if ((await Deno.readTextFile(join(root, "README.md"))).includes("console.assert(")) {
    found.push("README.md");
  }
  assert.deepEqual(found, []);
});
