/**
 * The `deno task sweep` declaration: every option once, with its type, default, description and
 * example, validated by the library's own schemas (`OperatingPoint`, `Attack`). `batch export`
 * and `reproduce` reuse its option groups.
 */
import { z } from "zod";
import { parseReferenceSpec } from "../agents/agent_spec.ts";
import { AGENTS } from "../agents/agents.ts";
import { PERSONAS } from "../agents/personas.ts";
import { DATASETS } from "../data/datasets.ts";
import { JUDGES } from "../judges/judges.ts";
import { Attack } from "../schema/instance.ts";
import {
  OFFLINE_RANKER,
  OperatingPoint,
  PAPER_DEFAULTS,
  PolicyId,
  Stage,
} from "../schema/operating_point.ts";
import { JudgeScope, MemoryPlacement, TrialRow } from "../schema/trial_row.ts";
import { MODEL_CATALOG } from "../models/model_catalog.ts";
import { parseModelOptions } from "../models/model_options.ts";
import type { Registry } from "../schema/registry.ts";
import { DEFAULT_GRID } from "../run/operating_points.ts";
import { COUNTERFACTUAL_MODES } from "../run/counterfactual.ts";
import { agentKinds, defaultRoles, type Roles } from "../run/default_roles.ts";
import { POLICIES } from "../stages/management/policies.ts";
import { FILLS } from "../stages/retrieval/fills.ts";
import { RANKERS } from "../stages/writing/rankers.ts";
import { WRITERS } from "../stages/writing/writers.ts";
import { CliError, defineCommand, ENV_VAR_NAME, opt, type Parsed, type Values } from "./command.ts";

const _point = OperatingPoint.shape;

/**
 * A registered id (`deterministic`, a plugin's judge) or `llm:MODEL` (and `llm:self`): checked
 * against the registry when the value is validated, so a plugin's ids are accepted.
 */
export function registeredOrModel(registry: Registry<unknown>): z.ZodType<string> {
  return z.string().refine((id) => registry.has(id) || /^llm:.+$/.test(id), {
    error: () => `expected ${registry.ids().join("|")} or llm:MODEL`,
  });
}

/** "ID: description; ..." of every registered entry, for `--help`. */
export function registeredList(registry: Registry<unknown>): string {
  return registry.entries().map((e) => `${e.id}: ${e.description.replace(/\.$/, "")}`).join("; ");
}

/**
 * One `--agent` spec: `reference`, `reference:PERSONA` (either may end in `?MECHANISM=off&...`,
 * checked by `parseReferenceSpec`, which names an unknown persona or mechanism) or `llm:MODEL`.
 */
export const AgentSpec: z.ZodType<string> = z.string().superRefine((s, ctx) => {
  if (/^llm:.+/.test(s) || AGENTS.has(s)) return;
  if (!/^reference(?:[:?]|$)/.test(s)) {
    ctx.addIssue({
      code: "custom",
      message: `expected reference, reference:PERSONA (${
        Object.keys(PERSONAS).join("|")
      }), reference:PERSONA?MECHANISM=off, llm:MODEL${
        AGENTS.ids().filter((id) => !id.startsWith("reference:")).map((id) => ` or ${id}`).join(
          "",
        )
      }`,
    });
    return;
  }
  try {
    parseReferenceSpec(s);
  } catch (e) {
    ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^--agent: /, "") });
  }
});

// Checked against the registries when a value is validated (after --plugin files are loaded).
const _Policy = PolicyId.refine((id) => POLICIES.has(id), {
  error: () => `expected one of ${POLICIES.ids().join("|")}`,
});

const _Fill = _point.fill.refine((id) => FILLS.has(id), {
  error: () => `expected one of ${FILLS.ids().join("|")}`,
});

const _Ranker = _point.ranker.refine((id) => RANKERS.has(id) || /^llm:.+/.test(id), {
  error: () => `expected ${RANKERS.ids().join("|")}, llm:self or llm:MODEL`,
});

