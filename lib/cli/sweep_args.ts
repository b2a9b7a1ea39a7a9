/** Parse and validate `deno task sweep` arguments; every error names the option and the value. */
import { parseArgs } from "node:util";
import { Attack } from "../model/instance.ts";
import { Stage } from "../model/operating_point.ts";
import { CliError } from "./cli_error.ts";

/** A validated sweep configuration. */
export interface SweepArgs {
  stage: Stage;
  grid?: number[];
  policies?: string[];
  thetaRRisk?: number[];
  thetaW?: number;
  policy?: string;
  thetaR?: number;
  k: number;
  bankSize: number;
  fill: "random" | "similarity";
  /** Writing-stage ranker; default `llm:self` for model agents, `usefulness` offline. */
  ranker?: string;
  traceLoad: number;
  dataset: string;
  attacks: Attack[];
  agents: string[];
  seed: number;
  limit?: number;
  out: string;
  quiet: boolean;
  /** Shorthand for `--agent llm:MODEL`. */
  model?: string;
  /** Base URL of an OpenAI-compatible endpoint for every model. */
  baseUrl?: string;
  trials: number;
  concurrency: number;
  maxRetries: number;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  resume: boolean;
  retryErrors: boolean;
  /** `deterministic` or `llm:MODEL`. */
  judge: string;
  /** `verbatim` or `llm:MODEL`. */
  writer: string;
  /** SQLite response cache path. */
  cache: string;
}

const OPTIONS = {
  stage: { type: "string" },
  grid: { type: "string" },
  policies: { type: "string" },
  "theta-r-risk": { type: "string" },
  "theta-w": { type: "string" },
  policy: { type: "string" },
  "theta-r": { type: "string" },
  k: { type: "string" },
  "bank-size": { type: "string" },
  fill: { type: "string" },
  ranker: { type: "string" },
  "trace-load": { type: "string" },
  dataset: { type: "string" },
  attack: { type: "string" },
  agent: { type: "string" },
  seed: { type: "string" },
  limit: { type: "string" },
  out: { type: "string" },
  quiet: { type: "boolean" },
  model: { type: "string" },
  "base-url": { type: "string" },
  trials: { type: "string" },
  concurrency: { type: "string" },
  "max-retries": { type: "string" },
  timeout: { type: "string" },
  resume: { type: "boolean" },
  "retry-errors": { type: "boolean" },
  judge: { type: "string" },
  writer: { type: "string" },
  cache: { type: "string" },
} as const;

function _bad(option: string, expected: string, got: string): never {
  throw new CliError(`--${option}: expected ${expected}, got ${JSON.stringify(got)}`);
}

function _unitList(option: string, raw: string): number[] {
  const values = raw.split(",").map((s) => s.trim());
  for (const v of values) {
    const x = Number(v);
    if (v === "" || !Number.isFinite(x) || x < 0 || x > 1) {
      _bad(option, "comma-separated numbers in [0, 1]", v);
    }
  }
  return values.map(Number);
}

function _unit(option: string, raw: string): number {
  const x = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(x) || x < 0 || x > 1) {
    _bad(option, "a number in [0, 1]", raw);
  }
  return x;
}

function _int(option: string, raw: string, min: number): number {
  const x = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || x < min) _bad(option, `an integer >= ${min}`, raw);
  return x;
}

function _choice<T extends string>(option: string, raw: string, choices: readonly T[]): T {
  if (!choices.includes(raw as T)) _bad(option, `one of ${choices.join("|")}`, raw);
  return raw as T;
}

function _url(raw: string): string {
  if (!URL.canParse(raw) || !/^https?:/.test(raw)) _bad("base-url", "an http(s) URL", raw);
  return raw;
}

function _modelChoice(option: string, raw: string, offline: string): string {
  if (raw !== offline && !/^llm:.+/.test(raw)) _bad(option, `${offline} or llm:MODEL`, raw);
  return raw;
}

/**
 * Parse sweep arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSweepArgs } from "./sweep_args.ts";
 * const args = parseSweepArgs(["--stage", "writing", "--grid", "0,0.5,1", "--out", "rows.jsonl"]);
 * assert.deepEqual(args.grid, [0, 0.5, 1]);
 * assert.throws(() => parseSweepArgs(["--stage", "writing", "--grid", "1.5", "--out", "x"]), /--grid: .*"1.5"/);
 * ```
 */
export function parseSweepArgs(argv: readonly string[]): SweepArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  if (values.stage === undefined) {
    throw new CliError("--stage: required (writing|management|retrieval)");
  }
  if (values.out === undefined || values.out === "") {
    throw new CliError("--out: required (path of the rows file)");
  }
  const stage = _choice("stage", values.stage, Stage.options);
  const policies = values.policies?.split(",").map((p) => p.trim());
  policies?.forEach((p) => _choice("policies", p, ["UM", "PQ", "NC", "SC"]));
  if (values.policy !== undefined) _choice("policy", values.policy, ["UM", "PQ", "NC", "SC"]);
  const traceLoad = Number(values["trace-load"] ?? "1");
  if (!Number.isFinite(traceLoad) || traceLoad <= 0) {
    _bad("trace-load", "a positive number", values["trace-load"]!);
  }
  return {
    stage,
    grid: values.grid === undefined ? undefined : _unitList("grid", values.grid),
    policies,
    thetaRRisk: values["theta-r-risk"] === undefined
      ? undefined
      : _unitList("theta-r-risk", values["theta-r-risk"]),
    thetaW: values["theta-w"] === undefined ? undefined : _unit("theta-w", values["theta-w"]),
    policy: values.policy,
    thetaR: values["theta-r"] === undefined ? undefined : _unit("theta-r", values["theta-r"]),
    k: _int("k", values.k ?? "5", 1),
    bankSize: _int("bank-size", values["bank-size"] ?? "100", 1),
    fill: _choice("fill", values.fill ?? "random", ["random", "similarity"]),
    ranker: values.ranker,
    traceLoad,
    dataset: values.dataset ?? "demo",
    attacks: (values.attack ?? "minja,sleeper").split(",").map((a) =>
      _choice("attack", a.trim(), Attack.options)
    ),
    agents: (values.agent ?? (values.model !== undefined ? `llm:${values.model}` : "reference"))
      .split(",").map((a) => a.trim()),
    seed: _int("seed", values.seed ?? "0", 0),
    limit: values.limit === undefined ? undefined : _int("limit", values.limit, 1),
    out: values.out,
    quiet: values.quiet ?? false,
    model: values.model,
    baseUrl: values["base-url"] === undefined ? undefined : _url(values["base-url"]),
    trials: _int("trials", values.trials ?? "1", 1),
    concurrency: _int("concurrency", values.concurrency ?? "8", 1),
    maxRetries: _int("max-retries", values["max-retries"] ?? "4", 0),
    timeoutMs: _int("timeout", values.timeout ?? "60000", 1),
    resume: values.resume ?? false,
    retryErrors: values["retry-errors"] ?? false,
    judge: _modelChoice("judge", values.judge ?? "deterministic", "deterministic"),
    writer: _modelChoice("writer", values.writer ?? "verbatim", "verbatim"),
    cache: values.cache ?? ".memgauge/cache.sqlite",
  };
}
