/**
 * A plugin cannot end a task with exit code 0 (issue 22). Before, a policy that called
 * `Deno.exit(0)` (or `process.exit()`) in `apply`, or a plugin module that called it at load,
 * made `deno task sweep` exit 0 with no rows, its lock and manifest left behind.
 */
import assert from "node:assert/strict";
import { taskFlags } from "../support/task_flags.ts";
import { full } from "../support/tiers.ts";

const SWEEP = "lib/cli/sweep.ts";
const ROOT = new URL("../..", import.meta.url).pathname;

const PLUGINS = {
  apply:
    `export default { policies: [{ id: "XZ", description: "Exits.", apply() { Deno.exit(0); } }] };`,
  node: `import process from "node:process";\n` +
    `export default { policies: [{ id: "XN", description: "Exits.", apply() { process.exit(); } }] };`,
  load: `Deno.exit(0);\nexport default {};`,
};

for (
  const [name, policy, code, line] of [
    ["apply", "XZ", 3, /error rows \(PluginExitError: \d+\)/],
    ["node", "XN", 3, /error rows \(PluginExitError: \d+\)/],
    ["load", "UM", 2, /--plugin .*load\.ts: cannot be loaded: plugin code called Deno\.exit\(0\)/],
  ] as const
) {
  full.test(`a plugin that calls exit while it ${name === "load" ? "loads" : "runs"} (${name}) does not end the task with 0`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "mg-plugin-exit-" });
    try {
      await Deno.writeTextFile(`${dir}/${name}.ts`, PLUGINS[name] + "\n");
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          ...taskFlags(SWEEP),
          `${ROOT}${SWEEP}`,
          ...["--plugin", `${dir}/${name}.ts`, "--stage", "management", "--policies", policy],
          ...["--limit", "1", "--out", `${dir}/rows.jsonl`, "--quiet"],
        ],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, code, stderr);
      assert.match(stderr, line);
      // Nothing half-done is left: no lock, and rows only where the run went to its end.
      assert.ok(!await Deno.stat(`${dir}/rows.jsonl.lock`).catch(() => null));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
