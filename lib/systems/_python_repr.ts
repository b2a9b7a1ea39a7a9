/**
 * Python's `repr` of strings and lists and `str.format`, so the ports' prompts show values
 * byte for byte as the Python upstream prints them (`['a', 'b']`, `{'content': 'x'}`).
 */

/**
 * Python 3 `repr(str)`: single quotes unless the text has a single quote and no double quote;
 * backslash, the quote and control characters escaped; printable Unicode kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyStr } from "./_python_repr.ts";
 * assert.equal(pyStr("it's"), `"it's"`);
 * assert.equal(pyStr("a\nb"), "'a\\nb'");
 * ```
 */
export function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + quote;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

/**
 * Python 3 `repr` of JSON-like values: str, int/float, bool, None, list, dict (insertion order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyRepr } from "./_python_repr.ts";
 * assert.equal(pyRepr(["a", "b"]), "['a', 'b']");
 * assert.equal(pyRepr({ content: "x" }), "{'content': 'x'}");
 * ```
 */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return pyStr(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (typeof v === "object") {
    return `{${
      Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyStr(k)}: ${pyRepr(x)}`)
        .join(", ")
    }}`;
  }
  return String(v);
}

/**
 * Python `str.format` with named fields: `{name}` takes `str(value)` (a list prints as its
 * repr), `{{` and `}}` are literal braces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyFormat } from "./_python_repr.ts";
 * assert.equal(pyFormat("{a} {{x}} {b}", { a: "hi", b: ["k"] }), "hi {x} ['k']");
 * ```
 */
export function pyFormat(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    if (!(name in values)) throw new RangeError(`format: no value for field {${name}}`);
    const v = values[name];
    return typeof v === "string" ? v : pyRepr(v);
  });
}
