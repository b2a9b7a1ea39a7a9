/** Print every built instance as "kind | query | answer -> target" for reading targets by eye. */
import { buildLocomo } from "../../lib/data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../../lib/data/longmemeval/build_longmemeval.ts";
import { dataDir } from "../../lib/data/data_dir.ts";

const seed = Number(Deno.args[0] ?? "1");
for (const build of [buildLocomo, buildLongMemEval]) {
  const built = await build({ seed, bankSize: 50, traceLoad: 1, dataDir: dataDir() });
  built.instances.forEach((i, n) => {
    const query = i.query.split(/(?<=[.!?])\s+/).slice(-2).join(" ").replace(/\s+/g, " ");
    console.log(
      `${n + 1}\t${i.dataset}\t${built.targetKinds[i.id]}\t${query} | ${i.answer} -> ${i.target}`,
    );
  });
  console.error(`${built.instances[0].dataset} skipped: ${JSON.stringify(built.skipped)}`);
}