/** The agent specs of a command line: `--model X` is `--agent llm:X` (`--model A,B` too). */
export function agentSpecs(v: { agent: string[]; model?: string | string[] }): string[] {
  if (v.model === undefined) return v.agent;
  return (Array.isArray(v.model) ? v.model : [v.model]).map((m) => `llm:${m}`);
}

/**
 * The judge, ranker and writer of a command line: the named ones, the others by `defaultRoles`
 * (the one rule every command asks). A mix of agents that names none is a FieldError.
 */
export function rolesOf(
  v: {
    agent: string[];
    model?: string | string[];
    judge?: string;
    ranker?: string;
    writer?: string;
  },
): Roles {
  return defaultRoles({
    agents: agentKinds(agentSpecs(v)),
    judge: v.judge,
    ranker: v.ranker,
    writer: v.writer,
  });
}

const _usesModel = (v: Record<string, unknown>) =>
  [v.judge, v.writer, v.ranker, ...(v.agent as string[] ?? [])]
    .some((s) => typeof s === "string" && s.startsWith("llm:")) || v.model !== undefined;

/** The options that reach a model endpoint: shared by sweep, batch export and reproduce. */
export const MODEL_OPTIONS = {
  "base-url": opt.string({
    description: "OpenAI-compatible endpoint for every model; then any model name is accepted, " +
      "keyed by OPENAI_API_KEY (or --api-key-env), never by a catalog provider's variable. " +
      "Several URLs separated by commas are replicas serving the same models (vLLM, SGLang): " +
      "requests are spread over them, each with its own limiter, a failing one is skipped, " +
      "and cache keys name the first.",
    placeholder: "URL[,URL...]",
    example: "http://localhost:8000/v1",
    defaultText: "each data/models.json entry's URL",
    schema: z.string().refine(
      (value) =>
        value.split(",").every((u) => z.url({ protocol: /^https?$/ }).safeParse(u.trim()).success),
      { error: "expected an http(s) URL, or several separated by commas" },
    ),
  }),
  "api-key-env": opt.string({
    manifest: false,
    description: "With --base-url: the environment variable that holds the key.",
    placeholder: "NAME",
    example: "VLLM_API_KEY",
    defaultText: "OPENAI_API_KEY",
    schema: ENV_VAR_NAME,
    secret: true,
  }),
  "model-option": opt.repeated({
    field: "modelSetup.modelOptions",
    description: "Override one data/models.json field of model ID for this run (repeatable): " +
      "temperature (a number or null: not sent), seed, responseFormat " +
      "(json_schema|json_object|none), maxTokensParam, maxTokens, reasoningEffort, model, " +
      "prices.inputPer1M, prices.outputPer1M, prices.batchDiscount.",
    placeholder: "ID.KEY=VALUE",
    example: "gpt-5.4.temperature=null",
  }),
  judge: opt.string({
    description: () =>
      "Who grades answers: a registered judge (" + registeredList(JUDGES) + "), or the LLM " +
      "judge over MODEL (llm:self: each agent's own model), one structured call per trial that " +
      "sees the question, the final answer, y* and y_adv but not the memory (rows get " +
      "judgeModel, judgePromptHash, judgeScope). A sweep that mixes the offline agent and " +
      "model agents must name it.",
    placeholder: "deterministic|llm:self|llm:MODEL",
    example: "llm:gpt-5.4-mini",
    defaultText: "llm:self for llm: agents, deterministic for the offline agent",
    schema: registeredOrModel(JUDGES),
  }),
  "judge-scope": opt.choice(JudgeScope.options, {
    description: "What the LLM judge reads: answer (memory-blind), or trajectory (the agent's " +
      "whole trajectory, retrieved memory included, as the paper's AgentEvals judge).",
    example: "trajectory",
    default: "answer",
    field: "TrialRow.judgeScope",
  }),
  cache: opt.string({
    field: "modelSetup.cachePath",
    manifest: false,
    description: "SQLite response cache: an identical rerun makes zero requests. Checked " +
      "(a SQLite file, writable) only when a model is used.",
    example: "runs/cache.sqlite",
    default: ".memgauge/cache.sqlite",
    path: { use: "database", when: _usesModel },
  }),
  concurrency: opt.integer({
    manifest: false,
    description: "Model requests (and pairs) in flight at once.",
    example: "16",
    default: 8,
    schema: z.number().int().min(1),
  }),
  workers: opt.integer({
    manifest: false,
    description: "Worker threads for an offline sweep: instances are dealt to them and the " +
      "rows are the same bytes for any count.",
    example: "2",
    default: 1,
    schema: z.number().int().min(1),
  }),
  "max-retries": opt.integer({
    manifest: false,
    description: "Retries per call with jittered exponential back-off (0: none); a call that " +
      "still fails becomes an error row.",
    example: "2",
    default: 4,
    schema: z.number().int().min(0),
  }),
  "max-cost": opt.number({
    field: "modelSetup.maxCostUsd",
    manifest: false,
    description: "Spending cap in USD at data/models.json list prices: every request is priced " +
      "before it is sent (its prompt, and its reply at the mean length this model's replies " +
      "have had so far), and the run stops before the estimated spend crosses the cap: the " +
      "requests in flight finish, the rows done so far are kept, and the command to go on is " +
      "printed (exit code 4). Counted per invocation; cached answers cost nothing.",
    placeholder: "USD",
    example: "25",
    defaultText: "no cap",
    schema: z.number().positive().finite(),
  }),
  timeout: opt.integer({
    field: "modelSetup.timeoutMs",
    manifest: false,
    description: "Per-request timeout in milliseconds.",
    placeholder: "MS",
    example: "120000",
    default: 60000,
    // setTimeout cannot wait longer than a signed 32-bit number of milliseconds.
    schema: z.number().int().min(1).max(2 ** 31 - 1),
  }),
} as const;

