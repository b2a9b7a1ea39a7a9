/**
 * Read an InstanceFile JSON from disk and validate it at the boundary, so a bad file fails with
 * its name, the field path and the offending value instead of deep inside a sweep.
 */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { InstanceFile } from "../model/instance.ts";

/**
 * Read and validate an instance file (the shape the sweep accepts via `--dataset file.json`).
 *
 * Errors name the file (relative to the working directory when inside it) and, for schema
 * violations, the first failing field with its value, e.g.
 * `data/demo/instances.json: instances[3].helpful.units[2].channel: expected one of
 * user|assistant|tool, got "bot"`. Unreadable files and invalid JSON throw a TypeError too.
 *
 * @param path File path or `file:` URL of the JSON file.
 * @returns The parsed file, with schema defaults filled in.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadInstanceFile } from "./load_instance_file.ts";
 * const file = await loadInstanceFile(new URL("../../data/demo/instances.json", import.meta.url));
 * strictEqual(file.dataset, "demo");
 * ```
 */
export async function loadInstanceFile(path: string | URL): Promise<InstanceFile> {
  const name = _displayName(path);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new TypeError(`${name}: cannot read instance file (${(error as Error).message})`, {
      cause: error,
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${name}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const result = InstanceFile.safeParse(raw);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const more = rest.length === 0
    ? ""
    : ` (and ${rest.length} more issue${rest.length > 1 ? "s" : ""})`;
  throw new TypeError(`${name}: ${_describeIssue(first, raw)}${more}`, { cause: result.error });
}

/** Show a path relative to the working directory when it lies inside it. */
function _displayName(path: string | URL): string {
  const absolute = path instanceof URL ? fileURLToPath(path) : path;
  if (!isAbsolute(absolute)) return absolute;
  const rel = relative(Deno.cwd(), absolute);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
}

/** `instances[3].helpful.units[2].channel: expected one of user|assistant|tool, got "bot"`. */
function _describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
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
