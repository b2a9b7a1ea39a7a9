/**
 * One plugin per registry (policy, ranker, writer, judge, agent, persona, retrieval fill, memory
 * system), each the README's example file copied to a temporary directory outside the
 * repository: a sweep (or a systems run) with it writes rows that carry its id, and the figure
 * that shows its kind labels it by its own id. Registries are per process, so every fixture is
 * copied once and loaded from that one copy.
 */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { sweepMain } from "../../lib/cli/sweep.ts";
import { systemsMain } from "../../lib/cli/systems.ts";
import { stageExperiment } from "../../lib/experiments/stage_experiments.ts";
import { figure3Column } from "../../lib/experiments/figure3.ts";
import { existingSystems } from "../../lib/figures/existing_systems.ts";
import { figure5Rankers, figure6BudgetFill } from "../../lib/experiments/rq2_figures.ts";
import type { SystemRow } from "../../lib/schema/system_row.ts";
import { loadPlugins, PluginError, registerPlugin } from "../../lib/plugins/plugins.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { systemTable2 } from "../../lib/systems/system_table2.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const FIXTURES = [
  "tq_policy",
  "backwards_ranker",
  "brief_writer",
  "substring_judge",
  "last_record_agent",
  "gullible_persona",
  "short_fill",
  "keyword_system",
] as const;
type Fixture = typeof FIXTURES[number];

const DIR = await Deno.makeTempDir({ prefix: "memgauge-every-registry-" });
assert.ok(!DIR.startsWith(ROOT), "the plugins must live outside the repository");
for (const name of FIXTURES) {
  await Deno.copyFile(`${ROOT}/tests/fixtures/plugins/${name}.ts`, `${DIR}/${name}.ts`);
}
const file = (name: Fixture) => `${DIR}/${name}.ts`;
const SMALL = { n: 2, resamples: 10, dataset: "demo", seed: 0 };

