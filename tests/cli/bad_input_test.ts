/**
 * Every bad invocation of the table gets one line on stderr naming what was wrong, exit code 2,
 * no file written, no stack trace. The table runs in-process through each CLI's exported entry
 * (`_bad_input_runner.ts`: two processes instead of one per case); one case per CLI also
 * runs as `deno task` runs it, a subprocess with the task's permissions, for the exit-code wiring.
 */
import assert from "node:assert/strict";
import { BAD_INPUTS, type BadInput, checkBadInput, CLI_SCRIPTS } from "./_bad_inputs.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const RUNNER = new URL("./_bad_input_runner.ts", import.meta.url).pathname;

function _show(bad: BadInput): string {
  const args = typeof bad.args === "string" ? bad.args : JSON.stringify(bad.args);
  const env = bad.env ? `${Object.entries(bad.env).map(([k, v]) => `${k}=${v}`)} ` : "";
  return `${env}${bad.cli} ${args}`;
}

/** Runs `indices` in one runner process; the indices that failed, with a line for each. */
async function _runIn(indices: number[]): Promise<Map<number, string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", RUNNER, indices.join(",")],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const results = new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as { index: number; problems: string[]; stderr: string });
  const failures = new Map<number, string>();
  for (const r of results.filter((r) => r.problems.length > 0)) {
    failures.set(r.index, `${_show(BAD_INPUTS[r.index])}: ${r.problems.join("; ")} [${r.stderr}]`);
  }
  const done = new Set(results.map((r) => r.index));
  const stderr = new TextDecoder().decode(out.stderr).slice(-500);
  for (const i of indices.filter((i) => !done.has(i))) {
    failures.set(i, `${_show(BAD_INPUTS[i])}: the runner stopped (exit ${out.code}): ${stderr}`);
  }
  return failures;
}

full.test(
  `bad input: ${BAD_INPUTS.length} invocations in-process, each one line, exit 2, no file left`,
  async () => {
    assert.ok(BAD_INPUTS.length >= 150, `only ${BAD_INPUTS.length} cases`);
    // A plugin registers into process-wide registries that no case can undo: the --plugin cases
    // share a runner of their own, and a case that fails there is run again alone (as the task
    // would run it) before it counts as a failure.
    const all = BAD_INPUTS.map((_, i) => i);
    const plugin = all.filter((i) => JSON.stringify(BAD_INPUTS[i].args).includes("--plugin"));
    const shared = await Promise.all(
      [all.filter((i) => !plugin.includes(i)), plugin].map(_runIn),
    );
    const failures: string[] = [...shared[0].values()];
    for (const i of shared[1].keys()) failures.push(...(await _runIn([i])).values());
    assert.deepEqual(
      failures,
      [],
      `${failures.length} of ${BAD_INPUTS.length} failed:\n${failures.join("\n")}`,
    );
  },
);

full.test(
  "bad input: one case per CLI as a `deno task` subprocess with the task's permissions",
  async () => {
    const clis = Object.keys(CLI_SCRIPTS) as (keyof typeof CLI_SCRIPTS)[];
    const failures: string[] = [];
    await Promise.all(clis.map(async (cli) => {
      const bad = BAD_INPUTS.find((b) => b.cli === cli && b.names !== undefined);
      assert.ok(bad, `no case for ${cli}`);
      const result = await checkBadInput(ROOT, bad);
      if (result.problems.length > 0) {
        failures.push(`${_show(bad)}: ${result.problems.join("; ")} [${result.stderr}]`);
      }
    }));
    assert.deepEqual(failures, []);
  },
);
