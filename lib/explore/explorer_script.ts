/**
 * The explorer page's script: `browser/explorer_app.ts` and what it imports (the pair view,
 * Observable Plot, @tanstack/virtual-core) bundled into one minified file by `deno bundle`
 * (esbuild), once per process, so the page needs no network and no other file.
 */
import { fileURLToPath } from "node:url";

const _ENTRY = new URL("./browser/explorer_app.ts", import.meta.url);
const _CONFIG = new URL("../../deno.json", import.meta.url);

let _script: Promise<string> | undefined;

/**
 * Run `deno bundle`: the `deno` on PATH first, which a task's `--allow-run=deno` grants; the
 * running binary (`Deno.execPath()`) when none is on PATH (a `npx deno` run).
 */
async function _bundler(options: { args: string[] }): Promise<Deno.CommandOutput> {
  const run = (cmd: string) =>
    new Deno.Command(cmd, {
      args: options.args,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
  try {
    return await run("deno");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return await run(Deno.execPath());
  }
}

/**
 * The bundled script (about 300 kB), built on the first call. Throws with the bundler's message
 * when it fails.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explorerScript } from "./explorer_script.ts";
 * const script = await explorerScript();
 * assert.ok(script.length > 10_000 && !script.includes("</script"));
 * ```
 */
export function explorerScript(): Promise<string> {
  _script ??= (async () => {
    const { code, stdout, stderr } = await _bundler({
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "--minify",
        "--config",
        fileURLToPath(_CONFIG),
        fileURLToPath(_ENTRY),
      ],
    });
    if (code !== 0) {
      _script = undefined;
      throw new Error(
        `explorer: bundling the page's script failed: ${new TextDecoder().decode(stderr).trim()}`,
      );
    }
    // Inside the page's <script> element, "</script" would end it early.
    return new TextDecoder().decode(stdout).replaceAll("</script", "<\\/script");
  })();
  return _script;
}
