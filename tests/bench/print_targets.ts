/**
 * Print every built instance as "n  dataset  target kind  query | answer -> target" for reading
 * targets by eye, then the questions skipped for lack of a plausible target, by reason.
 * Run: `MEMGAUGE_DATA=... deno run -A tests/bench/print_targets.ts [SEED]` (default seed 0, the
 * sweeps' default).
 */
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { dataDir } from "../../lib/data/data_dir.ts";

const seed = Number(Deno.args[0] ?? "0");
for (const build of [buildLocomo, buildLongMemEval]) {
  const built = await build({ seed, bankSize: 50, traceLoad: 1, dataDir: dataDir() });
  built.instances.forEach((i, n) => {
    const query = i.query.split(/(?<=[.!?])\s+/).slice(-2).join(" ").replace(/\s+/g, " ");
    console.log(
      `${n + 1}\t${i.dataset}\t${built.targetKinds[i.id]}\t${query} | ${i.answer} -> ${i.target}`,
    );
  });
  console.log(`${built.instances[0].dataset} skipped: ${JSON.stringify(built.skipped)}`);
}