/** The options of a sweep plan: what `sweep` and `batch export` both read. */
export const SWEEP_OPTIONS = {
  stage: opt.choice(Stage.options, {
    description: "The stage to vary; the other two sit at the paper's defaults.",
    example: "writing",
    required: true,
    field: "OperatingPoint.stage",
  }),
  grid: opt.list("number", {
    description: "Values of theta_w (writing) or theta_r (retrieval), each in [0, 1]. Not with " +
      "--stage management or --theta-r-risk.",
    example: "0,0.5,1",
    defaultText: DEFAULT_GRID.join(","),
    schema: _point.thetaW,
    field: "OperatingPoint.thetaW/thetaR",
  }),
  policies: opt.list("string", {
    description: () =>
      "Management policies to compare (--stage management only), any registered ones (a " +
      "--plugin adds its own): " + registeredList(POLICIES) + ".",
    example: "UM,PQ",
    defaultText: `every registered policy (the built-ins: ${POLICIES.ids().join(",")})`,
    schema: _Policy,
    field: "OperatingPoint.policy",
  }),
  "theta-r-risk": opt.list("number", {
    description: "Asymmetric exposure (--stage retrieval only): theta_r- takes each value while " +
      "theta_r+ stays at --theta-r.",
    example: "0.2,0.4",
    defaultText: "none (symmetric)",
    schema: _point.thetaRRisk,
    field: "OperatingPoint.thetaRRisk",
  }),
  "theta-w": opt.number({
    description: "Writing coverage theta_w when writing is not the varied stage.",
    example: "0.8",
    default: PAPER_DEFAULTS.thetaW,
    schema: _point.thetaW,
    field: "OperatingPoint.thetaW",
  }),
  policy: opt.string({
    description: "Management policy when management is not the varied stage.",
    example: "PQ",
    default: PAPER_DEFAULTS.policy,
    schema: _Policy,
    field: "OperatingPoint.policy",
  }),
  "theta-r": opt.number({
    description: "Retrieval exposure theta_r when retrieval is not the varied stage (theta_r+ " +
      "with --theta-r-risk).",
    example: "0.6",
    default: PAPER_DEFAULTS.thetaR,
    schema: _point.thetaR,
    field: "OperatingPoint.thetaR",
  }),
  k: opt.integer({
    description: "Retrieval budget K: records in the agent's context; at most --bank-size.",
    example: "3",
    default: PAPER_DEFAULTS.k,
    schema: _point.k,
    field: "OperatingPoint.k",
  }),
  "bank-size": opt.integer({
    description: "Background records per memory |B|; every instance must hold that many.",
    example: "50",
    default: PAPER_DEFAULTS.bankSize,
    schema: _point.bankSize,
    field: "OperatingPoint.bankSize",
  }),
  fill: opt.string({
    description: () =>
      "How the context is filled after the exposed records: a registered fill strategy (a " +
      "--plugin adds its own): " + registeredList(FILLS) + ".",
    placeholder: FILLS.ids().join("|"),
    example: "similarity",
    default: PAPER_DEFAULTS.fill,
    schema: _Fill,
    field: "OperatingPoint.fill",
  }),
  ranker: opt.string({
    description: () =>
      "Writing-stage ranker: a registered offline ranker (" + registeredList(RANKERS) + "), " +
      "llm:self (each agent's own model, the paper's) or llm:MODEL. A sweep that mixes the " +
      "offline agent and model agents must name it.",
    placeholder: `${RANKERS.ids().join("|")}|llm:self|llm:MODEL`,
    example: "random",
    defaultText:
      `${PAPER_DEFAULTS.ranker} for llm: agents, ${OFFLINE_RANKER} for the offline agent`,
    schema: _Ranker,
    field: "OperatingPoint.ranker",
  }),
  "trace-load": opt.number({
    description: "Trace load (x source units); the benchmark builders make 0.75, 1 and 1.25, " +
      "the demo set only 1.",
    example: "1.25",
    default: PAPER_DEFAULTS.traceLoad,
    schema: _point.traceLoad,
    field: "OperatingPoint.traceLoad",
  }),
  dataset: opt.string({
    description: () =>
      "A registered dataset (" + registeredList(DATASETS) + "), or an instance file FILE.json.",
    placeholder: "NAME|FILE.json",
    example: "locomo",
    default: "demo",
    // An instance file: a regular, non-empty UTF-8 file (a FIFO would hang the run).
    path: {
      use: "input-file",
      nonEmpty: true,
      utf8: true,
      when: (v) => String(v.dataset).endsWith(".json"),
    },
  }),
  attack: opt.list("string", {
    description: "Attacks to run.",
    example: "minja",
    default: [...Attack.options],
    schema: Attack,
    field: "TrialRow.attack",
  }),
  agent: opt.list("string", {
    description: () =>
      "Agents: reference (every offline persona; a simulator, not a real model), " +
      "reference:PERSONA, either with ?MECHANISM=off&... to switch simulator mechanisms off, " +
      "llm:MODEL (the LangGraph agent over a real model), or a registered agent id (" +
      AGENTS.ids().join(", ") + ").",
    example: "llm:gpt-5.4,llm:gemini-2.5-flash",
    default: ["reference"],
    schema: AgentSpec,
  }),
  model: opt.string({
    manifest: false,
    description: "Shorthand for --agent llm:MODEL (not with --agent).",
    placeholder: "MODEL",
    example: "gpt-5.4",
    defaultText: "none",
  }),
  "memory-placement": opt.choice(MemoryPlacement.options, {
    description: "Where the LLM agent sees the retrieved records: system (a memory section of " +
      "its system prompt, as LangGraph's memory agents), user (the user's turn), or tool (a " +
      "search_memory tool it must call first, which returns exactly that context).",
    example: "tool",
    default: "system",
    field: "TrialRow.memoryPlacement",
  }),
  counterfactual: opt.choice(COUNTERFACTUAL_MODES, {
    description: "loo: rerun every poisoned trial that matched the target and every correct " +
      "clean trial once per retrieved record, with that record replaced by the next background " +
      "record (rows get counterfactualOf, ablatedRecordId, ablatedRole; summarize adds flip rates).",
    example: "loo",
    default: "none",
  }),
  writer: opt.string({
    description: () =>
      "Writer: a registered offline writer (" + registeredList(WRITERS) + "), or an LLM " +
      "writer (one write per unit per model, shared by all coverage levels).",
    placeholder: `${WRITERS.ids().join("|")}|llm:MODEL`,
    example: "llm:gpt-5.4-mini",
    default: "verbatim",
    schema: registeredOrModel(WRITERS),
  }),
  seed: opt.integer({
    description: "Run seed: the same seed gives byte-identical rows (except latencyMs).",
    example: "1",
    default: 0,
    schema: TrialRow.shape.seed.min(0),
    field: "TrialRow.seed",
  }),
  "rebuild-instances": opt.flag({
    manifest: false,
    description: "Build the benchmark's instances again instead of reading them from the " +
      "instance cache (.memgauge/instances), and store the new build.",
  }),
  limit: opt.integer({
    description: "Use only the first N instances.",
    example: "10",
    defaultText: "all",
    schema: z.number().int().min(1),
  }),
  trials: opt.integer({
    description: "Independent repeats per pair (trial column), each with its own cache slot.",
    example: "3",
    default: 1,
    schema: z.number().int().min(1),
  }),
  ...MODEL_OPTIONS,
} as const;

