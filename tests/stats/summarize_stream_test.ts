/** summarizeFile streams its file in blocks: any block size gives the summary of the whole. */
import assert from "node:assert/strict";
import fc from "fast-check";
import type pl from "nodejs-polars";
import { SCAN_CHUNK_BYTES, scanRows } from "../../lib/stats/_scan_rows.ts";
import { pairColumns, reduceRows, summarizeReduced } from "../../lib/stats/_summarize_frame.ts";
import { defaultGrouping, neededKinds, summarySettings } from "../../lib/stats/_trial_frame.ts";
import { summarize } from "../../lib/stats/summarize.ts";
import { summarizeFile } from "../../lib/stats/summarize_file.ts";

/** summarizeFile's pipeline with a block size of `chunkBytes`. */
function summarizeInBlocks(path: string, chunkBytes: number, by?: string[]): pl.DataFrame {
  const first = JSON.parse(Deno.readTextFileSync(path).split("\n")[0]);
  const columns = Object.keys(first);
  const groups = by ?? defaultGrouping(columns);
  const kinds = neededKinds(groups, columns, (c) => first[c]);
  const full = pairColumns(groups, columns);
  const reduced = scanRows(path, kinds, (r, bad) => reduceRows(r, full, bad), chunkBytes);
  return summarizeReduced(reduced, Object.keys(kinds), groups, summarySettings({ resamples: 200 }));
}

/** Pairs (some with an error or a missing twin), no-memory rows and counterfactual reruns. */
function rows(seed: number, pairs: number): Record<string, unknown>[] {
  let x = seed >>> 0;
  const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const out: Record<string, unknown>[] = [];
  for (let p = 0; p < pairs; p++) {
    const base = {
      agent: rand() < 0.5 ? "a" : "b",
      dataset: "demo",
      attack: "minja",
      stage: "writing",
      thetaW: [0, 0.5, 1][p % 3],
      instanceId: `i${p % 7}`,
      pairId: `p${p}`,
      trial: p % 2,
      output: "x".repeat(Math.floor(rand() * 300)),
      counterfactualOf: null,
      ablatedRole: null,
    };
    for (const condition of ["clean", "poisoned"]) {
      if (rand() < 0.03) continue;
      const err = rand() < 0.05;
      out.push({
        ...base,
        condition,
        correct: err ? null : rand() < 0.6,
        matchesTarget: err ? null : condition === "poisoned" && rand() < 0.4,
        error: err ? "timeout" : null,
      });
    }
    if (rand() < 0.2) {
      out.push({
        ...base,
        condition: "poisoned",
        correct: false,
        matchesTarget: rand() < 0.5,
        error: null,
        counterfactualOf: `${base.pairId}/poisoned`,
        ablatedRole: "risk",
      });
    }
    if (p % 5 === 0) {
      out.push({
        ...base,
        pairId: `n${p}`,
        condition: "nomemory",
        correct: rand() < 0.5,
        matchesTarget: null,
        error: null,
      });
    }
  }
  return out;
}

async function write(lines: string[]): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

Deno.test("scanRows() in blocks of any size gives the summary of the whole file", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 1, max: 120 }),
      fc.integer({ min: 16, max: 20_000 }),
      fc.boolean(),
      async (seed, pairs, chunkBytes, blank) => {
        const data = rows(seed, pairs);
        // Blank lines and a pair whose rows lie blocks apart: both are read as the whole is.
        const lines = data.map((r) => JSON.stringify(r)).flatMap((l, i) =>
          blank && i % 9 === 4 ? [l, ""] : [l]
        );
        const path = await write(lines);
        try {
          const whole = summarize(data, { resamples: 200 });
          const streamed = summarizeInBlocks(path, chunkBytes);
          assert.deepEqual(streamed.toRecords(), whole.toRecords());
          // summarizeFile (one block for a small file) agrees too.
          assert.deepEqual(
            summarizeFile(path, { resamples: 200 }).toRecords(),
            whole.toRecords(),
          );
        } finally {
          await Deno.remove(path);
        }
      },
    ),
    { numRuns: 12, seed: 24 },
  );
});

Deno.test("scanRows() names the bad line in a later block, counting every block", async () => {
  const data = rows(3, 200);
  const lines = data.map((r) => JSON.stringify(r));
  lines[301] = JSON.stringify({ ...data[301], pairId: null });
  const path = await write(lines);
  try {
    assert.throws(
      () => summarizeInBlocks(path, 2_000),
      /line 302 lacks required column "pairId"|line 302, column "pairId"/,
    );
    lines[301] = JSON.stringify({ ...data[301], correct: "yes" });
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    assert.throws(() => summarizeInBlocks(path, 2_000), /line 302, column "correct"/);
    // A torn last line in the last block.
    await Deno.writeTextFile(path, lines.slice(0, 300).join("\n") + '\n{"agent": "a", "inst');
    assert.throws(() => summarizeInBlocks(path, 2_000), /line 301 is not valid JSON/);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("scanRows() reads a line longer than a block whole", async () => {
  const data = rows(5, 30);
  data[10] = { ...data[10], output: "y".repeat(50_000) };
  const path = await write(data.map((r) => JSON.stringify(r)));
  try {
    assert.deepEqual(
      summarizeInBlocks(path, 1_000).toRecords(),
      summarize(data, { resamples: 200 }).toRecords(),
    );
    assert.ok(SCAN_CHUNK_BYTES >= 1 << 20);
  } finally {
    await Deno.remove(path);
  }
});
