/**
 * `deno task systems`: measure an existing memory system (Mem0, Hindsight, LangMem, A-MEM) on a
 * dataset, M0 and M1 from one writing, K slices from one retrieval, one JSON row per trial.
 */
import { z } from "zod";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { loadDataset } from "../data/datasets.ts";
import { type ManagementMode, SystemRow } from "../schema/system_row.ts";
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import type { CacheMiss } from "../models/model_client.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { ResponseCache } from "../models/response_cache.ts";
import { isSpendCapReached } from "../models/spend_cap.ts";
import { errorSummary } from "../run/error_summary.ts";
import { lockOut, OutLockedError } from "../run/out_lock.ts";
import { modelSetup } from "../run/model_setup.ts";
import { readRowsFile } from "../run/rows_file.ts";
import { hindsightServerInfo, type HindsightStats } from "../systems/hindsight.ts";
import { redact } from "../models/redact.ts";
import { measureSystem, rowsPerSystemTask, systemTaskKey } from "../systems/measure.ts";
import {
  dryRunAnswers,
  PIPELINE_CHECK_BANNER,
  type PipelineCheck,
  startPipelineCheck,
} from "../systems/pipeline_check.ts";
import { SYSTEM_NAMES } from "../systems/resolve_system.ts";
import { registeredSystemSpec, SYSTEM_REGISTRY, systemOptions } from "../systems/systems.ts";
import { formatPlan, planLines } from "../systems/system_plan.ts";
import { systemSetup } from "../systems/system_setup.ts";
import {
  CliError,
  commandLine,
  defineCommand,
  ENV_VAR_NAME,
  errorRowsExit,
  execute,
  EXIT,
  opt,
  type Parsed,
  runCommand,
} from "./command.ts";
import { AgentSpec, checkModelIds, MODEL_OPTIONS, rolesOf, SWEEP_OPTIONS } from "./sweep_args.ts";
import { modelSetupOptions } from "./sweep_options.ts";

const _Ks = z.number().int().min(1, "expected K >= 1").max(20, "expected K <= 20");

