/**
 * A plugin cannot end a task with exit code 0: once a plugin is loaded, `Deno.exit(0)` (and
 * `process.exit()`, which calls it) throws instead, so the task goes on and its own exit code
 * stands (a sweep's row that called it is an error row, exit 3; a plugin that calls it while
 * loading is a plugin that cannot be loaded, exit 2). The kit ends a task through
 * {@link exitTask}. A plugin is still code with the task's permissions: this guards against an
 * accident that reads as success, not against a plugin written to do harm.
 */

const _exit: (code?: number) => never = Deno.exit.bind(Deno);
let _guarded = false;

/** A plugin tried to end the task with exit code 0. */
export class PluginExitError extends Error {
  override name = "PluginExitError";
}

/**
 * From now on `Deno.exit(0)` throws a {@link PluginExitError}; other codes exit as before (a
 * failure code is no false success). Idempotent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardExit, PluginExitError } from "./exit_guard.ts";
 * guardExit();
 * assert.throws(() => Deno.exit(0), PluginExitError);
 * ```
 */
export function guardExit(): void {
  if (_guarded) return;
  _guarded = true;
  Deno.exit = ((code?: number) => {
    if (!code) {
      throw new PluginExitError(
        `plugin code called Deno.exit(${code ?? ""}): a plugin cannot end the task with exit ` +
          `code 0`,
      );
    }
    return _exit(code);
  }) as typeof Deno.exit;
}

/** End the process with `code`: the kit's own exit, which the guard leaves alone. */
export function exitTask(code: number): never {
  return _exit(code);
}
