/**
 * Registries and plugins: one registry per extension point, a duplicate id refused with one
 * clear error, a plugin's entries usable wherever the built-ins are (sweep, notebook API,
 * Figure 3).
 */
import assert from "node:assert/strict";
import { AGENTS } from "../../lib/agents/agents.ts";
import { DATASETS } from "../../lib/data/datasets.ts";
import { stageExperiment } from "../../lib/experiments/stage_experiments.ts";
import { figure3Column } from "../../lib/experiments/figure3.ts";
import { notebookSetup } from "../../lib/experiments/notebook_setup.ts";
import { JUDGES } from "../../lib/judges/judges.ts";
import { createRegistry } from "../../lib/schema/registry.ts";
import { loadPlugins, PluginError, registerPlugin } from "../../lib/plugins/plugins.ts";
import { POLICIES } from "../../lib/stages/management/policies.ts";
import { RANKERS } from "../../lib/stages/writing/rankers.ts";
import { WRITERS } from "../../lib/stages/writing/writers.ts";
import { SYSTEM_NAMES } from "../../lib/systems/resolve_system.ts";
import { SYSTEM_REGISTRY } from "../../lib/systems/systems.ts";

const FIXTURE = new URL("../fixtures/plugins/tq_policy.ts", import.meta.url).pathname;

Deno.test("every extension point has its registry, built-ins first, in their documented order", () => {
  assert.deepEqual(POLICIES.ids().slice(0, 4), ["UM", "PQ", "NC", "SC"]);
  assert.deepEqual(RANKERS.ids().slice(0, 4), [
    "usefulness",
    "random",
    "chronological",
    "distinctiveness",
  ]);
  assert.equal(WRITERS.ids()[0], "verbatim");
  assert.equal(JUDGES.ids()[0], "deterministic");
  assert.deepEqual(DATASETS.ids().slice(0, 3), ["demo", "locomo", "longmemeval"]);
  assert.deepEqual(SYSTEM_REGISTRY.ids(), [...SYSTEM_NAMES]);
  assert.ok(AGENTS.ids().includes("reference:careful"));
  for (const registry of [POLICIES, RANKERS, WRITERS, JUDGES, DATASETS, SYSTEM_REGISTRY, AGENTS]) {
    for (const entry of registry.entries()) {
      assert.ok(entry.description.length > 0, `${registry.kind} ${entry.id} has no description`);
    }
  }
  // A policy's registry id is its row label.
  for (const entry of POLICIES.entries()) assert.equal(entry.value.id, entry.id);
});

Deno.test("a registry refuses a duplicate id with one line naming both sources", () => {
  const r = createRegistry<number>({ kind: "thing" });
  r.register({ id: "a", description: "A.", value: 1 });
  r.register({ id: "a", description: "A.", value: 1 }); // the same value again: a no-op
  assert.throws(
    () => r.register({ id: "a", description: "B.", value: 2, source: "b.ts" }),
    /^RangeError: thing: duplicate id "a" from b\.ts \(already registered from built-in\)$/,
  );
  assert.deepEqual(r.ids(), ["a"]);
});

Deno.test("a bad plugin registers nothing, and says which file and field", () => {
  const ok = { id: "PLUG_OK", description: "Keeps all.", rank: () => Promise.resolve([]) };
  assert.throws(
    () =>
      registerPlugin({
        plugin: { rankers: [ok], policies: [{ id: "PLUG_BAD", apply: () => null }] },
        source: "p.ts",
      }),
    (e: unknown) =>
      e instanceof PluginError && e.file === "p.ts" &&
      e.detail === "policies[0].description: expected a string, got undefined",
  );
  assert.equal(RANKERS.has("PLUG_OK"), false);
  assert.throws(
    () => registerPlugin({ plugin: { judges: [{ id: "j", judge: "yes" }] }, source: "j.ts" }),
    /plugin j\.ts: judges\[0\]\.judge: expected a function, got "yes"/,
  );
});

