/**
 * The folder layering of lib/ (issue 15, item 3): a folder imports only folders on a lower level,
 * never one above it nor a peer on its own level ("shared helpers move down, not sideways").
 * The graph is read from the source text of every lib/**.ts file: static `import ... from`,
 * `export ... from`, bare `import "..."` and `import("...")` with a literal path. Doc-comment
 * examples are not imports and are skipped.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { importPaths } from "./support/import_paths.ts";

/**
 * The declared order, lowest level first. Read from the real graph (December 2026) and kept as
 * data so that a new arrow has to be argued here, not slipped in.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Level 0: leaves. The row schemas (zod schemas, ids, usage), text matching, seeded randomness
  // and whole-file writes need nothing from the kit, so every other folder may use them.
  ["schema", "text", "random", "io"],
  // Level 1: the model client (any OpenAI-compatible endpoint) with its cache and limiter. It
  // uses text (reasoning tags) and random (backoff jitter), and everything that calls a model
  // sits above it. `testing` holds the fake servers: they speak the endpoint protocol and use
  // text; who may import them is restricted further by TESTING_IMPORTERS.
  ["models", "testing"],
  // Level 2: the pipeline's parts, independent of each other: the three memory stages, the
  // agents that answer, the judges that score, and the datasets that make instances.
  ["stages", "agents", "judges", "data"],
  // Level 3: reading rows. Statistics use judge label types (agreement); figures draw rows and
  // need only io and the policy order of the stages. Neither runs anything.
  ["stats", "figures"],
  // Level 4: running a sweep. It drives stages, agents and judges, and holds the error-row
  // builder and the bounded worker pool that every measurement shares.
  ["run"],
  // Level 5: the existing memory systems (Mem0, LangMem, A-Mem, Hindsight), measured through
  // agents, judges, the retention statistics and run's error rows and worker pool; and the trial
  // explorer, which reads rows and trajectory sidecars (the counterfactual's flip rule from run,
  // the display protocol from figures) and runs nothing.
  ["systems", "explore"],
  // Level 6: the plugin loader adds entries to every registry (policies, rankers, writers,
  // agents, judges, datasets, systems), so it sits above all of them.
  ["plugins"],
  // Level 7: experiments compose runs, statistics and figures into the notebooks' calls.
  ["experiments"],
  // Level 8: the command lines, on top of everything.
  ["cli"],
];

/**
 * lib files that may import lib/testing: the pipeline check runs the kit against the fake
 * servers on purpose (offline, labelled as a pipeline check). No other lib file may.
 */
export const TESTING_IMPORTERS: readonly string[] = ["lib/systems/pipeline_check.ts"];

/** One import: the importing file and the imported path, both relative to the repository. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** A rule broken by one import, as a sentence. */
export interface LayerViolation {
  edge: ImportEdge;
  reason: string;
}

/** The top folder under lib/ of a repository path, or null outside lib/ and for lib/mod.ts. */
export function topFolder(path: string): string | null {
  const parts = path.split("/");
  return parts[0] === "lib" && parts.length > 2 ? parts[1] : null;
}

/**
 * Every import that breaks the layering: an arrow to a higher level or to a peer on the same
 * level, a folder missing from the order, lib/mod.ts imported from inside lib, or lib/testing
 * imported by a file not in `testingImporters`.
 */
export function layerViolations(options: {
  edges: readonly ImportEdge[];
  layers: readonly (readonly string[])[];
  testingImporters: readonly string[];
}): LayerViolation[] {
  const level = new Map<string, number>();
  options.layers.forEach((folders, i) => folders.forEach((f) => level.set(f, i)));
  const out: LayerViolation[] = [];
  for (const edge of options.edges) {
    const a = topFolder(edge.from), b = topFolder(edge.to);
    if (edge.to === "lib/mod.ts" && edge.from.startsWith("lib/")) {
      out.push({ edge, reason: "lib/mod.ts is the public entry point, not for use inside lib" });
      continue;
    }
    if (a === null || b === null || a === b) continue;
    const la = level.get(a), lb = level.get(b);
    if (la === undefined || lb === undefined) {
      out.push({ edge, reason: `lib/${la === undefined ? a : b} is not in the declared order` });
    } else if (lb > la) {
      out.push({ edge, reason: `lib/${a} (level ${la}) imports lib/${b} above it (level ${lb})` });
    } else if (lb === la) {
      out.push({ edge, reason: `lib/${a} imports its peer lib/${b} (both level ${la})` });
    }
    if (b === "testing" && !options.testingImporters.includes(edge.from)) {
      out.push({ edge, reason: "lib/testing may be imported only by " + options.testingImporters });
    }
  }
  return out;
}

