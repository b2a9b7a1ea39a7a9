/**
 * How often the Deno kernel loses a display in headless Jupyter runs, with and without the pause
 * `mg.show` makes after each display (SHOW_PAUSE_MS). Builds a notebook of 80 cells, each showing
 * two displays around some work, runs it RUNS times per variant through `jupyter nbconvert`, and
 * prints how many displays each run lost. Side by side in one invocation, since machines are
 * shared and noisy.
 *
 *   deno run -A tests/bench/notebook_display_loss.ts [RUNS=6]
 */
import { SHOW_PAUSE_MS } from "../../lib/experiments/notebook_show.ts";

const RUNS = Number(Deno.args[0] ?? 6);
const CELLS = 80;
const ROOT = new URL("../../notebooks/", import.meta.url).pathname;

function notebook(pauseMs: number): string {
  const cell = (source: string) => ({
    cell_type: "code",
    execution_count: null,
    metadata: {},
    outputs: [],
    source,
  });
  const cells = [
    cell(
      `const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const disp = async (t: string) => {
  await Deno.jupyter.display({ "text/plain": t }, { raw: true });
  if (${pauseMs} > 0) await sleep(${pauseMs});
};`,
    ),
    ...Array.from({ length: CELLS }, (_, i) =>
      cell(
        `await disp("a${i}");
const work${i} = Array.from({ length: 20000 }, (_, j) => j * ${i}).reduce((a, b) => a + b, 0);
await disp("b${i}");`,
      )),
  ];
  return JSON.stringify({
    cells,
    metadata: { kernelspec: { display_name: "Deno", language: "typescript", name: "deno" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

async function lost(source: string): Promise<number> {
  const child = new Deno.Command("jupyter", {
    args: [
      "nbconvert",
      "--stdin",
      "--to",
      "notebook",
      "--execute",
      "--ExecutePreprocessor.kernel_name=deno",
      "--stdout",
    ],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(source));
  await writer.close();
  const out = await child.output();
  const executed = JSON.parse(new TextDecoder().decode(out.stdout));
  return (executed.cells as { outputs: unknown[] }[]).slice(1)
    .reduce((n, c) => n + (2 - c.outputs.length), 0);
}

for (const pause of [0, SHOW_PAUSE_MS]) {
  const counts: number[] = [];
  for (let run = 0; run < RUNS; run++) counts.push(await lost(notebook(pause)));
  const total = counts.reduce((a, b) => a + b, 0);
  console.log(
    `pause ${pause} ms: lost ${total} of ${RUNS * CELLS * 2} displays (per run: ${
      counts.join(", ")
    })`,
  );
}
