/** Read and validate a JSON data file; every failure names the file and the JSON path. */
import type { z } from "zod";
import { MissingDataFileError } from "./missing_data_file_error.ts";

/** Options for {@link readJsonFile}. */
export interface ReadJsonFileOptions<T extends z.ZodType> {
  /** File to read. */
  path: string;
  /** Schema the parsed value must satisfy. */
  schema: T;
  /** Download URL named when the file is missing; default none (a plain NotFound message). */
  url?: string;
}

/** JSON path (`$[3].qa[2]`) of the container being read at character `offset` of `text`. */
export function jsonPathAt(text: string, offset: number): string {
  // Each frame is an open container: arrays count elements, objects remember the last key.
  const stack: { kind: "array" | "object"; index: number; key: string | null }[] = [];
  let i = 0;
  let lastString: string | null = null;
  while (i < Math.min(offset, text.length)) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      try {
        lastString = JSON.parse(text.slice(i, j + 1));
      } catch {
        lastString = text.slice(i + 1, j);
      }
      i = j + 1;
      continue;
    }
    const top = stack.at(-1);
    if (c === "[" || c === "{") {
      stack.push({ kind: c === "[" ? "array" : "object", index: 0, key: null });
    } else if (c === "]" || c === "}") stack.pop();
    else if (c === "," && top?.kind === "array") top.index++;
    else if (c === ":" && top?.kind === "object") top.key = lastString;
    i++;
  }
  return "$" +
    stack.map((f) => f.kind === "array" ? `[${f.index}]` : f.key === null ? "" : `.${f.key}`).join(
      "",
    );
}

function _zodPath(path: readonly PropertyKey[]): string {
  return "$" + path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("");
}

/**
 * Read `path`, parse it as JSON and validate it with `schema`. A missing file throws a
 * {@link MissingDataFileError}; malformed or truncated JSON and schema violations throw a
 * TypeError naming the file and the JSON path (`$[3].qa[2].answer`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { readJsonFile } from "./read_json_file.ts";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, '[{"n": 1}]');
 * assert.deepEqual(await readJsonFile({ path, schema: z.array(z.object({ n: z.number() })) }), [{ n: 1 }]);
 * await Deno.remove(path);
 * ```
 */
export async function readJsonFile<T extends z.ZodType>(
  options: ReadJsonFileOptions<T>,
): Promise<z.infer<T>> {
  const { path, schema, url } = options;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw url === undefined
        ? new TypeError(`Missing data file ${path}`)
        : new MissingDataFileError({ path, url });
    }
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    throw new TypeError(
      `Invalid JSON in ${path} at ${jsonPathAt(text, offset)} (character ${offset}): ${message}. ` +
        `The file may be truncated or corrupted; download it again with \`deno task data\`.`,
    );
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new TypeError(
      `Invalid data in ${path} at ${_zodPath(issue.path)}: ${issue.message}` +
        (result.error.issues.length > 1
          ? ` (and ${result.error.issues.length - 1} more issues)`
          : ""),
    );
  }
  return result.data;
}
