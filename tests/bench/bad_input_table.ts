/**
 * The bad-input table both ways, side by side in one run: every case as its own `deno run`
 * subprocess with its task's permissions, three at a time (what `tests/cli/bad_input_test.ts`
 * did), against the in-process runner (the CLIs' exported entries in one process, the `--plugin`
 * cases in a second). Prints the wall time of each and their ratio, and the failures of each.
 *
 * Run: deno run -A tests/bench/bad_input_table.ts
 */
import { BAD_INPUTS, checkBadInput } from "../cli/_bad_inputs.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const RUNNER = `${ROOT}/tests/cli/_bad_input_runner.ts`;

async function subprocesses(): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < BAD_INPUTS.length) {
      if ((await checkBadInput(ROOT, BAD_INPUTS[next++])).problems.length > 0) failed++;
    }
  };
  await Promise.all(Array.from({ length: 3 }, worker));
  return failed;
}

async function inProcess(): Promise<number> {
  const all = BAD_INPUTS.map((_, i) => i);
  const plugin = all.filter((i) => JSON.stringify(BAD_INPUTS[i].args).includes("--plugin"));
  const runs = await Promise.all(
    [all.filter((i) => !plugin.includes(i)), plugin].map((ids) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", RUNNER, ids.join(",")],
        stdout: "piped",
        stderr: "null",
      }).output()
    ),
  );
  // Failures before the lone reruns the test gives a --plugin case (those are a handful).
  return runs.flatMap((r) => new TextDecoder().decode(r.stdout).trim().split("\n"))
    .filter((l) => l && JSON.parse(l).problems.length > 0).length;
}

const results: string[] = [];
for (const [name, run] of [["in-process", inProcess], ["subprocesses", subprocesses]] as const) {
  const start = performance.now();
  const failed = await run();
  const seconds = (performance.now() - start) / 1000;
  results.push(`${name.padEnd(13)} ${seconds.toFixed(1)} s, ${failed} failed`);
  console.log(results.at(-1));
}
console.log(`${BAD_INPUTS.length} cases (load ${Deno.loadavg()[0]})`);
