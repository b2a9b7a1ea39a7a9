/**
 * Read an InstanceFile JSON from disk and validate it at the boundary, so a bad file fails with
 * its name, the field path and the offending value instead of deep inside a sweep.
 */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { InstanceFile } from "../schema/instance.ts";
import { parseData } from "./parse_data.ts";

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
  return parseData({ source: name, schema: InstanceFile, data: raw });
}

/** Show a path relative to the working directory when it lies inside it. */
function _displayName(path: string | URL): string {
  const absolute = path instanceof URL ? fileURLToPath(path) : path;
  if (!isAbsolute(absolute)) return absolute;
  const rel = relative(Deno.cwd(), absolute);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
}
