/**
 * The permission flags a `deno task` gives its script (read from deno.json), so tests run the
 * CLIs exactly as the tasks do rather than with `-A`.
 */

const _CONFIG = new URL("../../deno.json", import.meta.url);

/**
 * The `deno run` flags of the task whose command runs `script` (e.g. "lib/cli/sweep.ts").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskFlags } from "./task_flags.ts";
 * assert.ok(taskFlags("lib/cli/sweep.ts").includes("--allow-read"));
 * ```
 */
export function taskFlags(script: string): string[] {
  const tasks = JSON.parse(Deno.readTextFileSync(_CONFIG)).tasks as Record<string, string>;
  const command = Object.values(tasks).find((c) => c.trim().endsWith(` ${script}`));
  if (!command) throw new RangeError(`deno.json: no task runs ${script}`);
  const words = command.trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new RangeError(`deno.json: the task of ${script} is not "deno run ...": ${command}`);
  }
  return words.slice(2, -1);
}
