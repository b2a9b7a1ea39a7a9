import assert from "node:assert/strict";
import { readRows } from "../../lib/stats/read_rows.ts";
import { summarize } from "../../lib/stats/summarize.ts";
import { summarizeFile } from "../../lib/stats/summarize_file.ts";

/** Rows over 2 agents x 3 thetaW x 2 attacks, 12 instances x 2 trials, with errors, an unpaired
 * row, no-memory rows, escaped strings and shuffled key order on some lines. */
function rows(): Record<string, unknown>[] {
  let x = 7;
  const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const out: Record<string, unknown>[] = [];
  for (const agent of ['a "quoted" \\ agent', "b"]) {
    for (const attack of ["minja", "agentpoison"]) {
      for (const thetaW of [0, 0.5, 1]) {
        for (let i = 0; i < 12; i++) {
          for (let t = 0; t < 2; t++) {
            for (const condition of ["clean", "poisoned"]) {
              const err = rand() < 0.05, u = rand();
              out.push({
                agent,
                dataset: "demo",
                attack,
                stage: "writing",
                thetaW,
                instanceId: `i${i}`,
                pairId: `${agent}${attack}${thetaW}-${i}-${t}`,
                condition,
                output: 'x,"correct":true}',
                correct: err ? null : u < 0.5,
                matchesTarget: err ? null : condition === "poisoned" && u > 0.6 - thetaW / 3,
                error: err ? "time\nout" : null,
              });
            }
          }
        }
      }
      for (let i = 0; i < 12; i++) {
        out.push({
          agent,
          dataset: "demo",
          attack,
          stage: "writing",
          thetaW: 0,
          instanceId: `i${i}`,
          pairId: `n${agent}${attack}${i}`,
          condition: "nomemory",
          correct: i === 3 ? null : rand() < 0.6,
          matchesTarget: null,
          error: i === 3 ? "boom" : null,
        });
      }
    }
  }
  out.pop(); // drop one no-memory row
  out.splice(5, 1); // a clean or poisoned row without its twin
  // Reverse the key order of some lines: the scanner must not rely on it.
  return out.map((r, k) => k % 7 === 0 ? Object.fromEntries(Object.entries(r).reverse()) : r);
}

Deno.test("summarizeFile() equals summarize(readRows()) on the same file", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, rows().map((r) => JSON.stringify(r)).join("\n") + "\n");
  for (const options of [{}, { by: ["agent", "thetaW"] }, { by: [] }, { ci: "bca" as const }]) {
    const want = summarize(readRows(path), { resamples: 300, seed: 4, ...options });
    const got = summarizeFile(path, { resamples: 300, seed: 4, ...options });
    assert.deepEqual(got.columns, want.columns);
    assert.deepEqual(got.toRecords(), want.toRecords());
  }
  await Deno.remove(path);
});

Deno.test("summarizeFile() names the line with a missing pairId", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const [a, b] = rows();
  await Deno.writeTextFile(
    path,
    `${JSON.stringify(a)}\n${JSON.stringify({ ...b, pairId: null })}\n`,
  );
  assert.throws(() => summarizeFile(path), /line 2, column "pairId"/);
  await Deno.remove(path);
});
