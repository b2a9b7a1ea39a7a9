/**
 * Validate a JSON value at the boundary with zod and say what was wrong in one sentence: the
 * source, the first failing field path and the value found there. Instance files and the kit's
 * bundled data files (lexicon, templates, demo scenarios) all fail this way.
 */
import type { z } from "zod";

/**
 * Parse `data` with `schema`; on failure throw a TypeError
 * `SOURCE: field.path[2]: expected ..., got VALUE (and N more issues)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { parseData } from "./parse_data.ts";
 * const schema = z.object({ words: z.array(z.string()) });
 * assert.deepEqual(parseData({ source: "words.json", schema, data: { words: ["a"] } }), { words: ["a"] });
 * assert.throws(() => parseData({ source: "words.json", schema, data: { words: [1] } }),
 *   /^TypeError: words.json: words\[0\]: expected string, got 1$/);
 * ```
 */
export function parseData<T extends z.ZodType>(options: {
  /** What the data is, for the message: a file name or path. */
  source: string;
  /** The schema the data must satisfy. */
  schema: T;
  /** The parsed JSON value. */
  data: unknown;
}): z.infer<T> {
  const { source, schema, data } = options;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const more = rest.length === 0
    ? ""
    : ` (and ${rest.length} more issue${rest.length > 1 ? "s" : ""})`;
  throw new TypeError(`${source}: ${describeIssue(first, data)}${more}`, { cause: result.error });
}

/** `instances[3].helpful.units[2].channel: expected one of user|assistant|tool, got "bot"`. */
export function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = _formatPath(issue.path);
  const value = _valueAt(raw, issue.path);
  return `${path}: ${_expectation(issue)}, got ${_formatValue(value)}`;
}

function _formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return "(file root)";
  return path.map((key, i) =>
    typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`
  ).join("");
}

function _expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${JSON.stringify(issue.values[0])}`
        : `expected one of ${issue.values.map(String).join("|")}`;
    default:
      // Zod's own sentence is already specific for sizes, formats and custom refinements.
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  }
}

function _valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Short rendering: whole scalars, sizes for arrays and objects, long strings truncated. */
function _formatValue(value: unknown): string {
  if (value === undefined) return "nothing (field missing)";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value !== null && typeof value === "object") {
    return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  }
  const shown = JSON.stringify(value);
  return shown.length > 80 ? `${shown.slice(0, 77)}..."` : shown;
}