/** Every option of `deno task systems`, declared once: parsing, checks and `--help` follow. */
export const SYSTEMS_OPTIONS = {
  system: opt.string({
    description: () =>
      "The memory system, any registered one (a --plugin adds its own): " +
      SYSTEM_REGISTRY.entries().map((e) =>
        `${e.id} (${e.description}${
          e.options
            ? `; --system-option ${
              Object.entries(e.options).map(([k, d]) => `${k}=...: ${d}`).join(", ")
            }`
            : ""
        })`
      ).join("; ") + ".",
    placeholder: SYSTEM_NAMES.join("|"),
    example: "mem0",
    required: true,
    schema: z.string().refine((id) => SYSTEM_REGISTRY.has(id), {
      error: () => `expected one of ${SYSTEM_REGISTRY.ids().join("|")}`,
    }),
  }),
  out: opt.string({
    description: "Rows file (JSONL, one row per trial); rows stream to OUT.partial, renamed " +
      "at the end. A --dry-run writes nothing (with --resume it plans what OUT.partial lacks).",
    example: "mem0.jsonl",
    defaultText: "none (required unless --dry-run)",
    path: { use: "output-file" },
  }),
  dataset: SWEEP_OPTIONS.dataset,
  management: opt.choice(["on", "off", "both"] as const, {
    description: "The system's native management: on (M1), off (M0) or both, applied from " +
      "one writing.",
    example: "on",
    default: "both",
  }),
  k: opt.list("integer", {
    description: "Retrieval budgets, each 1-20; retrieval runs once at the largest and is " +
      "sliced.",
    example: "1,5",
    default: [1, 3, 5, 7],
    schema: _Ks,
  }),
  attack: SWEEP_OPTIONS.attack,
  limit: SWEEP_OPTIONS.limit,
  "bank-size": SWEEP_OPTIONS["bank-size"],
  agent: opt.string({
    description: "The agent: llm:MODEL (the LangGraph agent over a real model), or the " +
      "offline reference agent (a simulator: only with --pipeline-check or --dry-run).",
    placeholder: "llm:MODEL|reference[:PERSONA]",
    example: "llm:gpt-5.4",
    default: "reference:balanced",
    schema: AgentSpec,
  }),
  model: SWEEP_OPTIONS.model,
  judge: MODEL_OPTIONS.judge,
  "judge-scope": MODEL_OPTIONS["judge-scope"],
  "memory-placement": SWEEP_OPTIONS["memory-placement"],
  "system-model": opt.string({
    description: "The chat model the system itself calls (a catalog id, or any name with " +
      "--base-url).",
    placeholder: "MODEL",
    example: "gpt-5.4-mini",
    defaultText: "the agent's model",
  }),
  "embedding-model": opt.string({
    description: "The embedding model the system calls.",
    placeholder: "NAME",
    example: "text-embedding-3-large",
    default: "text-embedding-3-small",
  }),
  "embedding-base-url": opt.string({
    description: "The embedding endpoint (OpenAI-compatible).",
    placeholder: "URL",
    example: "http://localhost:8000/v1",
    defaultText: "--base-url, else https://api.openai.com/v1",
    schema: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
  }),
  "embedding-key-env": opt.string({
    description: "The variable holding the embedding endpoint's key (never the key).",
    placeholder: "VAR",
    example: "EMBEDDING_API_KEY",
    default: "OPENAI_API_KEY",
    schema: ENV_VAR_NAME,
    secret: true,
  }),
  "base-url": MODEL_OPTIONS["base-url"],
  "api-key-env": MODEL_OPTIONS["api-key-env"],
  "model-option": MODEL_OPTIONS["model-option"],
  "hindsight-url": opt.string({
    description: "Your Hindsight server (its key, if it wants one, in $HINDSIGHT_API_KEY).",
    placeholder: "URL",
    example: "http://localhost:8888",
    defaultText: "none (required for --system hindsight unless --pipeline-check or --dry-run)",
    schema: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
  }),
  "system-option": opt.repeated({
    description: "One option of a plugin's memory system (repeatable), one its plugin " +
      "declares (`options` of its entry; --help lists them under --system); the built-ins " +
      "take none.",
    placeholder: "KEY=VALUE",
    example: "minShared=2",
  }),
  trials: SWEEP_OPTIONS.trials,
  seed: SWEEP_OPTIONS.seed,
  "rebuild-instances": SWEEP_OPTIONS["rebuild-instances"],
  concurrency: opt.integer({
    description: "Instances measured at once (model requests in flight: twice as many).",
    example: "8",
    default: 4,
    schema: z.number().int().min(1),
  }),
  "max-retries": MODEL_OPTIONS["max-retries"],
  "max-cost": MODEL_OPTIONS["max-cost"],
  timeout: MODEL_OPTIONS.timeout,
  // The cache is checked as a database whenever a run can use it (not a pipeline check).
  cache: {
    ...MODEL_OPTIONS.cache,
    path: { use: "database", when: (v: Record<string, unknown>) => !v.pipelineCheck },
  },
  resume: opt.flag({
    description: "Complete an interrupted run from OUT.partial: kept tasks are not rerun, a " +
      "torn last one is.",
  }),
  "retry-errors": opt.flag({
    description: "Rerun only the tasks (instance, attack, trial) of OUT that have an error " +
      "row, in place.",
  }),
  "allow-errors": opt.flag({
    description: "Exit 0 even when rows end with errors (default: exit 3 and print the " +
      "--retry-errors command).",
  }),
  "dry-run": opt.flag({
    description: "Print the requests and tokens this command would send (replies scripted as " +
      "in a pipeline check), send nothing, read no key, write no file.",
  }),
  "pipeline-check": opt.flag({
    description: "Offline check: the system's model, embedder and Hindsight server are " +
      "scripted local stand-ins; rows say pipelineCheck: true (not a measurement).",
  }),
} as const;

