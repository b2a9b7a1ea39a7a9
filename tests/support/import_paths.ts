/**
 * The relative imports of a TypeScript source text, read without running or type-checking it
 * (the layering test and the instance cache's builder-version test walk lib/ with it).
 */

// Block and line comments out, strings kept (a `//` inside "http://..." is not a comment).
function _stripComments(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i], next = source[i + 1];
    if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const IMPORT = new RegExp(
  [
    String.raw`(?:^|[\n;])\s*(?:import|export)\b[^;"'\x60]*?\bfrom\s*["']([^"']+)["']`,
    String.raw`(?:^|[\n;])\s*import\s*["']([^"']+)["']`,
    String.raw`\bimport\(\s*["']([^"']+)["']\s*[,)]`,
  ].join("|"),
  "g",
);

/** The relative import paths of one source text, in order. */
export function importPaths(source: string): string[] {
  const code = _stripComments(source);
  return [...code.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]).filter((p) =>
    p.startsWith(".")
  );
}
