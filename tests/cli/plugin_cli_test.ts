/**
 * A plugin file outside the repository adds a management policy that `deno task sweep` runs:
 * its rows carry the plugin's id, and `deno task summarize` reads them like any other.
 */
import assert from "node:assert/strict";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const FIXTURE = `${ROOT}/tests/fixtures/plugins/tq_policy.ts`;

async function task(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

full.test("deno task sweep --plugin FILE --policies UM,TQ: rows carry TQ; summarize reads them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "memgauge-plugin-" });
  try {
    assert.ok(!dir.startsWith(ROOT), "the plugin must live outside the repository");
    const plugin = `${dir}/tq_policy.ts`;
    await Deno.copyFile(FIXTURE, plugin);
    const out = `${dir}/m.jsonl`;
    const run = await task([
      "sweep",
      "--plugin",
      plugin,
      "--stage",
      "management",
      "--policies",
      "UM,TQ",
      "--limit",
      "4",
      "--quiet",
      "--out",
      out,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /policy=TQ/);
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual([...new Set(rows.map((r) => r.policy))], ["UM", "TQ"]);
    // TQ quarantines what PQ does and every tool-channel record: never fewer than UM (none).
    const quarantined = (policy: string) =>
      rows.filter((r) => r.policy === policy).reduce((n, r) => n + r.quarantinedIds.length, 0);
    assert.equal(quarantined("UM"), 0);
    assert.ok(quarantined("TQ") > 0);

    const summary = await task(["summarize", "--in", out, "--out", `${dir}/s.csv`]);
    assert.equal(summary.code, 0, summary.stderr);
    assert.match(await Deno.readTextFile(`${dir}/s.csv`), /\bTQ\b/);

    // --help lists the plugin's policy with its description among the registered ones.
    const help = await task(["sweep", "--plugin", plugin, "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /TQ: Tool quarantine/);
    assert.match(help.stdout, /--plugin FILE\.ts/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
