import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { summarize } from "../../lib/stats/summarize.ts";
import { summarizeFile } from "../../lib/stats/summarize_file.ts";

Deno.test("summarize() gives identical intervals for the same rows and seed", async () => {
  const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
  const rows = await sweep({
    stage: "writing",
    grid: [0.2, 0.6, 1],
    instances,
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference"] }),
  });
  const csv = () => summarize(rows, { resamples: 300, seed: 5 }).writeCSV().toString();
  const first = csv();
  for (let i = 0; i < 4; i++) assert.equal(csv(), first);
});

Deno.test("summarizeFile() of repeated trials gives the same bytes however the lines are ordered", async () => {
  const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
  const rows = await sweep({
    stage: "writing",
    grid: [0.6],
    instances,
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference"] }),
    trials: 3,
  });
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const write = (rs: typeof rows) =>
    Deno.writeTextFile(path, rs.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const options = { by: ["agent", "attack"], resamples: 300, seed: 5 };
  await write(rows);
  const first = summarizeFile(path, options).writeCSV().toString();
  assert.match(first, /bca/);
  assert.equal(summarizeFile(path, options).writeCSV().toString(), first);
  await write([...rows].reverse());
  assert.equal(summarizeFile(path, options).writeCSV().toString(), first);
  assert.equal(summarize(rows, options).writeCSV().toString(), first);
  await Deno.remove(path);
});