/** The `deno task systems` command. */
export const systemsCommand = defineCommand({
  name: "systems",
  summary: "measure an existing memory system (Mem0, Hindsight, LangMem, A-MEM): M0 and M1 " +
    "from one writing, RSR, utilities and ASR at each K",
  description: "Per instance, attack and trial the system writes the background bank, the " +
    "helpful trace (clean retrieval) and the risk trace (poisoned retrieval) once; M0 (native " +
    "management off) and M1 (on) are applied from that same state. Every model call of the " +
    "system goes through the kit's client (catalog temperature and seed, cache, rate limit); " +
    "the plan of requests and tokens is printed at the end (or alone with --dry-run). A real " +
    "run needs an llm: agent; the offline reference agent runs only with --pipeline-check.",
  options: SYSTEMS_OPTIONS,
  examples: [
    "deno task systems --system mem0 --pipeline-check --limit 10 --out mem0-check.jsonl",
    "deno task systems --system mem0 --agent llm:gpt-5.4 --dry-run",
    "deno task systems --system mem0-classic --agent llm:gpt-5.4 --judge llm:gpt-5.4-mini " +
    "--out mem0.jsonl",
    "deno task systems --system hindsight --agent llm:gpt-5.4 --hindsight-url " +
    "http://localhost:8888 --out hindsight.jsonl",
  ],
  check(v, { given }) {
    if (!v.dryRun && v.out === undefined) {
      throw new CliError("--out: required (FILE) unless --dry-run; see deno task systems --help");
    }
    if (v.resume && v.retryErrors) throw new CliError("--resume and --retry-errors: pick one");
    if (v.dryRun && v.pipelineCheck) {
      throw new CliError(
        "--dry-run and --pipeline-check: pick one (a pipeline check sends " +
          "its requests to local stand-ins)",
      );
    }
    if (given("model") && given("agent")) {
      throw new CliError(
        "--model: is shorthand for --agent llm:MODEL; give --model or --agent, not both",
      );
    }
    const agent = v.model !== undefined ? `llm:${v.model}` : v.agent;
    if (!v.pipelineCheck && !v.dryRun && !agent.startsWith("llm:")) {
      throw new CliError(
        `--agent: a real run needs a model agent (--agent llm:MODEL or --model MODEL); ` +
          `${
            JSON.stringify(agent)
          } is the offline simulator (use --pipeline-check for an offline check)`,
      );
    }
    if (v.system === "hindsight" && !v.pipelineCheck && !v.dryRun && !v.hindsightUrl) {
      throw new CliError(
        "--hindsight-url: required for --system hindsight (the Hindsight server you run)",
      );
    }
    try {
      systemOptions({ name: v.system, values: v.systemOption });
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    _notApplying(v, given, agent);
    if (v.pipelineCheck) return;
    checkModelIds({
      [given("model") ? "model" : "agent"]: [agent],
      judge: [_judge(v.judge, agent)],
      ...(registeredSystemSpec(v.system).needsModels && v.systemModel !== undefined
        ? { "system-model": [`llm:${v.systemModel}`] }
        : {}),
    }, v.baseUrl);
  },
});

/**
 * Options that do not apply to this command are refused, as the sweep refuses its own: each in
 * one line naming the option and why.
 */
function _notApplying(
  v: Parsed<typeof SYSTEMS_OPTIONS>["values"],
  given: (name: keyof typeof SYSTEMS_OPTIONS) => boolean,
  agent: string,
): void {
  const spec = registeredSystemSpec(v.system);
  const fail = (message: string): never => {
    throw new CliError(message);
  };
  if (given("hindsight-url") && !spec.needsServer) {
    fail(`--hindsight-url: applies to --system hindsight only, got --system ${v.system}`);
  }
  const models = [
    "system-model",
    "embedding-model",
    "embedding-base-url",
    "embedding-key-env",
  ] as const;
  for (const name of models) {
    if (given(name) && !spec.needsModels) {
      fail(
        `--${name}: applies to systems whose models the kit calls, not --system ${v.system} ` +
          `(its server calls its own)`,
      );
    }
  }
  if (v.pipelineCheck) {
    for (
      const name of [
        "base-url",
        "api-key-env",
        "model-option",
        "system-model",
        "embedding-model",
        "embedding-base-url",
        "embedding-key-env",
        "hindsight-url",
        "cache",
      ] as const
    ) {
      if (given(name)) {
        fail(
          `--${name}: does not apply with --pipeline-check (the system's model, embedder and ` +
            `Hindsight server are local stand-ins, and their answers are not cached)`,
        );
      }
    }
  }
  const judge = _judge(v.judge, agent);
  if (given("memory-placement") && !agent.startsWith("llm:")) {
    fail(
      `--memory-placement: applies to llm: agents (the offline reference agent reads records, ` +
        `not prompts), got agent ${agent}`,
    );
  }
  if (given("judge-scope") && judge === "deterministic") {
    fail(
      `--judge-scope: applies to an LLM judge (--judge llm:MODEL), not the deterministic ` +
        "matcher, which reads the answer only",
    );
  }
  if (given("api-key-env") && !given("base-url")) {
    fail(
      "--api-key-env: applies with --base-url only (catalog models read the variable named " +
        "in data/models.json)",
    );
  }
}

/** `--judge`, or the default for the agent (`defaultRoles`, as every command). */
function _judge(judge: string | undefined, agent: string): string {
  return rolesOf({ agent: [agent], judge }).judge;
}

const _exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Run the systems CLI with the given arguments; returns the exit code (errors are printed). */
export async function systemsMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: systemsCommand, argv, main: _main });
}

