/**
 * lib/mod.ts names its public API (issue 15, item 7): every export is listed by name, none is
 * `_`-prefixed (private helpers stay importable by path), and the list is what a notebook gets.
 */
import assert from "node:assert/strict";

const source = await Deno.readTextFile(new URL("../lib/mod.ts", import.meta.url));

/** The names of every `export { ... }` (values) and `export type { ... }` (types) in `text`. */
export function exportedNames(text: string): { values: string[]; types: string[] } {
  const values: string[] = [], types: string[] = [];
  for (const m of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from/g)) {
    const names = m[2].split(",").map((n) => n.trim()).filter((n) => n !== "")
      .map((n) => n.split(/\s+as\s+/).at(-1)!);
    (m[1] ? types : values).push(...names);
  }
  return { values, types };
}

Deno.test("lib/mod.ts names every export: no export *, no default, no inline declarations", () => {
  assert.doesNotMatch(source, /export\s+\*/);
  assert.doesNotMatch(source, /export\s+default/);
  assert.doesNotMatch(source, /export\s+(const|function|class|let|interface|type\s+\w+\s*=)/);
});

Deno.test("no name exported from lib/mod.ts starts with _", () => {
  const { values, types } = exportedNames(source);
  assert.ok(values.length > 200 && types.length > 100, `${values.length} values, ${types.length}`);
  assert.deepEqual([...values, ...types].filter((n) => n.startsWith("_")), []);
  assert.equal(new Set([...values, ...types]).size, values.length + types.length, "a name twice");
});

Deno.test("lib/mod.ts's value exports are exactly what an importer gets", async () => {
  const mg = await import("../lib/mod.ts");
  const { values } = exportedNames(source);
  assert.deepEqual(Object.keys(mg).sort(), [...values].sort());
  for (const name of values) assert.notEqual(mg[name as keyof typeof mg], undefined, name);
});

Deno.test("exportedNames() reads value and type lists, renames and line breaks", () => {
  const text = 'export { a, b as c } from "./x.ts";\nexport type {\n  T,\n  U,\n} from "./y.ts";\n';
  assert.deepEqual(exportedNames(text), { values: ["a", "c"], types: ["T", "U"] });
});