/** Run `deno task sweep` in process with a plugin; its rows. */
async function sweepRows(plugin: Fixture, args: string[]): Promise<Record<string, unknown>[]> {
  const out = `${DIR}/${plugin}-${crypto.randomUUID()}.jsonl`;
  const code = await sweepMain([
    "--plugin",
    file(plugin),
    "--limit",
    "3",
    "--quiet",
    "--trajectories",
    "none",
    "--out",
    out,
    ...args,
  ]);
  assert.equal(code, 0);
  return (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
}

const distinct = (rows: Record<string, unknown>[], column: string) => [
  ...new Set(rows.map((r) => r[column])),
];

Deno.test("a policy plugin: the management sweep's rows carry TQ and Figure 3 draws it", async () => {
  const rows = await sweepRows("tq_policy", ["--stage", "management", "--policies", "UM,TQ"]);
  assert.deepEqual(distinct(rows, "policy"), ["UM", "TQ"]);
  const result = await stageExperiment({
    ...SMALL,
    plugins: [file("tq_policy")],
    stage: "management",
  });
  const column = await figure3Column({ stage: "management", result });
  assert.match(column.figure.svg, />TQ</);
});

Deno.test("a ranker plugin: rows carry its id; Figure 5 draws it after the paper's four, under its own id", async () => {
  const rows = await sweepRows("backwards_ranker", [
    "--stage",
    "writing",
    "--grid",
    "0.5",
    "--ranker",
    "backwards",
  ]);
  assert.deepEqual(distinct(rows, "ranker"), ["backwards"]);
  const fig = await figure5Rankers({ ...SMALL, plugins: [file("backwards_ranker")], grid: [0.5] });
  assert.deepEqual(distinct(fig.rows as never, "ranker"), [
    "usefulness",
    "distinctiveness",
    "random",
    "chronological",
    "backwards",
  ]);
  assert.match(fig.figure.svg, />backwards</);
  // Not dressed up as one of the paper's rankers.
  assert.doesNotMatch(fig.figure.svg, /external · backwards/);
});

Deno.test("a writer plugin: rows record the writer that wrote their memory", async () => {
  const rows = await sweepRows("brief_writer", [
    "--stage",
    "writing",
    "--grid",
    "1",
    "--writer",
    "brief",
  ]);
  assert.deepEqual(distinct(rows, "writer"), ["brief"]);
  assert.deepEqual(distinct(rows, "judge"), ["deterministic"]);
  // No figure shows writers; the default writer is recorded too.
  const plain = await sweepRows("tq_policy", ["--stage", "writing", "--grid", "1"]);
  assert.deepEqual(distinct(plain, "writer"), ["verbatim"]);
});

Deno.test("a judge plugin: rows record it and a figure's caption names it", async () => {
  const rows = await sweepRows("substring_judge", [
    "--stage",
    "retrieval",
    "--grid",
    "1",
    "--judge",
    "substring",
  ]);
  assert.deepEqual(distinct(rows, "judge"), ["substring"]);
  assert.deepEqual(distinct(rows, "judgeModel"), [null]);
  await loadPlugins({ paths: [file("substring_judge")] });
  const models = modelSetup({ judge: "substring" });
  try {
    const result = await stageExperiment({ ...SMALL, models, stage: "retrieval", grid: [1] });
    const column = await figure3Column({ stage: "retrieval", result });
    assert.match(column.figure.caption, /judge: substring/);
  } finally {
    models.close();
  }
});

Deno.test("an agent plugin: rows carry its id; captions and backends name it, not the simulator", async () => {
  const rows = await sweepRows("last_record_agent", [
    "--stage",
    "retrieval",
    "--grid",
    "1",
    "--agent",
    "last-record",
  ]);
  assert.deepEqual(distinct(rows, "agent"), ["last-record"]);
  assert.deepEqual(distinct(rows, "simulated"), [true]);
  const result = await stageExperiment({
    ...SMALL,
    agents: resolveAgents({ specs: ["last-record"] }),
    stage: "retrieval",
    grid: [1],
  });
  const column = await figure3Column({ stage: "retrieval", result });
  assert.match(column.figure.caption, /offline agent last-record \(not a real model\)/);
  assert.doesNotMatch(column.figure.caption, /reference agent/);
  const csv = Object.values(column.csv)[0];
  assert.deepEqual([...new Set(csv.getColumn("backend").toArray())], ["last-record"]);
});

Deno.test("a persona plugin: reference:gullible runs, `reference` includes it, Figure 3's CSV names it", async () => {
  const rows = await sweepRows("gullible_persona", [
    "--stage",
    "retrieval",
    "--grid",
    "1",
    "--agent",
    "reference:gullible,reference:careful?guess=off",
  ]);
  assert.deepEqual(distinct(rows, "agent"), ["reference:gullible", "reference:careful?guess=off"]);
  assert.ok(resolveAgents({ specs: ["reference"] }).some((a) => a.id === "reference:gullible"));
  // It believes a lone poisoned claim more often than the careful persona.
  const asr = (agent: string) =>
    rows.filter((r) => r.agent === agent && r.condition === "poisoned" && r.matchesTarget).length;
  assert.ok(asr("reference:gullible") >= asr("reference:careful?guess=off"));
  const result = await stageExperiment({
    ...SMALL,
    agents: resolveAgents({ specs: ["reference:gullible"] }),
    stage: "retrieval",
    grid: [1],
  });
  const column = await figure3Column({ stage: "retrieval", result });
  const csv = Object.values(column.csv)[0];
  assert.deepEqual([...new Set(csv.getColumn("agent").toArray())], ["reference:gullible"]);
});

Deno.test("a fill plugin: --fill short is valid, rows carry it, Figure 6 draws it by its own id", async () => {
  const rows = await sweepRows("short_fill", [
    "--stage",
    "retrieval",
    "--grid",
    "0",
    "--fill",
    "short",
    "--k",
    "3",
  ]);
  assert.deepEqual(distinct(rows, "fill"), ["short"]);
  // Nothing exposed: every context is the 3 shortest background records, in both conditions.
  for (const r of rows) assert.equal((r.contextIds as string[]).length, 3);
  const fig = await figure6BudgetFill({
    ...SMALL,
    plugins: [file("short_fill")],
    ks: [5],
    grid: [0, 1],
  });
  assert.deepEqual(distinct(fig.rows as never, "fill"), ["random", "similarity", "short"]);
  assert.match(fig.figure.svg, /K = 5 · short fill/);
  assert.match(fig.figure.caption, /; short: Shortest background records first\)\./);
});

