/**
 * Every bad invocation of the table gets one line on stderr naming what was wrong, exit code 2,
 * no file written, no stack trace. Invocations run as subprocesses, a few at a time.
 */
import assert from "node:assert/strict";
import { BAD_INPUTS, checkBadInput } from "./_bad_inputs.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

Deno.test(`bad input: ${BAD_INPUTS.length} invocations, each one line, exit 2, no file left`, async () => {
  assert.ok(BAD_INPUTS.length >= 150, `only ${BAD_INPUTS.length} cases`);
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < BAD_INPUTS.length) {
      const bad = BAD_INPUTS[next++];
      const result = await checkBadInput(ROOT, bad);
      if (result.problems.length > 0) {
        const args = typeof bad.args === "string" ? bad.args : JSON.stringify(bad.args);
        const env = bad.env ? `${Object.entries(bad.env).map(([k, v]) => `${k}=${v}`)} ` : "";
        failures.push(
          `${env}${bad.cli} ${args}: ${result.problems.join("; ")} [${result.stderr}]`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 3 }, worker));
  assert.deepEqual(
    failures,
    [],
    `${failures.length} of ${BAD_INPUTS.length} failed:\n${failures.join("\n")}`,
  );
});