/** Every option of `deno task sweep`. */
export const SWEEP_CLI_OPTIONS = {
  ...SWEEP_OPTIONS,
  out: opt.string({
    manifest: false,
    description: "Rows file (JSONL, one row per trial). Rows stream to OUT.partial (its run's " +
      "options in OUT.partial.json), renamed to OUT at the end; OUT.lock keeps a second " +
      "sweep from writing the same OUT.",
    example: "rows.jsonl",
    defaultText: "none (required unless --dry-run)",
    path: { use: "output-file" },
  }),
  trajectories: opt.string({
    manifest: false,
    description: "Trajectory sidecar (JSONL, one line per pair trial, in the rows' order): each " +
      "trace unit with its rank and admission, the records written with provenance, what the " +
      "policy quarantined and why, both contexts with the risk and helpful records, the " +
      "agent's messages (reasoning collapsed) or reading, the verdicts and, with " +
      "--counterfactual loo, each rerun's flip; no key. About 1.5 MB per 1,000 trials (the " +
      "rows: 1 MB). Streams to FILE.partial beside OUT.partial; resume and --retry-errors keep " +
      "it in step with the rows. none: do not write it. `deno task explore` reads it.",
    placeholder: "FILE|none",
    example: "w.trajectories.jsonl",
    defaultText: "OUT without .jsonl, plus .trajectories.jsonl",
    path: {
      use: "output-file",
      when: (v) => typeof v.trajectories === "string" && v.trajectories !== "none",
    },
  }),
  resume: opt.flag({
    manifest: false,
    description: "Complete an interrupted run from OUT.partial: no duplicated, no missing trial. " +
      "Refused, naming what differs, when the partial was written with other options.",
  }),
  overwrite: opt.flag({
    manifest: false,
    description: "Discard the unfinished run in OUT.partial and start again (without it a " +
      "sweep never discards one).",
  }),
  "dry-run": opt.flag({
    manifest: false,
    description: "Send nothing and write nothing: print the plan (operating points, pairs, " +
      "trials; model requests by phase after identical requests are merged and after cache " +
      "hits; estimated tokens; cost per model at catalog prices, live and batch). With " +
      "--resume, only what OUT.partial lacks.",
  }),
  "retry-errors": opt.flag({
    manifest: false,
    description: "Rerun only the pair trials of OUT that have an error row, in place.",
  }),
  "allow-errors": opt.flag({
    manifest: false,
    description: "Exit 0 even when rows end with errors (default: exit 3 and print the " +
      "--retry-errors command).",
  }),
  quiet: opt.flag({ description: "No progress bar.", manifest: false }),
} as const;

