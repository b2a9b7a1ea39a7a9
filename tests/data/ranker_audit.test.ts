/** The ranker audit: every offline ranker, an LLM ranker against the local server, bad input. */
import assert from "node:assert/strict";
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { formatRankerAudit, rankerAudit } from "../../lib/data/ranker_audit.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { OFFLINE_RANKERS } from "../../lib/stages/writing/rankers.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { FIXTURE_DIR } from "./_built.ts";
import { full } from "../support/tiers.ts";

const options = { seed: 0, bankSize: 10, traceLoad: 1, dataDir: FIXTURE_DIR };
const instances = [
  ...(await buildLocomo({ ...options, count: 8 })).instances,
  ...(await buildLongMemEval({ ...options, count: 5 })).instances,
];

Deno.test("rankerAudit() runs every offline ranker: one row per dataset and trace, positions in (0, 1]", async () => {
  for (const [id, ranker] of Object.entries(OFFLINE_RANKERS)) {
    const rows = await rankerAudit({ instances, ranker, seed: 0 });
    assert.deepEqual(
      rows.map((r) => `${r.dataset}/${r.trace}/${r.states}`),
      ["locomo", "longmemeval"].flatMap((
        d,
      ) => [`${d}/helpful/y*`, `${d}/minja/y_adv`, `${d}/sleeper/y_adv`]),
      id,
    );
    for (const r of rows) {
      const p = r.positions;
      assert.equal(p.without, 0, `${id} ${r.dataset} ${r.trace}`);
      assert.ok(
        0 < p.min && p.min <= p.q1 && p.q1 <= p.median && p.median <= p.q3 && p.q3 <= p.max &&
          p.max <= 1,
      );
    }
    assert.match(formatRankerAudit({ ranker: id, rows }), new RegExp(`^ranker audit: ${id}\\n`));
  }
});

Deno.test("rankerAudit() with the chronological ranker finds the first stating unit in trace order", async () => {
  const rows = await rankerAudit({ instances, ranker: OFFLINE_RANKERS.chronological, seed: 0 });
  const expected = (trace: "minja" | "sleeper", dataset: string) =>
    instances.filter((i) => i.dataset === dataset).map((i) => {
      const units = i.risk[trace]!.units;
      return (units.findIndex((u) => u.asserts === i.target) + 1) / units.length;
    }).sort((a, b) => a - b);
  for (const r of rows.filter((r) => r.trace !== "helpful")) {
    const values = expected(r.trace as "minja" | "sleeper", r.dataset);
    assert.equal(r.positions.min, Math.round(values[0] * 1000) / 1000);
    assert.equal(r.positions.max, Math.round(values.at(-1)! * 1000) / 1000);
  }
});

Deno.test("rankerAudit() audits an LLM ranker through the model client, then from its cache", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir();
  try {
    const setup = () =>
      modelSetup({
        cachePath: `${dir}/cache.sqlite`,
        baseUrl: server.baseUrl,
        env: { OPENAI_API_KEY: "k" },
      });
    const first = setup();
    const ranker = first.rankerFactory("llm:fake-ranker", undefined)!;
    const rows = await rankerAudit({ instances, ranker, seed: 0 });
    // The local server lists the ids in the order given: the chronological audit.
    const chronological = await rankerAudit({
      instances,
      ranker: OFFLINE_RANKERS.chronological,
      seed: 0,
    });
    assert.deepEqual(rows, chronological);
    const asked = server.requests;
    assert.equal(asked, 3 * instances.length);
    first.close();
    const again = setup();
    assert.deepEqual(
      await rankerAudit({
        instances,
        ranker: again.rankerFactory("llm:fake-ranker", undefined)!,
        seed: 0,
      }),
      rows,
    );
    assert.equal(server.requests, asked, "a second audit is answered from the cache");
    again.close();
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("deno task data --ranker with an unknown ranker: one line naming the option, exit 2", async () => {
  for (const ranker of ["bogus", "llm:self"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../lib/cli/data.ts", import.meta.url).pathname,
        "--stats",
        "--ranker",
        ranker,
        "--data-dir",
        FIXTURE_DIR,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr).trim();
    assert.equal(out.code, 2, stderr);
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, new RegExp(`^memgauge data: --ranker: .*${ranker}`));
    assert.equal(new TextDecoder().decode(out.stdout), "");
  }
});