const root = new URL("../", import.meta.url).pathname;

async function _libEdges(): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(join(root, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        for (const spec of importPaths(await Deno.readTextFile(join(root, path)))) {
          edges.push({
            from: path,
            to: relative(root, normalize(join(root, dirname(path), spec))),
          });
        }
      }
    }
  };
  await walk("lib");
  return edges;
}

Deno.test("no lib folder imports one above it or a peer; lib/testing only where declared", async () => {
  const edges = await _libEdges();
  assert.ok(edges.length > 500, `read ${edges.length} imports: the scanner lost them`);
  const violations = layerViolations({
    edges,
    layers: LAYERS,
    testingImporters: TESTING_IMPORTERS,
  });
  assert.deepEqual(violations.map((v) => `${v.edge.from} -> ${v.edge.to}: ${v.reason}`), []);
  // Every folder under lib/ has a level, and every declared folder exists.
  const folders = [...Deno.readDirSync(join(root, "lib"))].filter((e) => e.isDirectory)
    .map((e) => e.name).sort();
  assert.deepEqual([...LAYERS.flat()].sort(), folders);
});

Deno.test("importPaths() reads static, type, re-export, bare and dynamic imports, not comments", () => {
  const source = [
    'import { a } from "../text/a.ts";',
    'import type {\n  B,\n  C,\n} from "../schema/b.ts";',
    'export { d } from "./d.ts";',
    'export * from "../io/e.ts";',
    'import "./side_effect.ts";',
    'const f = await import("../stats/f.ts");',
    'import data from "./g.json" with { type: "json" };',
    "import { h } from 'npm:zod';",
    '/**\n * @example\n * import { x } from "../cli/x.ts";\n */',
    '// import { y } from "../cli/y.ts";',
    'const url = "http://example.org/"; import { z } from "./z.ts";',
  ].join("\n");
  assert.deepEqual(importPaths(source), [
    "../text/a.ts",
    "../schema/b.ts",
    "./d.ts",
    "../io/e.ts",
    "./side_effect.ts",
    "../stats/f.ts",
    "./g.json",
    "./z.ts",
  ]);
});

Deno.test("layerViolations() catches a planted back-arrow, a peer arrow and a stray testing import", () => {
  const layers = [["low"], ["mid", "side"], ["high"], ["testing"]];
  const ok: ImportEdge[] = [
    { from: "lib/high/a.ts", to: "lib/mid/b.ts" },
    { from: "lib/mid/b.ts", to: "lib/low/c.ts" },
    { from: "lib/mid/b.ts", to: "lib/mid/inner/d.ts" },
    { from: "lib/high/a.ts", to: "data/models.json" },
    { from: "tests/x_test.ts", to: "lib/mod.ts" },
  ];
  const check = (edges: ImportEdge[]) =>
    layerViolations({ edges, layers, testingImporters: ["lib/high/allowed.ts"] })
      .map((v) => v.reason);
  assert.deepEqual(check(ok), []);
  assert.deepEqual(check([...ok, { from: "lib/low/c.ts", to: "lib/high/a.ts" }]), [
    "lib/low (level 0) imports lib/high above it (level 2)",
  ]);
  assert.deepEqual(check([{ from: "lib/mid/b.ts", to: "lib/side/s.ts" }]), [
    "lib/mid imports its peer lib/side (both level 1)",
  ]);
  assert.deepEqual(check([{ from: "lib/high/a.ts", to: "lib/new/n.ts" }]), [
    "lib/new is not in the declared order",
  ]);
  assert.deepEqual(check([{ from: "lib/high/a.ts", to: "lib/mod.ts" }]), [
    "lib/mod.ts is the public entry point, not for use inside lib",
  ]);
  // testing sits on top here, so the level rule fires too; the allowed file passes the list.
  assert.deepEqual(check([{ from: "lib/high/a.ts", to: "lib/testing/t.ts" }]), [
    "lib/high (level 2) imports lib/testing above it (level 3)",
    "lib/testing may be imported only by lib/high/allowed.ts",
  ]);
  assert.deepEqual(check([{ from: "lib/high/allowed.ts", to: "lib/testing/t.ts" }]), [
    "lib/high (level 2) imports lib/testing above it (level 3)",
  ]);
});