// Stand-ins and dry runs read no key: every variable "holds" a placeholder that is never sent.
const _PLACEHOLDER_ENV = new Proxy({}, { get: () => "placeholder" }) as Record<string, string>;

async function _main(parsed: Parsed<typeof SYSTEMS_OPTIONS>): Promise<number> {
  const v = parsed.values;
  const spec = registeredSystemSpec(v.system);
  const { dryRun, pipelineCheck } = v;
  const modes: ManagementMode[] = {
    on: ["M1"],
    off: ["M0"],
    both: ["M0", "M1"],
  }[v.management] as ManagementMode[];
  const agentSpec = v.model !== undefined ? `llm:${v.model}` : v.agent;
  const agentModel = agentSpec.startsWith("llm:") ? agentSpec.slice(4) : null;
  const systemModel = v.systemModel ?? agentModel ?? "gpt-5.4-mini";
  if (!pipelineCheck && !dryRun) {
    // Every key is checked before anything is created (the cache file included).
    const judge = _judge(v.judge, agentSpec);
    const ids = [
      agentModel!,
      ...(judge.startsWith("llm:") && judge !== "llm:self" ? [judge.slice(4)] : []),
    ];
    for (const id of ids) resolveModelEndpoint({ id, baseUrl: v.baseUrl });
    if (spec.needsModels) {
      resolveModelEndpoint({ id: systemModel, baseUrl: v.baseUrl, apiKeyEnv: v.apiKeyEnv });
      if (!Deno.env.get(v.embeddingKeyEnv)) {
        throw new CliError(
          `--embedding-key-env: environment variable ${v.embeddingKeyEnv} is not set (it must ` +
            `hold the key of ${v.embeddingModel})`,
        );
      }
    }
  }
  if (spec.needsServer && !pipelineCheck && !dryRun) {
    // A server the adapter cannot read lineage from is refused before anything is written.
    try {
      await hindsightServerInfo({
        baseUrl: v.hindsightUrl!,
        apiKey: Deno.env.get("HINDSIGHT_API_KEY"),
      });
    } catch (e) {
      if (e instanceof RangeError) throw e;
      throw new CliError(
        `--hindsight-url ${redact({ text: v.hindsightUrl! })}: cannot reach the server (${
          (e as Error).message.split("\n")[0]
        })`,
      );
    }
  }
  const out = v.out ?? "";
  const tmp = `${out}.partial`;
  const perTask = rowsPerSystemTask({ modes: modes.length, ks: new Set(v.k).size });
  const read = (path: string) =>
    readRowsFile<SystemRow>({ path, schema: SystemRow, key: systemTaskKey, rowsPerKey: perTask });
  // What is already done: resume keeps the complete tasks of OUT.partial; retry-errors reruns
  // the tasks of OUT that have an error row.
  let previous: SystemRow[] = [];
  let select: ((key: string) => boolean) | undefined;
  if (v.resume && !await _exists(tmp) && await _exists(out)) {
    console.log(`${out} is complete; nothing to resume.`);
    return 0;
  }
  if (v.retryErrors) {
    if (!await _exists(out)) {
      throw new CliError(`--retry-errors: no finished rows file at ${JSON.stringify(out)}`);
    }
    previous = (await read(out)).rows;
    if (previous.length === 0) {
      throw new CliError(`--retry-errors: ${JSON.stringify(out)} holds no complete system rows`);
    }
    const failed = new Set(previous.filter((r) => r.error !== null).map(systemTaskKey));
    select = (key) => failed.has(key);
  }

  const stops: (() => Promise<void> | void)[] = [];
  if (!dryRun) {
    // One writer per --out, as for the sweep: an OS lock the kernel drops if this process dies.
    try {
      const lock = lockOut({ out, command: "systems" });
      stops.push(() => lock.release());
    } catch (e) {
      if (e instanceof OutLockedError) throw new CliError(e.message);
      throw e;
    }
  }
  try {
    const answers = dryRun ? await dryRunAnswers() : undefined;
    let check: PipelineCheck | null = null;
    if (pipelineCheck) {
      check = await startPipelineCheck({});
      stops.push(() => check!.close());
    }
    // A pipeline check keeps its throwaway answers out of the real cache.
    const cachePath = pipelineCheck ? ":memory:" : v.cache;
    const cache = new ResponseCache({ path: cachePath });
    stops.push(() => cache.close());
    const limiter = new RequestLimiter({ concurrency: 2 * v.concurrency });
    const env = pipelineCheck || dryRun ? _PLACEHOLDER_ENV : undefined;
    // Agent and judge: their own setup over the same cache file; a dry run counts their misses.
    const agentMisses = { requests: 0 };
    const models = modelSetup({
      // --max-cost caps the agent, the judge and the system's chat model (one setup).
      ...modelSetupOptions({ values: v, judge: _judge(v.judge, agentSpec) }),
      cachePath,
      baseUrl: check?.baseUrl ?? v.baseUrl,
      ...(check && { apiKeyEnv: undefined, modelOptions: undefined }),
      concurrency: 2 * v.concurrency,
      ...((check || dryRun) && { maxCostUsd: undefined }),
      ...(env && { env }),
      ...(answers && {
        onMiss: async (miss: CacheMiss) => {
          const r = await answers.chat(miss);
          if (r.cacheHit) return r;
          agentMisses.requests++;
          return r;
        },
      }),
    });
    stops.push(() => models.close());
    const [agent] = resolveAgents({ specs: [agentSpec], factories: { llm: models.agentFactory } });
    let instances = await loadDataset({
      name: v.dataset,
      seed: v.seed,
      bankSize: v.bankSize,
      traceLoad: 1,
      instanceCache: { rebuild: v.rebuildInstances },
    });
    if (v.limit) instances = instances.slice(0, v.limit);

    // A dry run of Hindsight talks to a local stand-in, never to your server.
    const local = dryRun && spec.needsServer ? await startPipelineCheck({}) : null;
    if (local) stops.push(() => local.close());
    const standIn = check ?? local;
    const system = systemSetup({
      name: spec.name,
      // The system's chat model is a client of the same setup: one cache, its endpoint's limiter.
      ...(spec.needsModels &&
        { chatClient: models.client(check ? "pipeline-check" : systemModel) }),
      chatModel: check ? "pipeline-check" : systemModel,
      baseUrl: check?.baseUrl ?? v.baseUrl,
      apiKeyEnv: v.apiKeyEnv,
      embeddingModel: v.embeddingModel,
      embeddingBaseUrl: check?.baseUrl ?? v.embeddingBaseUrl,
      embeddingKeyEnv: check ? "OPENAI_API_KEY" : v.embeddingKeyEnv,
      hindsightUrl: standIn?.hindsightUrl ?? v.hindsightUrl,
      hindsightApiKey: standIn ? undefined : Deno.env.get("HINDSIGHT_API_KEY"),
      hindsightPollMs: standIn ? 2 : undefined,
      cache: local ? undefined : cache,
      limiter,
      systemOptions: systemOptions({ name: spec.name, values: v.systemOption }),
      maxRetries: v.maxRetries,
      timeoutMs: v.timeout,
      ...(env && { env }),
      ...(answers && { dryRun: answers }),
    });

    if (v.resume && await _exists(tmp)) {
      const { rows, keys } = await read(tmp);
      previous = rows;
      select = (key) => !keys.has(key);
      if (!dryRun) {
        await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""), {
          mode: 0o644,
        });
      }
    }
    if (pipelineCheck) console.error(PIPELINE_CHECK_BANNER);
    const encoder = new TextEncoder();
    const rowTokens = { promptTokens: 0, completionTokens: 0 };
    const askedOnce = new Set<string>();
    const fresh: SystemRow[] = [];
    // Opened at the first rows, so a run that fails before any row leaves no file behind.
    let file: Deno.FsFile | undefined;
    const open = async () => {
      if (file) return file;
      file = await Deno.open(tmp, {
        write: true,
        create: true,
        truncate: !v.resume,
        append: v.resume,
        mode: 0o644,
      });
      // 0644 whatever the umask (a container's is often 000).
      await Deno.chmod(tmp, 0o644);
      return file;
    };
    const started = performance.now();
    try {
      await measureSystem({
        system,
        instances,
        attacks: v.attack as ("minja" | "sleeper")[],
        modes,
        ks: v.k,
        agent,
        judge: models.judge,
        runId: `${spec.name}-${v.dataset}-${v.seed}`,
        seed: v.seed,
        trials: v.trials,
        dataset: v.dataset,
        pipelineCheck,
        concurrency: v.concurrency,
        select,
        onRows: async (rows) => {
          fresh.push(...rows);
          // Tokens sent: a row whose answer came from the cache cost nothing, and two rows
          // asking the same thing at once (the clean context of both attacks) share one request.
          for (const r of rows.filter((r) => r.cacheHit !== true)) {
            const asked = JSON.stringify([
              r.agent,
              r.instanceId,
              r.condition,
              r.contextIds,
              r.trial,
            ]);
            if (askedOnce.has(asked)) continue;
            askedOnce.add(asked);
            rowTokens.promptTokens += r.promptTokens ?? 0;
            rowTokens.completionTokens += r.completionTokens ?? 0;
          }
          // One write per task: a kill tears at most the last task, which --resume reruns.
          if (!dryRun && !v.retryErrors) {
            await (await open()).write(
              encoder.encode(rows.map((r) => JSON.stringify(r) + "\n").join("")),
            );
          }
        },
      });
      if (!dryRun && !v.retryErrors) await open();
    } catch (e) {
      if (!isSpendCapReached(e)) throw e;
      // Stopped at --max-cost: the tasks done are in OUT.partial, the resume does the rest.
      console.error(
        `memgauge systems: stopped before the estimated spend crossed --max-cost ` +
          `${models.spend!.usd} USD (${models.spend!.spentUsd.toFixed(4)} USD spent); the ` +
          `tasks done are in ${tmp}.`,
      );
      console.error(
        `Go on with: ${
          commandLine({ name: "systems", argv: parsed.argv, drop: ["resume"], add: ["--resume"] })
        }`,
      );
      return EXIT.stopped;
    } finally {
      file?.close();
    }
    let rows = [...previous, ...fresh];
    if (v.retryErrors) {
      // Each redone task replaces its rows where they were.
      const redone = new Map<string, SystemRow[]>();
      for (const r of fresh) {
        redone.set(systemTaskKey(r), [...(redone.get(systemTaskKey(r)) ?? []), r]);
      }
      const placed = new Set<string>();
      rows = previous.flatMap((r) => {
        const key = systemTaskKey(r);
        if (!redone.has(key)) return [r];
        if (placed.has(key)) return [];
        placed.add(key);
        return redone.get(key)!;
      });
      if (!dryRun) {
        await Deno.writeTextFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""), {
          mode: 0o644,
        });
      }
    }
    if (!dryRun) await Deno.rename(tmp, out);
    // The setup's counters include the system's chat calls; the plan lists those apart.
    const own = [...(system.port?.usage.values() ?? [])].reduce(
      (t, u) => ({
        requests: t.requests + u.chatRequests,
        promptTokens: t.promptTokens + u.promptTokens,
        completionTokens: t.completionTokens + u.completionTokens,
      }),
      { requests: 0, promptTokens: 0, completionTokens: 0 },
    );
    // Agent tokens, run or dry run alike, are those of the rows whose answer was not cached
    // (the system's own calls share the setup's counters, so only requests are told apart there).
    const agentUsage = {
      requests: dryRun
        ? agentMisses.requests - own.requests
        : Math.max(0, models.stats().requests - own.requests),
      ...rowTokens,
    };
    const tasks = fresh.length / perTask;
    console.log(formatPlan({
      title: dryRun
        ? `DRY RUN (nothing sent; replies scripted as in a pipeline check, so a real model's ` +
          `replies change the counts): ${spec.name}, ${tasks} tasks (instance x attack x trial)`
        : `${spec.name}: requests sent${pipelineCheck ? " (PIPELINE CHECK)" : ""}, ${tasks} tasks`,
      lines: planLines({
        chatModel: system.chatModel,
        usage: system.port?.usage ?? new Map(),
        agent: { ...agentUsage, model: agentModel },
      }),
      hindsight: (system as { stats?: HindsightStats }).stats,
    }));
    if (dryRun) return 0;
    if (agent.simulated) {
      console.log(
        "Agent: offline reference agent (a simulator for teaching and smoke runs, not a real model).",
      );
    }
    console.log(
      `${rows.length} rows -> ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s` +
        (pipelineCheck ? " (PIPELINE CHECK: not a measurement of the system)" : ""),
    );
    return errorRowsExit({
      name: "systems",
      summary: errorSummary({ rows }),
      retry: commandLine({
        name: "systems",
        argv: parsed.argv,
        drop: ["resume", "retry-errors", "allow-errors"],
        add: ["--retry-errors"],
      }),
      allowErrors: v.allowErrors,
    });
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

if (import.meta.main) await runCommand(systemsCommand, _main);
