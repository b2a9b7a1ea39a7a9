/**
 * `deno task systems`: measure an existing memory system (Mem0, LangMem, A-MEM, Hindsight) on a
 * dataset, M0 and M1 from one writing, K slices from one retrieval, one JSON row per trial.
 */
import { parseArgs } from "node:util";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import { type ManagementMode, SystemRow } from "../model/system_row.ts";
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import type { CacheMiss } from "../models/model_client.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { ResponseCache } from "../models/response_cache.ts";
import { modelSetup } from "../run/model_setup.ts";
import { readRowsFile } from "../run/rows_file.ts";
import type { HindsightStats } from "../systems/hindsight.ts";
import { measureSystem, rowsPerSystemTask, systemTaskKey } from "../systems/measure.ts";
import {
  dryRunAnswers,
  PIPELINE_CHECK_BANNER,
  type PipelineCheck,
  startPipelineCheck,
} from "../systems/pipeline_check.ts";
import { SYSTEM_NAMES, systemSpec } from "../systems/resolve_system.ts";
import { formatPlan, planLines } from "../systems/system_plan.ts";
import { systemSetup } from "../systems/system_setup.ts";
import { CliError, runCli } from "./cli_error.ts";

/** Every option: its parser type, default, placeholder and help line (help is generated). */
const OPTIONS = {
  system: { type: "string", arg: SYSTEM_NAMES.join("|"), help: "the memory system (required)" },
  out: { type: "string", arg: "FILE", help: "rows file (JSONL); required unless --dry-run" },
  dataset: { type: "string", default: "demo", arg: "NAME|FILE", help: "instances" },
  management: {
    type: "string",
    default: "both",
    arg: "on|off|both",
    help: "native management: on (M1), off (M0) or both, from the same writing",
  },
  k: { type: "string", default: "1,3,5,7", arg: "LIST", help: "retrieval budgets, each 1-20" },
  attack: { type: "string", default: "both", arg: "minja|sleeper|both", help: "attacks" },
  limit: { type: "string", arg: "N", help: "first N instances; default all" },
  "bank-size": { type: "string", default: "100", arg: "N", help: "background records |B|" },
  agent: {
    type: "string",
    default: "reference:balanced",
    arg: "llm:ID|reference[:PERSONA]",
    help: "the agent; a real run needs llm:ID (the reference agent is a simulator)",
  },
  model: { type: "string", arg: "ID", help: "shorthand for --agent llm:ID" },
  judge: {
    type: "string",
    default: "deterministic",
    arg: "deterministic|llm:ID",
    help: "the judge (the paper's: AgentEvals LLM-as-judge, llm:ID)",
  },
  "system-model": {
    type: "string",
    arg: "ID",
    help: "chat model the system calls; default the agent's model",
  },
  "embedding-model": {
    type: "string",
    default: "text-embedding-3-small",
    arg: "NAME",
    help: "embedding model the system calls",
  },
  "embedding-base-url": {
    type: "string",
    arg: "URL",
    help: "embedding endpoint; default --base-url, else OpenAI",
  },
  "embedding-key-env": {
    type: "string",
    default: "OPENAI_API_KEY",
    arg: "VAR",
    help: "variable holding the embedding key",
  },
  "base-url": {
    type: "string",
    arg: "URL",
    help: "one OpenAI-compatible endpoint for every model",
  },
  "api-key-env": {
    type: "string",
    arg: "VAR",
    help: "key variable for models outside the catalog; default OPENAI_API_KEY",
  },
  "hindsight-url": {
    type: "string",
    arg: "URL",
    help: "your Hindsight server (key in $HINDSIGHT_API_KEY)",
  },
  trials: { type: "string", default: "1", arg: "N", help: "independent repeats (trial column)" },
  seed: { type: "string", default: "0", arg: "N", help: "run seed" },
  concurrency: {
    type: "string",
    default: "4",
    arg: "N",
    help: "instances measured at once (requests in flight: 2N)",
  },
  "max-retries": { type: "string", default: "4", arg: "N", help: "retries per model call" },
  timeout: { type: "string", default: "60000", arg: "MS", help: "per-request timeout" },
  cache: {
    type: "string",
    default: ".memgauge/cache.sqlite",
    arg: "FILE",
    help: "response cache: an identical rerun sends nothing",
  },
  resume: { type: "boolean", help: "complete an interrupted run from OUT.partial" },
  "dry-run": {
    type: "boolean",
    help: "print the requests and tokens a run needs (replies scripted), send nothing",
  },
  "pipeline-check": {
    type: "boolean",
    help: "offline check: scripted local model, embedder and Hindsight (not a measurement)",
  },
  help: { type: "boolean", help: "this text" },
} as const;