Deno.test("loadPlugins: a missing file and a module without a default export", async () => {
  await assert.rejects(() => loadPlugins({ paths: ["no/such/plugin.ts"] }), /no such file/);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/p.ts`, "export const policies = [];\n");
    await assert.rejects(
      () => loadPlugins({ paths: [`${dir}/p.ts`] }),
      /p\.ts: default export: missing/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notebook API: plugins put a plugin's policy in the management sweep and Figure 3", async () => {
  const { options, models } = notebookSetup({
    DATASET: "demo",
    ATTACK: "minja",
    AGENT: ["reference:careful"],
    SEED: 0,
    N: 3,
    PLUGINS: [FIXTURE],
  });
  try {
    assert.deepEqual(options.plugins, [FIXTURE]);
    const result = await stageExperiment({ ...options, stage: "management", resamples: 20 });
    const policies = [...new Set(result.rows.map((r) => r.policy))];
    assert.deepEqual(policies.slice(0, 4), ["UM", "PQ", "NC", "SC"]);
    assert.ok(policies.includes("TQ"), `policies: ${policies}`);
    const column = await figure3Column({ stage: "management", result });
    assert.match(column.figure.svg, />TQ</);
    // A plugin object works as well as a file, and registering it again is a no-op.
    const policy = {
      id: "KEEPALL",
      description: "Keeps every record.",
      apply: ({ records }: { records: readonly never[] }) => ({
        kept: [...records],
        quarantined: [],
      }),
    };
    const plugins = [{ policies: [policy] }, { policies: [policy] }];
    const again = await stageExperiment({
      ...options,
      plugins,
      stage: "management",
      policies: ["UM", "KEEPALL"],
      resamples: 20,
    });
    assert.deepEqual([...new Set(again.rows.map((r) => r.policy))], ["UM", "KEEPALL"]);
  } finally {
    models.close();
  }
});

Deno.test("one plugin of every kind: the sweep CLI runs its dataset, agent, judge, writer and ranker", async () => {
  const dir = await Deno.makeTempDir({ prefix: "memgauge-plugin-all-" });
  const support = new URL("../support/synthetic_instance.ts", import.meta.url).href;
  try {
    await Deno.writeTextFile(
      `${dir}/all.ts`,
      `import { syntheticInstance } from ${JSON.stringify(support)};
export default {
  datasets: [{ id: "tiny", description: "Two synthetic instances.", load: () =>
    Promise.resolve([0, 1].map((i) => syntheticInstance({ id: "t" + i, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 20 }))) }],
  agents: [{ id: "echo", simulated: true, answer: ({ context }) => Promise.resolve({ output: context.map((r) => r.id).join(" ") }) }],
  judges: [{ id: "always", judge: () => Promise.resolve({ correct: true, matchesTarget: false, hedged: false }) }],
  writers: [{ id: "shout", write: (unit) => Promise.resolve(unit.text.toUpperCase()) }],
  rankers: [{ id: "backwards", rank: (trace) => Promise.resolve(trace.units.map((u) => u.id).reverse()) }],
};
`,
    );
    const { sweepMain } = await import("../../lib/cli/sweep.ts");
    const out = `${dir}/rows.jsonl`;
    const code = await sweepMain([
      "--plugin",
      `${dir}/all.ts`,
      "--stage",
      "writing",
      "--grid",
      "0,1",
      "--dataset",
      "tiny",
      "--bank-size",
      "20",
      "--k",
      "3",
      "--agent",
      "echo",
      "--judge",
      "always",
      "--writer",
      "shout",
      "--ranker",
      "backwards",
      "--quiet",
      "--out",
      out,
    ]);
    assert.equal(code, 0);
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(rows.length > 0);
    for (const r of rows) {
      assert.deepEqual([r.dataset, r.agent, r.ranker, r.correct], [
        "tiny",
        "echo",
        "backwards",
        true,
      ]);
    }
    assert.deepEqual(
      [RANKERS.has("backwards"), WRITERS.has("shout"), JUDGES.has("always"), AGENTS.has("echo")],
      [true, true, true, true],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