/**
 * Without `--base-url`, every `llm:ID` must be a catalog id (data/models.json): checked here so
 * the error names the option that holds it, before any client or cache exists.
 */
export function checkModelIds(specs: Record<string, readonly string[]>, baseUrl?: string): void {
  if (baseUrl !== undefined) return;
  for (const [option, list] of Object.entries(specs)) {
    for (const spec of list) {
      const id = spec.startsWith("llm:") ? spec.slice(4) : null;
      if (id === null || id === "self" || MODEL_CATALOG.some((m) => m.id === id)) continue;
      throw new CliError(
        `--${option}: unknown model ${JSON.stringify(id)} (expected one of ${
          MODEL_CATALOG.map((m) => m.id).join(", ")
        }, or pass --base-url for any other endpoint)`,
      );
    }
  }
}

/** The stage rules every sweep plan obeys (options that do not apply are errors, not ignored). */
export function checkSweepPlan(
  v: Values<typeof SWEEP_OPTIONS>,
  given: (name: keyof typeof SWEEP_OPTIONS) => boolean,
): void {
  const fail = (message: string): never => {
    throw new CliError(message);
  };
  const stage = `--stage ${v.stage}`;
  if (v.stage === "management" && given("grid")) {
    fail(`--grid: does not apply to ${stage}, which varies --policies`);
  }
  if (v.stage !== "management" && given("policies")) {
    fail(`--policies: applies only to --stage management, not ${stage}`);
  }
  if (v.stage !== "retrieval" && given("theta-r-risk")) {
    fail(`--theta-r-risk: applies only to --stage retrieval, not ${stage}`);
  }
  if (given("theta-r-risk") && given("grid")) {
    fail("--grid: does not apply with --theta-r-risk, which gives the varied theta_r- values");
  }
  if (v.stage === "writing" && given("theta-w")) {
    fail(`--theta-w: does not apply to ${stage}, which varies theta_w over --grid`);
  }
  if (v.stage === "management" && given("policy")) {
    fail(`--policy: does not apply to ${stage}, which varies the policy over --policies`);
  }
  if (v.stage === "retrieval" && given("theta-r") && !given("theta-r-risk")) {
    fail(
      `--theta-r: does not apply to ${stage}, which varies theta_r over --grid (it fixes ` +
        "theta_r+ only with --theta-r-risk)",
    );
  }
  if (v.k > v.bankSize) {
    fail(
      `--k: ${v.k} is larger than the memory (--bank-size ${v.bankSize} background records); ` +
        "K counts the records in the agent's context",
    );
  }
  if (given("model") && given("agent")) {
    fail("--model: is shorthand for --agent llm:MODEL; give --model or --agent, not both");
  }
  const agents = agentSpecs(v);
  // Decided now by the one rule, so a mix is refused before any client or file exists.
  const { judge, ranker } = rolesOf(v);
  const offline = agentKinds(agents).filter((a) => a.simulated).map((a) => a.id);
  for (const [option, id] of [["judge", judge], ["ranker", ranker]] as const) {
    if (id === "llm:self" && offline.length > 0) {
      fail(
        `--${option} llm:self: ${
          option === "judge" ? "judges" : "ranks"
        } with each agent's own model, but ${offline.join(",")} is not a model agent`,
      );
    }
  }
  if (given("judge-scope") && judge === "deterministic") {
    fail(
      `--judge-scope: applies to an LLM judge (--judge llm:MODEL), not the deterministic ` +
        "matcher, which reads the answer only",
    );
  }
  if (given("memory-placement") && offline.length === agents.length) {
    fail(
      `--memory-placement: applies to llm: agents (the offline reference agent reads records, ` +
        `not prompts), got agent ${agents.join(",")}`,
    );
  }
  if (given("api-key-env") && !given("base-url")) {
    fail(
      "--api-key-env: applies with --base-url only (catalog models read the variable named " +
        "in data/models.json)",
    );
  }
  // Typed and checked now (an unknown key or a bad value), before any client or file exists.
  parseModelOptions({ specs: v.modelOption, baseUrl: v.baseUrl !== undefined });
  checkModelIds({
    [given("model") ? "model" : "agent"]: agents,
    judge: [judge],
    writer: [v.writer],
    ranker: v.ranker === undefined ? [] : [v.ranker],
  }, v.baseUrl);
  if (given("base-url") && !_usesModel({ ...v, agent: agents, judge })) {
    fail(
      `--base-url: no model is used (agent ${
        agents.join(",")
      }, judge ${judge}, writer ${v.writer}, ranker ${ranker}); add an llm: agent, judge, ` +
        "writer or ranker",
    );
  }
}