/**
 * The generated help text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsHelp } from "./systems.ts";
 * assert.match(systemsHelp(), /--management on\|off\|both/);
 * ```
 */
export function systemsHelp(): string {
  const lines = Object.entries(OPTIONS).map(([name, o]) => {
    const flag = `--${name}${"arg" in o ? ` ${o.arg}` : ""}`;
    const dflt = "default" in o ? ` (default ${o.default})` : "";
    return `  ${flag}\n      ${o.help}${dflt}`;
  });
  return [
    "usage: deno task systems --system NAME --agent llm:ID --out rows.jsonl [options]",
    "       deno task systems --system NAME --pipeline-check --out check.jsonl",
    "       deno task systems --system NAME --agent llm:ID --dry-run",
    "",
    ...lines,
  ].join("\n");
}

function _int(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `in ${min}-${max}`;
    throw new CliError(`--${name}: expected an integer ${range}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

const _exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Run the systems CLI. */
export async function systemsMain(argv: readonly string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(OPTIONS).map(([k, o]) => [
          k,
          { type: o.type, ...("default" in o ? { default: o.default } : {}) },
        ]),
      ) as never,
      strict: true,
    }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new CliError(`${(e as Error).message.split("\n")[0]} (see --help)`);
  }
  const str = (k: keyof typeof OPTIONS) => values[k] as string | undefined;
  const flag = (k: keyof typeof OPTIONS) => values[k] === true;
  if (flag("help")) {
    console.log(systemsHelp());
    return;
  }
  // Validation first: bad input leaves no file and sends nothing.
  if (!str("system")) {
    throw new CliError(`--system is required (one of ${SYSTEM_NAMES.join(", ")})`);
  }
  const spec = systemSpec(str("system")!);
  const dryRun = flag("dry-run"), pipelineCheck = flag("pipeline-check");
  if (!dryRun && !str("out")) throw new CliError("--out is required (or --dry-run)");
  if (dryRun && flag("resume")) throw new CliError("--dry-run and --resume: pick one");
  const modes: ManagementMode[] | undefined = (
    { on: ["M1"], off: ["M0"], both: ["M0", "M1"] } as Record<string, ManagementMode[]>
  )[str("management")!];
  if (!modes) {
    throw new CliError(
      `--management: expected on, off or both, got ${JSON.stringify(str("management"))}`,
    );
  }
  const kText = str("k")!;
  const ks = kText.split(",").map((k) => _int("k", k, 1, 20));
  const attackText = str("attack")!;
  if (!["minja", "sleeper", "both"].includes(attackText)) {
    throw new CliError(
      `--attack: expected minja, sleeper or both, got ${JSON.stringify(attackText)}`,
    );
  }
  const attacks = attackText === "both" ? ["minja", "sleeper"] as const : [attackText as "minja"];
  const bankSize = _int("bank-size", str("bank-size")!, 1);
  const limit = str("limit") === undefined ? undefined : _int("limit", str("limit")!, 1);
  const trials = _int("trials", str("trials")!, 1);
  const seed = _int("seed", str("seed")!, 0);
  const concurrency = _int("concurrency", str("concurrency")!, 1);
  const maxRetries = _int("max-retries", str("max-retries")!, 0);
  const timeoutMs = _int("timeout", str("timeout")!, 1);
  const agentSpec = str("model") ? `llm:${str("model")}` : str("agent")!;
  const judgeSpec = str("judge")!;
  if (judgeSpec !== "deterministic" && !/^llm:.+/.test(judgeSpec)) {
    throw new CliError(
      `--judge: expected deterministic or llm:ID, got ${JSON.stringify(judgeSpec)}`,
    );
  }
  const agentModel = agentSpec.startsWith("llm:") ? agentSpec.slice(4) : null;
  if (!agentModel && !agentSpec.startsWith("reference")) {
    throw new CliError(
      `--agent: expected llm:ID or reference[:PERSONA], got ${JSON.stringify(agentSpec)}`,
    );
  }
  if (!pipelineCheck && !dryRun && !agentModel) {
    throw new CliError(
      `--agent: a real run needs a model agent (--agent llm:ID or --model ID); ` +
        `${
          JSON.stringify(agentSpec)
        } is the offline simulator (use --pipeline-check for an offline check)`,
    );
  }
  if (spec.needsServer && !pipelineCheck && !dryRun && !str("hindsight-url")) {
    throw new CliError(
      "--system hindsight needs --hindsight-url URL (the Hindsight server you run)",
    );
  }
  const systemModel = str("system-model") ?? agentModel ?? "gpt-5.4-mini";
  if (!pipelineCheck && !dryRun) {
    // Every key is checked before anything is created (the cache file included).
    const ids = [agentModel!, ...(judgeSpec.startsWith("llm:") ? [judgeSpec.slice(4)] : [])];
    for (const id of ids) resolveModelEndpoint({ id, baseUrl: str("base-url") });
    if (spec.needsModels) {
      resolveModelEndpoint({
        id: systemModel,
        baseUrl: str("base-url"),
        apiKeyEnv: str("api-key-env"),
      });
      const keyEnv = str("embedding-key-env")!;
      if (!Deno.env.get(keyEnv)) {
        throw new CliError(
          `--embedding-key-env: environment variable ${keyEnv} is not set (it must hold the key of ${
            str("embedding-model")
          })`,
        );
      }
    }
  }
  const out = str("out");
  const tmp = out ? `${out}.partial` : "";
  if (flag("resume") && out && !await _exists(tmp) && await _exists(out)) {
    console.log(`${out} is complete; nothing to resume.`);
    return;
  }

  let check: PipelineCheck | null = null;
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const answers = dryRun ? await dryRunAnswers() : undefined;
    if (pipelineCheck) {
      check = await startPipelineCheck({});
      stops.push(() => check!.close());
    }
    // A pipeline check keeps its throwaway answers out of the real cache.
    const cachePath = pipelineCheck ? ":memory:" : str("cache")!;
    const cache = new ResponseCache({ path: cachePath });
    stops.push(() => cache.close());
    const limiter = new RequestLimiter({ concurrency: 2 * concurrency });
    // Stand-ins and dry runs read no key: every variable "holds" a placeholder never sent.
    const keyEnv = pipelineCheck || dryRun
      ? new Proxy({}, { get: () => "placeholder" }) as Record<string, string>
      : undefined;
    // Agent and judge: their own setup (same cache file); misses are counted in a dry run.
    const agentMisses = { requests: 0, promptTokens: 0, completionTokens: 0 };
    const models = modelSetup({
      cachePath,
      baseUrl: check?.baseUrl ?? str("base-url"),
      concurrency: 2 * concurrency,
      maxRetries,
      timeoutMs,
      judge: judgeSpec,
      ...(keyEnv && { env: keyEnv }),
      ...(answers && {
        onMiss: async (miss: CacheMiss) => {
          const r = await answers.chat(miss);
          if (r.cacheHit) return r;
          agentMisses.requests++;
          agentMisses.promptTokens += r.promptTokens ?? 0;
          agentMisses.completionTokens += r.completionTokens ?? 0;
          return r;
        },
      }),
    });
    stops.push(() => models.close());
    const agents = resolveAgents({ specs: [agentSpec], factories: { llm: models.agentFactory } });
    if (agents.length !== 1) {
      throw new CliError(`--agent: expected one agent, got ${JSON.stringify(agentSpec)}`);
    }
    let instances = await loadDataset({ name: str("dataset")!, seed, bankSize, traceLoad: 1 });
    if (limit) instances = instances.slice(0, limit);

    // A dry run of Hindsight talks to a local stand-in (never to your server).
    const dryHindsight = dryRun && spec.needsServer ? await startPipelineCheck({}) : null;
    if (dryHindsight) stops.push(() => dryHindsight.close());
    const system = systemSetup({
      name: spec.name,
      chatModel: check ? "pipeline-check" : systemModel,
      baseUrl: check?.baseUrl ?? str("base-url"),
      apiKeyEnv: str("api-key-env"),
      embeddingModel: str("embedding-model")!,
      embeddingBaseUrl: check?.baseUrl ?? str("embedding-base-url"),
      embeddingKeyEnv: check ? "OPENAI_API_KEY" : str("embedding-key-env"),
      hindsightUrl: check?.hindsightUrl ?? dryHindsight?.hindsightUrl ?? str("hindsight-url"),
      hindsightApiKey: check || dryHindsight ? undefined : Deno.env.get("HINDSIGHT_API_KEY"),
      hindsightPollMs: check || dryHindsight ? 2 : undefined,
      cache: dryHindsight ? undefined : cache,
      limiter,
      maxRetries,
      timeoutMs,
      ...(keyEnv && { env: keyEnv }),
      ...(answers && { dryRun: answers }),
    });

    let select: ((key: string) => boolean) | undefined;
    let kept = 0;
    const perTask = rowsPerSystemTask({ modes: modes.length, ks: new Set(ks).size });
    if (flag("resume") && await _exists(tmp)) {
      const { rows, keys } = await readRowsFile<SystemRow>({
        path: tmp,
        schema: SystemRow,
        key: systemTaskKey,
        rowsPerKey: perTask,
      });
      kept = rows.length;
      select = (key) => !keys.has(key);
      await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
    }
    if (pipelineCheck) console.error(PIPELINE_CHECK_BANNER);
    const file = dryRun ? null : await Deno.open(tmp, {
      write: true,
      create: true,
      truncate: !select,
      append: !!select,
    });
    const encoder = new TextEncoder();
    const rowTokens = { promptTokens: 0, completionTokens: 0 };
    const started = performance.now();
    let n = 0;
    try {
      await measureSystem({
        system,
        instances,
        attacks,
        modes,
        ks,
        agent: agents[0],
        judge: models.judge,
        runId: `${spec.name}-${str("dataset")}-${seed}`,
        seed,
        trials,
        dataset: str("dataset")!,
        pipelineCheck,
        concurrency,
        select,
        onRows: async (rows) => {
          n += rows.length;
          for (const r of rows) {
            rowTokens.promptTokens += r.promptTokens ?? 0;
            rowTokens.completionTokens += r.completionTokens ?? 0;
          }
          // One write per task: a kill tears at most the last task, which resume reruns.
          await file?.write(encoder.encode(rows.map((r) => JSON.stringify(r) + "\n").join("")));
        },
      });
    } finally {
      file?.close();
    }
    if (out && !dryRun) await Deno.rename(tmp, out);
    const stats = models.stats();
    // A real run's agent and judge tokens are the rows' (cache hits included).
    const agentUsage = dryRun ? agentMisses : { requests: stats.requests, ...rowTokens };
    const tasks = n / perTask;
    const title = dryRun
      ? `DRY RUN (nothing sent; replies scripted as in a pipeline check, so a real model's ` +
        `replies change the counts): ${spec.name}, ${tasks} tasks (instance x attack x trial)`
      : `${spec.name}: requests sent${pipelineCheck ? " (PIPELINE CHECK)" : ""}, ${tasks} tasks`;
    console.log(formatPlan({
      title,
      lines: planLines({
        chatModel: system.chatModel,
        usage: system.port?.usage ?? new Map(),
        agent: { ...agentUsage, model: agentModel },
      }),
      hindsight: (system as { stats?: HindsightStats }).stats,
    }));
    if (!dryRun) {
      console.log(
        `${n + kept} rows -> ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s` +
          (kept ? ` (${kept} kept from ${tmp})` : "") + (pipelineCheck ? " (PIPELINE CHECK)" : ""),
      );
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

if (import.meta.main) await runCli("systems", () => systemsMain(Deno.args));
