/** `deno task data`: fetch the benchmark files, or with `--stats` summarize the built instances. */
import { parseArgs } from "node:util";
import { buildLocomo } from "../data/locomo/build_locomo.ts";
import { buildLongMemEval } from "../data/longmemeval/build_longmemeval.ts";
import { DATA_FILES } from "../data/data_files.ts";
import { dataDir as defaultDataDir } from "../data/data_dir.ts";
import { datasetStats } from "../data/dataset_stats.ts";
import { ensureDataFile } from "../data/download.ts";
import { formatRankerAudit, rankerAudit } from "../data/ranker_audit.ts";
import { modelSetup } from "../run/model_setup.ts";
import { OFFLINE_RANKERS } from "../run/sweep_resources.ts";
import { CliError, runCli } from "./cli_error.ts";

const USAGE =
  `usage: deno task data [--stats] [--dataset locomo|longmemeval] [--seed N] [--bank-size N]
                      [--trace-load X] [--data-dir DIR] [--with-s]
                      [--ranker usefulness|random|chronological|llm:MODEL] [--base-url URL] [--cache PATH]
  without --stats: download missing files into the data directory (MEMGAUGE_DATA, default data/raw/)
  --with-s: also download the optional longmemeval_s.json (264 MB; background distractors)
  --stats: build the instances (seed 0, as sweeps) and print counts and bank composition per dataset
  --ranker: with --stats, also audit where the ranker puts the first unit stating y* and y_adv
            (an LLM ranker answers from the response cache --cache, else asks --base-url)`;

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      stats: { type: "boolean", default: false },
      dataset: { type: "string", multiple: true },
      seed: { type: "string", default: "0" },
      "bank-size": { type: "string", default: "100" },
      "trace-load": { type: "string", default: "1" },
      "data-dir": { type: "string" },
      "with-s": { type: "boolean", default: false },
      ranker: { type: "string" },
      "base-url": { type: "string" },
      cache: { type: "string", default: ".memgauge/cache.sqlite" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dir = values["data-dir"] ?? defaultDataDir();
  const audit = values.ranker === undefined ? undefined : _auditRanker(values);
  if (!values.stats && audit === undefined) {
    let failed = 0;
    for (const file of Object.values(DATA_FILES)) {
      // The S split is 264 MB and only adds background distractors: fetch it on request.
      if (!file.required && !values["with-s"]) continue;
      const result = await ensureDataFile({ file, dataDir: dir });
      const label = file.required ? "" : " (optional)";
      console.log(
        `${result.status.padEnd(10)} ${result.path}${label}: ${result.message}` +
          (result.sha256 ? `\n           sha256 ${result.sha256}` : ""),
      );
      if (result.status === "failed" && file.required) failed++;
    }
    console.log("Licenses: LoCoMo CC BY-NC 4.0 (non-commercial); LongMemEval MIT.");
    return failed === 0 ? 0 : 1;
  }
  const seed = Number(values.seed);
  const bankSize = Number(values["bank-size"]);
  const traceLoad = Number(values["trace-load"]);
  if (!Number.isInteger(seed)) throw new TypeError(`--seed must be an integer, got ${values.seed}`);
  if (!Number.isInteger(bankSize) || bankSize < 50 || bankSize > 500) {
    throw new RangeError(`--bank-size must be an integer in [50, 500], got ${values["bank-size"]}`);
  }
  if (!(traceLoad > 0)) {
    throw new RangeError(`--trace-load must be positive, got ${values["trace-load"]}`);
  }
  const builders = { locomo: buildLocomo, longmemeval: buildLongMemEval };
  const names = values.dataset ?? Object.keys(builders);
  for (const name of names) {
    if (!(name in builders)) {
      throw new TypeError(`--dataset must be locomo or longmemeval, got ${name}`);
    }
    const start = performance.now();
    const built = await builders[name as keyof typeof builders]({
      seed,
      bankSize,
      traceLoad,
      dataDir: dir,
    });
    const ms = Math.round(performance.now() - start);
    const s = datasetStats({ built });
    const units = (u: { min: number; mean: number; max: number }) =>
      `${u.min}-${u.max} (mean ${u.mean})`;
    console.log(
      `== ${name} (seed ${seed}, bank ${bankSize}, trace load ${traceLoad}; built in ${ms} ms)`,
    );
    console.log(`instances:        ${s.instances}`);
    console.log(`categories:       ${JSON.stringify(s.categories)}`);
    console.log(`answer kinds:     ${JSON.stringify(s.answerKinds)}`);
    console.log(`target kinds:     ${JSON.stringify(s.targetKinds)}`);
    console.log(`units helpful:    ${units(s.unitsHelpful)}`);
    console.log(`units MINJA:      ${units(s.unitsMinja)}`);
    console.log(
      `units Sleeper:    ${units(s.unitsSleeper)}  styles ${JSON.stringify(s.sleeperStyles)}`,
    );
    console.log(`bank size:        ${units(s.bankSize)}`);
    const b = s.bank;
    console.log(
      `bank records:     ${b.records}; channels user ${b.channels.user}, assistant ${b.channels.assistant}, ` +
        `tool ${b.channels.tool}; trusted ${b.trusted}, verified ${b.verified}, stating numbers ${b.statingNumbers}`,
    );
    console.log(`skipped (sample): ${JSON.stringify(s.skipped)}`);
    if (audit !== undefined) {
      const rows = await rankerAudit({ instances: built.instances, ranker: audit.ranker, seed });
      console.log(formatRankerAudit({ ranker: audit.ranker.id, rows }));
    }
  }
  audit?.close();
  return 0;
}

/** The ranker `--ranker` names: an offline one, or `llm:MODEL` over the response cache. */
function _auditRanker(values: { ranker?: string; "base-url"?: string; cache: string }) {
  const id = values.ranker!;
  if (id === "llm:self") {
    throw new CliError(
      `--ranker: llm:self is an agent's own model and the audit has no agent; got "llm:self", pass llm:MODEL`,
    );
  }
  const offline = OFFLINE_RANKERS[id];
  if (offline) return { ranker: offline, close: () => {} };
  if (!/^llm:.+/.test(id)) {
    throw new CliError(
      `--ranker: expected usefulness|random|chronological|llm:MODEL, got ${JSON.stringify(id)}`,
    );
  }
  const models = modelSetup({ cachePath: values.cache, baseUrl: values["base-url"] });
  return { ranker: models.rankerFactory(id, undefined)!, close: () => models.close() };
}

if (import.meta.main) {
  await runCli("data", async () => {
    const code = await main(Deno.args);
    if (code !== 0) Deno.exit(code);
  });
}