/** The `deno task sweep` command. */
export const sweepCommand = defineCommand({
  name: "sweep",
  summary: "run one stage sweep, one JSON row per trial, and print a summary",
  description: "One stage varies and the others sit at the paper's defaults (theta_w = 0.6, " +
    "UM, theta_r = 0.8, K = 5, |B| = 100), which --theta-w, --policy and --theta-r override. " +
    "The offline reference agent is a simulator for teaching and smoke runs (rows say " +
    "simulated: true), never a result about real models.",
  options: SWEEP_CLI_OPTIONS,
  examples: [
    "deno task sweep --stage writing --out rows.jsonl",
    "deno task sweep --stage management --policies UM,PQ --agent reference:careful --out m.jsonl",
    "deno task sweep --stage retrieval --theta-r-risk 0.2,0.4 --k 3 --out asym.jsonl",
    "deno task sweep --stage writing --model gpt-5.4 --judge llm:gpt-5.4-mini --out w.jsonl",
    "deno task sweep --stage writing --model gpt-5.4 --judge llm:gpt-5.4-mini --dry-run",
  ],
  check(v, { given }) {
    checkSweepPlan(v, given);
    if (v.resume && v.retryErrors) throw new CliError("--resume and --retry-errors: pick one");
    if (v.overwrite && (v.resume || v.retryErrors)) {
      throw new CliError(
        `--overwrite and --${v.resume ? "resume" : "retry-errors"}: pick one (--overwrite ` +
          `discards an unfinished run; --${
            v.resume ? "resume completes it" : "retry-errors reruns the error rows of OUT"
          })`,
      );
    }
    if (v.out === undefined && !v.dryRun) {
      throw new CliError("--out: required (the rows file), unless --dry-run");
    }
    if (v.dryRun && (v.retryErrors || v.overwrite)) {
      throw new CliError(
        `--dry-run and --${v.retryErrors ? "retry-errors" : "overwrite"}: pick one (a dry run ` +
          "changes no file)",
      );
    }
    if (v.dryRun && v.trajectories !== undefined) {
      throw new CliError("--trajectories: does not apply to --dry-run, which writes no file");
    }
    if (v.trajectories !== undefined && v.out !== undefined && v.trajectories === v.out) {
      throw new CliError(
        `--trajectories: ${JSON.stringify(v.trajectories)} is the rows file (--out); give the ` +
          "sidecar its own name",
      );
    }
    if (v.dryRun && v.resume && v.out === undefined) {
      throw new CliError("--resume: needs --out (the run whose OUT.partial to complete)");
    }
  },
});

/** The parsed values of a sweep plan (`sweep`, `batch export`, `judge-sensitivity`). */
export type SweepValues = Values<typeof SWEEP_OPTIONS>;

/**
 * Parse and validate a sweep command line (no file system access; `sweepMain` checks the
 * paths).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSweep } from "./sweep_args.ts";
 * const { values } = parseSweep(["--stage", "writing", "--grid", "0,0.5,1", "--out", "rows.jsonl"]);
 * assert.deepEqual(values.grid, [0, 0.5, 1]);
 * assert.throws(() => parseSweep(["--stage", "writing", "--grid", "1.5", "--out", "x"]), /--grid: "1.5" is not a valid OperatingPoint/);
 * assert.throws(() => parseSweep(["--stage", "management", "--grid", "0,1", "--out", "x"]), /--grid: does not apply to --stage management/);
 * ```
 */
export function parseSweep(argv: readonly string[]): Parsed<typeof SWEEP_CLI_OPTIONS> {
  const parsed = sweepCommand.parse({ argv });
  if (parsed === "help") throw new CliError("--help: not a sweep");
  return parsed;
}
