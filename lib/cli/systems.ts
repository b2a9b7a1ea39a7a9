/**
 * `deno task systems`: measure an existing memory system (Mem0, LangMem, A-Mem, Hindsight) on a
 * dataset, M0 and M1, K slices from one retrieval, one JSON row per trial.
 */
import { parseArgs } from "node:util";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import { modelSetup } from "../run/model_setup.ts";
import { measureSystem } from "../systems/measure.ts";
import type { ManagementMode } from "../systems/memory_system.ts";
import { resolveSystem } from "../systems/resolve_system.ts";
import { PIPELINE_CHECK_BANNER, startPipelineCheck } from "../systems/pipeline_check.ts";
import { CliError, runCli } from "./cli_error.ts";

const USAGE = "usage: deno task systems --system mem0|langmem|amem|hindsight --out rows.jsonl " +
  "[--dataset demo|FILE.json] [--management on|off|both] [--k 1,3,5,7] [--attack minja|sleeper|both] " +
  "[--limit N] [--bank-size N] [--agent reference[:persona]|llm:ID] [--seed N] " +
  "[--base-url URL --model ID --embedding-model ID] [--hindsight-url URL] [--pipeline-check]";

/**
 * Run the systems CLI. `--pipeline-check` starts the kit's scripted local server for the
 * system's model and embedder (and a local Hindsight stand-in) and labels every row.
 */
export async function systemsMain(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      system: { type: "string" },
      dataset: { type: "string", default: "demo" },
      management: { type: "string", default: "both" },
      k: { type: "string", default: "1,3,5,7" },
      attack: { type: "string", default: "both" },
      limit: { type: "string" },
      "bank-size": { type: "string", default: "100" },
      agent: { type: "string", default: "reference:balanced" },
      seed: { type: "string", default: "0" },
      "base-url": { type: "string" },
      model: { type: "string", default: "gpt-4.1-mini" },
      "embedding-model": { type: "string", default: "text-embedding-3-small" },
      "api-key-env": { type: "string", default: "OPENAI_API_KEY" },
      "hindsight-url": { type: "string" },
      "pipeline-check": { type: "boolean", default: false },
      concurrency: { type: "string", default: "4" },
      out: { type: "string" },
    },
    strict: true,
  });
  if (!values.system) throw new CliError(`--system is required; ${USAGE}`);
  if (!values.out) throw new CliError(`--out is required; ${USAGE}`);
  const modes: ManagementMode[] = { on: ["M1"], off: ["M0"], both: ["M0", "M1"] }[
    values.management as "on"
  ] as ManagementMode[];
  if (!modes) throw new CliError(`--management must be on, off or both, got ${values.management}`);
  const ks = values.k.split(",").map(Number);
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new CliError(`--k must list integers >= 1, got ${values.k}`);
  }
  const attacks = values.attack === "both" ? ["minja", "sleeper"] as const : [values.attack];
  if (!attacks.every((a) => a === "minja" || a === "sleeper")) {
    throw new CliError(`--attack must be minja, sleeper or both, got ${values.attack}`);
  }
  const int = (name: string, v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) {
      throw new CliError(`--${name} must be an integer >= 1, got ${v}`);
    }
    return n;
  };
  const bankSize = int("bank-size", values["bank-size"]);
  const seed = Number(values.seed);
  const models = modelSetup({ cachePath: ".memgauge/cache.sqlite", baseUrl: values["base-url"] });
  const stops: (() => Promise<void>)[] = [];
  try {
    const agent = resolveAgents({ specs: [values.agent], factories: { llm: models.agentFactory } });
    if (agent.length !== 1) throw new CliError(`--agent must name one agent, got ${values.agent}`);
    let instances = await loadDataset({ name: values.dataset, seed, bankSize, traceLoad: 1 });
    if (values.limit) instances = instances.slice(0, int("limit", values.limit));

    let endpoint = {
      baseUrl: values["base-url"] ?? "https://api.openai.com/v1",
      apiKey: "",
      model: values.model,
      embeddingModel: values["embedding-model"],
    };
    let hindsightUrl = values["hindsight-url"];
    if (values["pipeline-check"]) {
      const check = await startPipelineCheck();
      stops.push(() => check.close());
      endpoint = {
        ...check.endpoint,
        model: endpoint.model,
        embeddingModel: endpoint.embeddingModel,
      };
      hindsightUrl = check.hindsightUrl;
      console.error(PIPELINE_CHECK_BANNER);
    } else if (values.system !== "hindsight") {
      const key = Deno.env.get(values["api-key-env"]);
      if (!key) {
        throw new CliError(
          `--system ${values.system} needs a key in $${
            values["api-key-env"]
          } (or --pipeline-check for an offline check)`,
        );
      }
      endpoint.apiKey = key;
    }
    const factory = resolveSystem({
      name: values.system,
      endpoint,
      hindsightUrl,
      hindsightApiKey: Deno.env.get("HINDSIGHT_API_KEY"),
    });

    const tmp = `${values.out}.partial`;
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    const encoder = new TextEncoder();
    const started = performance.now();
    let n = 0;
    try {
      await measureSystem({
        factory,
        instances,
        attacks,
        modes,
        ks,
        agent: agent[0],
        judge: models.judge,
        runId: `${values.system}-${seed}`,
        seed,
        dataset: values.dataset,
        pipelineCheck: values["pipeline-check"],
        concurrency: int("concurrency", values.concurrency),
        onRow: async (row) => {
          n++;
          await file.write(encoder.encode(JSON.stringify(row) + "\n"));
        },
      });
    } finally {
      file.close();
    }
    await Deno.rename(tmp, values.out);
    console.error(
      `${values.system}: ${n} rows to ${values.out} in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s` +
        (values["pipeline-check"] ? ` (PIPELINE CHECK)` : ""),
    );
  } finally {
    for (const stop of stops) await stop();
    models.close();
  }
}

if (import.meta.main) await runCli("systems", () => systemsMain(Deno.args));