Deno.test("a memory-system plugin: a systems run with its option; the top-K figure gives it its own colour", async () => {
  const out = `${DIR}/keyword.jsonl`;
  const run = (extra: string[]) =>
    systemsMain([
      "--plugin",
      file("keyword_system"),
      "--system",
      "keyword",
      "--pipeline-check",
      "--agent",
      "llm:stand-in",
      "--limit",
      "2",
      "--bank-size",
      "5",
      "--k",
      "1,5",
      "--out",
      out,
      ...extra,
    ]);
  const error = console.error;
  const log = console.log;
  const said: string[] = [];
  console.error = (...a: unknown[]) => said.push(a.join(" "));
  console.log = () => {};
  let bad: number, code: number;
  try {
    bad = await run(["--system-option", "depth=2"]);
    code = await run(["--system-option", "minShared=1"]);
  } finally {
    console.error = error;
    console.log = log;
  }
  assert.equal(bad, 2);
  assert.match(
    said.join("\n"),
    /--system-option depth=2: system keyword takes minShared, not "depth"/,
  );
  assert.equal(code, 0, said.join("\n"));
  const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
    JSON.parse(l)
  ) as SystemRow[];
  assert.deepEqual(distinct(rows as never, "system"), ["Keyword"]);
  const fig = await existingSystems({ table2: systemTable2({ rows }), backend: "pipeline check" });
  const svg = fig.figure.svg;
  assert.match(svg, /Keyword/);
  // The paper's four keep their colours; the fifth system gets one of its own (it used to get
  // Mem0's, the first again).
  const swatches = new Map(
    [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"\/><text [^>]*>([^<]+)<\/text>/gi)].map((
      m,
    ) => [m[2], m[1].toLowerCase()]),
  );
  assert.equal(swatches.get("Mem0"), "#4269d0", [...swatches].join("; "));
  const keyword = swatches.get("Keyword");
  assert.ok(keyword && ![...swatches].some(([s, c]) => s !== "Keyword" && c === keyword));
});

Deno.test("a plugin agent may not take a reference id: that name belongs to the personas", () => {
  assert.throws(
    () =>
      registerPlugin({
        plugin: {
          agents: [{ id: "reference:x", simulated: true, answer: () => Promise.resolve({}) }],
        },
        source: "x.ts",
      }),
    (e: unknown) =>
      e instanceof PluginError &&
      /agents\[0\]\.id: reference ids belong to the reference agent's personas/.test(e.detail),
  );
  assert.throws(
    () =>
      registerPlugin({
        plugin: { personas: [{ id: "half", description: "No habits." }] },
        source: "h.ts",
      }),
    /plugin h\.ts: personas\[0\]\.attention: /,
  );
});

Deno.test("the README's example plugins are these files, verbatim, each short", async () => {
  // The section may move from README.md to docs/: either place counts.
  const docs = [await Deno.readTextFile(`${ROOT}/README.md`)];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) {
    if (entry.name.endsWith(".md")) {
      docs.push(await Deno.readTextFile(`${ROOT}/docs/${entry.name}`));
    }
  }
  for (const name of FIXTURES) {
    const text = (await Deno.readTextFile(`${ROOT}/tests/fixtures/plugins/${name}.ts`)).trimEnd();
    assert.ok(docs.some((d) => d.includes("```ts\n" + text + "\n```")), `${name}.ts is not shown`);
    const lines = text.split("\n").length;
    // A memory system's session has five methods; every other kind fits in under 30 lines.
    assert.ok(lines < (name === "keyword_system" ? 40 : 30), `${name}.ts: ${lines} lines`);
  }
});

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(DIR, { recursive: true });
  } catch {
    // Already gone.
  }
});
