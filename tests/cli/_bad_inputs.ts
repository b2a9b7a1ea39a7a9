/**
 * The bad-input table: invocations of every `deno task` CLI that must each end with one line
 * on stderr naming the option (or file) and the value, exit code 2, no file written or changed,
 * no stack trace and no Rust panic. Each runs in a fresh directory holding the fixtures below;
 * paths in the arguments are relative to it. Against the CLIs as they were before
 * `lib/cli/command.ts` (commit c856ab6), 99 of the first 206 failed (kinds overlap): 50 exited 0
 * (options silently ignored; reproduce and notebooks took no options), 17 printed a stack trace
 * or a Rust panic, 51 left a file behind (.partial, an empty cache DB, figures).
 */
import { hostname } from "node:os";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { runManifest } from "../../lib/run/run_manifest.ts";
import { sweep as sweep_ } from "../../lib/run/sweep.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { pair } from "../stats/_rows.ts";
import { taskFlags } from "../support/task_flags.ts";

/** The CLIs, by the script behind each `deno task`. */
export const CLI_SCRIPTS = {
  sweep: "lib/cli/sweep.ts",
  batch: "lib/cli/batch.ts",
  reproduce: "lib/cli/reproduce.ts",
  data: "lib/cli/data.ts",
  notebooks: "lib/cli/notebooks.ts",
  summarize: "lib/cli/summarize.ts",
  models: "lib/cli/models.ts",
  systems: "lib/cli/systems.ts",
  plan: "lib/cli/plan.ts",
} as const;

/** A CLI's in-process entry: its arguments in, its exit code out (errors printed as the task does). */
export type CliEntry = (argv: readonly string[]) => Promise<number>;

/**
 * Each CLI's exported entry, the function its `deno task` script runs (imported when asked for,
 * so the table itself loads no CLI).
 */
export const CLI_ENTRIES: Record<keyof typeof CLI_SCRIPTS, () => Promise<CliEntry>> = {
  sweep: async () => (await import("../../lib/cli/sweep.ts")).sweepMain,
  batch: async () => (await import("../../lib/cli/batch.ts")).batchMain,
  reproduce: async () => (await import("../../lib/cli/reproduce.ts")).reproduceMain,
  data: async () => (await import("../../lib/cli/data.ts")).dataMain,
  notebooks: async () => (await import("../../lib/cli/notebooks.ts")).notebooksMain,
  summarize: async () => {
    const { main } = await import("../../lib/cli/summarize.ts");
    return (argv) => main([...argv]);
  },
  models: async () => (await import("../../lib/cli/models.ts")).modelsMain,
  systems: async () => (await import("../../lib/cli/systems.ts")).systemsMain,
  plan: async () => (await import("../../lib/cli/plan.ts")).planMain,
};

/** One bad invocation. */
export interface BadInput {
  cli: keyof typeof CLI_SCRIPTS;
  /** Arguments; a string is split on spaces. */
  args: string | string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** What the one line must mention (usually the option). */
  names?: RegExp;
  /** A fixture file the harness holds an exclusive OS lock on while the invocation runs. */
  hold?: string;
  /** A secret given as a value: no 8-character piece of it may appear in the output. */
  absent?: string;
}

/** An endpoint nothing listens on: a case that wrongly gets as far as a request fails fast. */
const DEAD = "http://127.0.0.1:9/v1";
const LLM = `--agent llm:fake-1 --base-url ${DEAD} --max-retries 0`;
const W = "--stage writing --limit 2";
const OUT = "--out out.jsonl";

const sweep = (args: string, names?: RegExp): BadInput => ({ cli: "sweep", args, names });

/** The table. */
export const BAD_INPUTS: BadInput[] = [
  // sweep: required options, unknown options, values
  sweep(""),
  sweep(OUT, /--stage/),
  sweep(W, /--out/),
  sweep(`--stage reading ${OUT}`, /--stage/),
  { cli: "sweep", args: ["--stage", "", "--out", "out.jsonl"], names: /--stage/ },
  { cli: "sweep", args: ["--stage", "writing", "--out", ""], names: /--out/ },
  sweep(`${W} ${OUT} --nosuch`, /--nosuch/),
  sweep(`writing ${OUT}`, /writing/),
  sweep(`${W} ${OUT} --seed`, /--seed/),
  sweep(`${W} ${OUT} --quiet=yes`, /--quiet/),
  sweep(`${W} ${OUT} --grid 1.5`, /--grid/),
  sweep(`${W} ${OUT} --grid -0.1`, /--grid/),
  sweep(`${W} ${OUT} --grid abc`, /--grid/),
  { cli: "sweep", args: [...W.split(" "), "--out", "out.jsonl", "--grid", ""], names: /--grid/ },
  sweep(`${W} ${OUT} --grid 0,,1`, /--grid/),
  sweep(`${W} ${OUT} --grid NaN`, /--grid/),
  sweep(`${W} ${OUT} --grid Infinity`, /--grid/),
  sweep(`${W} ${OUT} --grid 0x1`, /--grid/),
  sweep(`--stage management --limit 2 ${OUT} --grid 0,1`, /--grid/),
  sweep(`--stage retrieval --limit 2 ${OUT} --grid 0,1 --theta-r-risk 0.2`, /--grid/),
  sweep(`--stage management --limit 2 ${OUT} --policies UM,XX`, /--policies/),
  {
    cli: "sweep",
    args: ["--stage", "management", "--limit", "2", "--out", "out.jsonl", "--policies", ""],
    names: /--policies/,
  },
  sweep(`${W} ${OUT} --policies UM`, /--policies/),
  sweep(`--stage retrieval --limit 2 ${OUT} --policies UM,PQ`, /--policies/),
  sweep(`${W} ${OUT} --policy XX`, /--policy/),
  sweep(`--stage management --limit 2 ${OUT} --policy PQ`, /--policy/),
  sweep(`${W} ${OUT} --theta-w 2`, /--theta-w/),
  sweep(`${W} ${OUT} --theta-w abc`, /--theta-w/),
  sweep(`${W} ${OUT} --theta-w 0.5`, /--theta-w/),
  sweep(`${W} ${OUT} --theta-r 1.5`, /--theta-r/),
  sweep(`--stage retrieval --limit 2 ${OUT} --theta-r 0.5`, /--theta-r/),
  sweep(`--stage retrieval --limit 2 ${OUT} --theta-r-risk 1.5`, /--theta-r-risk/),
  sweep(`${W} ${OUT} --theta-r-risk 0.2`, /--theta-r-risk/),
  sweep(`--stage management --limit 2 ${OUT} --theta-r-risk 0.2`, /--theta-r-risk/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k 0`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k -1`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k 1.5`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k abc`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k 500`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k 99999999999999999999`, /--k/),
  sweep(`--stage retrieval --limit 2 ${OUT} --k 1e3`, /--k/),
  { cli: "sweep", args: [...W.split(" "), "--out", "out.jsonl", "--k", ""], names: /--k/ },
  sweep(`${W} ${OUT} --bank-size 0`, /--bank-size/),
  sweep(`${W} ${OUT} --bank-size abc`, /--bank-size/),
  sweep(`${W} ${OUT} --bank-size 500`, /--bank-size/),
  sweep(`${W} ${OUT} --bank-size 1.5`, /--bank-size/),
  sweep(`${W} ${OUT} --bank-size 9007199254740993`, /--bank-size/),
  sweep(`--stage retrieval --limit 2 ${OUT} --fill nosuch`, /--fill/),
  sweep(`${W} ${OUT} --ranker nosuch`, /--ranker/),
  sweep(`${W} ${OUT} --ranker llm:self`, /--ranker/),
  sweep(`${W} ${OUT} --ranker llm:`, /--ranker/),
  sweep(`${W} ${OUT} --trace-load 0`, /--trace-load/),
  sweep(`${W} ${OUT} --trace-load -1`, /--trace-load/),
  sweep(`${W} ${OUT} --trace-load abc`, /--trace-load/),
  sweep(`${W} ${OUT} --trace-load 0.75`, /--trace-load/),
  sweep(`${W} ${OUT} --dataset nosuch`, /--dataset/),
  sweep(`${W} ${OUT} --dataset missing.json`, /missing\.json/),
  sweep(`${W} ${OUT} --dataset notjson.json`, /notjson\.json/),
  sweep(`${W} ${OUT} --dataset empty.json`, /empty\.json/),
  sweep(`${W} ${OUT} --dataset bad_instances.json --bank-size 20`, /channel/),
  sweep(`${W} ${OUT} --dataset adir`, /adir/),
  sweep(`${W} ${OUT} --attack nosuch`, /--attack/),
  {
    cli: "sweep",
    args: [...W.split(" "), "--out", "out.jsonl", "--attack", ""],
    names: /--attack/,
  },
  sweep(`${W} ${OUT} --attack minja,nosuch`, /--attack/),
  sweep(`${W} ${OUT} --agent reference:bold`, /bold/),
  sweep(`${W} ${OUT} --agent nosuch`, /--agent/),
  sweep(`${W} ${OUT} --agent llm:`, /--agent/),
  sweep(`${W} ${OUT} --agent llm:nosuch-model`, /nosuch-model/),
  { cli: "sweep", args: [...W.split(" "), "--out", "out.jsonl", "--agent", ""], names: /--agent/ },
  sweep(`${W} ${OUT} --seed -1`, /--seed/),
  sweep(`${W} ${OUT} --seed abc`, /--seed/),
  sweep(`${W} ${OUT} --seed 1.5`, /--seed/),
  sweep(`${W} ${OUT} --seed 99999999999999999999`, /--seed/),
  sweep(`${W} ${OUT} --limit 0`, /--limit/),
  sweep(`${W} ${OUT} --limit abc`, /--limit/),
  sweep(`${W} ${OUT} --limit 99999999999999999999`, /--limit/),
  sweep(`${W} ${OUT} --trials 0`, /--trials/),
  sweep(`${W} ${OUT} --trials abc`, /--trials/),
  sweep(`${W} ${OUT} --trials 99999999999999999999`, /--trials/),
  sweep(`${W} ${OUT} --concurrency 0`, /--concurrency/),
  sweep(`${W} ${OUT} --concurrency abc`, /--concurrency/),
  sweep(`${W} ${OUT} ${LLM} --max-retries -1`, /--max-retries/),
  sweep(`${W} ${OUT} ${LLM} --max-retries abc`, /--max-retries/),
  sweep(`${W} ${OUT} ${LLM} --max-retries 1e400`, /--max-retries/),
  sweep(`${W} ${OUT} ${LLM} --timeout 0`, /--timeout/),
  sweep(`${W} ${OUT} ${LLM} --timeout abc`, /--timeout/),
  sweep(`${W} ${OUT} ${LLM} --timeout 99999999999999999999`, /--timeout/),
  sweep(`${W} ${OUT} --agent llm:fake-1 --base-url notaurl`, /--base-url/),
  sweep(`${W} ${OUT} --agent llm:fake-1 --base-url ftp://127.0.0.1/v1`, /--base-url/),
  sweep(`${W} ${OUT} --base-url ${DEAD}`, /--base-url/),
  sweep(`${W} ${OUT} --judge nosuch`, /--judge/),
  sweep(`${W} ${OUT} --judge llm:`, /--judge/),
  sweep(`${W} ${OUT} --writer nosuch`, /--writer/),
  sweep(`${W} ${OUT} --writer llm:`, /--writer/),
  sweep(`${W} ${OUT} --writer llm:nosuch-model`, /--writer/),
  sweep(`${W} ${OUT} --judge llm:nosuch-model`, /--judge/),
  sweep(`${W} ${OUT} --ranker llm:nosuch-model`, /--ranker/),
  sweep(`${W} ${OUT} --model nosuch-model`, /--model/),
  sweep(
    `${W} ${OUT} --agent reference,llm:fake-1 --base-url ${DEAD}`,
    /--judge: required when the agents mix.*name the ranker too/,
  ),
  // the LLM judge, the agent's memory placement and the record-level counterfactual
  sweep(`${W} ${OUT} --agent reference,llm:fake-1 --ranker random --base-url ${DEAD}`, /--judge/),
  sweep(`${W} ${OUT} --judge llm:self`, /--judge llm:self/),
  sweep(`${W} ${OUT} --judge-scope xx`, /--judge-scope/),
  sweep(`${W} ${OUT} --judge-scope trajectory`, /--judge-scope/),
  sweep(`${W} ${OUT} --memory-placement nowhere`, /--memory-placement/),
  sweep(`${W} ${OUT} --memory-placement tool`, /--memory-placement/),
  sweep(`${W} ${OUT} --counterfactual all`, /--counterfactual/),
  sweep(`${W} ${OUT} --model fake-1 --agent reference`, /--model|--agent/),
  sweep(`${W} ${OUT} --resume --retry-errors`, /--resume|--retry-errors/),
  sweep(`${W} ${OUT} --retry-errors`, /--retry-errors/),
  sweep(`${W} --out rows.jsonl --retry-errors`, /--retry-errors/),
  sweep(`${W} --out missing/sub/rows.jsonl`, /--out/),
  sweep(`${W} --out adir`, /--out/),
  sweep(`${W} --out ro/rows.jsonl`, /--out/),
  sweep(`${W} ${OUT} ${LLM} --cache corrupt.sqlite`, /--cache|corrupt\.sqlite/),
  sweep(`${W} ${OUT} ${LLM} --cache adir`, /--cache/),
  sweep(`${W} ${OUT} ${LLM} --cache ro/cache.sqlite`, /--cache/),
  // sweep: resumes that would mix runs, a second writer, an unfinished run discarded
  sweep(`${W} --out held.jsonl --resume --seed 1`, /--resume: .*--seed 0 there, 1 here/),
  sweep(`${W} --out held.jsonl --resume --seed 1 --dry-run`, /--seed 0 there, 1 here/),
  sweep(`${W} --out held.jsonl --resume --trials 2 --seed 0`, /--trials 1 there, 2 here/),
  sweep(`${W} --out unfinished.jsonl`, /unfinished\.jsonl\.partial .*--overwrite/),
  sweep(`${W} --out unfinished.jsonl --seed 1`, /--resume .*--overwrite/),
  sweep(`${W} --out unfinished.jsonl --resume --seed 1`, /--seed 0 there, 1 here/),
  // A live writer holds the lock (the harness holds it; the file names process 1).
  {
    ...sweep(`${W} --out locked.jsonl`, /--out .*locked\.jsonl: another sweep \(process 1\b/),
    hold: "locked.jsonl.lock",
  },
  { ...sweep(`${W} --out locked.jsonl --resume`, /another sweep/), hold: "locked.jsonl.lock" },
  { ...sweep(`${W} --out locked.jsonl --overwrite`, /another sweep/), hold: "locked.jsonl.lock" },
  sweep(`${W} ${OUT} --resume --overwrite`, /--overwrite and --resume/),
  sweep(`${W} ${OUT} --retry-errors --overwrite`, /--overwrite and --retry-errors/),
  sweep(`${W} --dry-run --retry-errors`, /--dry-run and --retry-errors/),
  sweep(`${W} --dry-run --overwrite`, /--dry-run and --overwrite/),
  sweep(`${W} --dry-run --resume`, /--resume: needs --out/),
  sweep(`${W} --dry-run --out missing/sub/rows.jsonl`, /--out/),
  sweep(`${W} --resume`, /--out/),

  // batch
  { cli: "batch", args: "" },
  { cli: "batch", args: "nosuch", names: /nosuch/ },
  { cli: "batch", args: "export", names: /--stage|--batch-out/ },
  { cli: "batch", args: `export ${W}`, names: /--batch-out/ },
  { cli: "batch", args: `export ${W} --batch-out`, names: /--batch-out/ },
  { cli: "batch", args: `export ${W} --batch-out missing/sub/req.jsonl`, names: /--batch-out/ },
  { cli: "batch", args: `export ${W} --batch-out adir`, names: /--batch-out/ },
  { cli: "batch", args: `export ${W} --batch-out ro/req.jsonl`, names: /--batch-out/ },
  { cli: "batch", args: `export ${W} --grid 1.5 --batch-out req.jsonl`, names: /--grid/ },
  {
    cli: "batch",
    args: `export ${W} --batch-out a.jsonl --batch-out b.jsonl`,
    names: /--batch-out/,
  },
  {
    cli: "batch",
    args: `export --stage retrieval --limit 2 --k 500 --batch-out req.jsonl`,
    names: /--k/,
  },
  {
    cli: "batch",
    args: `export --stage management --limit 2 --grid 0,1 --batch-out req.jsonl`,
    names: /--grid/,
  },
  { cli: "batch", args: `export ${W} --nosuch --batch-out req.jsonl`, names: /--nosuch/ },
  { cli: "batch", args: `export ${W} --dataset nosuch --batch-out req.jsonl`, names: /--dataset/ },
  {
    cli: "batch",
    args: `export ${W} ${LLM} --cache corrupt.sqlite --batch-out req.jsonl`,
    names: /--cache|corrupt\.sqlite/,
  },
  { cli: "batch", args: "import", names: /--batch-in/ },
  { cli: "batch", args: "import --batch-in missing.jsonl", names: /missing\.jsonl/ },
  { cli: "batch", args: "import --batch-in empty.jsonl", names: /empty\.jsonl/ },
  { cli: "batch", args: "import --batch-in notjson.json", names: /notjson\.json/ },
  { cli: "batch", args: "import --batch-in adir", names: /adir/ },
  { cli: "batch", args: "import --batch-in batch_bad.jsonl", names: /line 1/ },
  {
    cli: "batch",
    args: "import --batch-in results.jsonl --cache corrupt.sqlite",
    names: /--cache|corrupt\.sqlite/,
  },
  { cli: "batch", args: "import --batch-in results.jsonl --cache adir", names: /--cache/ },
  { cli: "batch", args: "import --batch-in results.jsonl --cache ro/c.sqlite", names: /--cache/ },
  { cli: "batch", args: "import --batch-in results.jsonl --nosuch", names: /--nosuch/ },
  {
    cli: "batch",
    args: "import --batch-in results.jsonl --then-sweep --stage writing",
    names: /--out/,
  },
  {
    cli: "batch",
    args: "import --batch-in results.jsonl --then-sweep --stage writing --grid 1.5 --out r.jsonl",
    names: /--grid/,
  },
  { cli: "batch", args: "import --batch-in", names: /--batch-in/ },
  { cli: "batch", args: "import --batch-in results.jsonl stray", names: /stray/ },
  {
    cli: "batch",
    args: "import --batch-in results.jsonl --batch-in empty.jsonl",
    names: /empty\.jsonl/,
  },

  // reproduce
  { cli: "reproduce", args: "--nosuch", names: /--nosuch/ },
  { cli: "reproduce", args: "stray", names: /stray/ },
  { cli: "reproduce", args: "--out missing/sub", names: /--out/ },
  { cli: "reproduce", args: "--out instances.json", names: /--out/ },
  { cli: "reproduce", args: "--out ro", names: /--out/ },
  { cli: "reproduce", args: "--dataset nosuch", names: /--dataset/ },
  { cli: "reproduce", args: "--agent reference:bold", names: /bold/ },
  { cli: "reproduce", args: "--agent llm:nosuch-model", names: /nosuch-model/ },
  { cli: "reproduce", args: "--judge nosuch", names: /--judge/ },
  { cli: "reproduce", args: "--agent llm:fake-1 --base-url notaurl", names: /--base-url/ },
  { cli: "reproduce", args: `${LLM} --cache corrupt.sqlite`, names: /--cache|corrupt\.sqlite/ },
  { cli: "reproduce", args: "--seed abc", names: /--seed/ },
  { cli: "reproduce", args: "--dataset missing.json --out newdir", names: /--dataset/ },
  { cli: "reproduce", args: "--dataset notjson.json --out newdir", names: /notjson\.json/ },
  { cli: "reproduce", args: "--dataset bad_instances.json", names: /channel/ },
  { cli: "reproduce", args: "--judge llm:nosuch-model", names: /--judge/ },
  { cli: "reproduce", args: "--limit 0", names: /--limit/ },
  { cli: "reproduce", args: "", env: { MEMGAUGE_DATASET: "nosuch" }, names: /MEMGAUGE_DATASET/ },
  {
    cli: "reproduce",
    args: "",
    env: { MEMGAUGE_FIGURES: "missing/sub" },
    names: /MEMGAUGE_FIGURES/,
  },
  { cli: "reproduce", args: "--concurrency 0", names: /--concurrency/ },

  // data (none of these may start a download)
  { cli: "data", args: "--nosuch", names: /--nosuch/ },
  { cli: "data", args: "--stats --seed abc", names: /--seed/ },
  { cli: "data", args: "--stats --bank-size 10", names: /--bank-size/ },
  { cli: "data", args: "--stats --bank-size 1000", names: /--bank-size/ },
  { cli: "data", args: "--stats --bank-size abc", names: /--bank-size/ },
  { cli: "data", args: "--stats --trace-load 0", names: /--trace-load/ },
  { cli: "data", args: "--stats --trace-load abc", names: /--trace-load/ },
  { cli: "data", args: "--stats --dataset nosuch", names: /--dataset/ },
  { cli: "data", args: "--stats --dataset locomo --data-dir nodata", names: /nodata|--data-dir/ },
  { cli: "data", args: "stray", names: /stray/ },
  { cli: "data", args: "--stats --seed 99999999999999999999", names: /--seed/ },
  { cli: "data", args: "--stats --with-s", names: /--with-s/ },
  { cli: "data", args: "--seed 3", names: /--seed/ },
  { cli: "data", args: "--dataset locomo", names: /--dataset/ },
  { cli: "data", args: "--stats --data-dir instances.json", names: /--data-dir/ },
  { cli: "data", args: "--stats --ranker llm:self", names: /--ranker/ },
  { cli: "data", args: "--stats --ranker bogus", names: /--ranker/ },
  { cli: "data", args: "--stats --ranker llm:nosuch-model", names: /--ranker/ },
  { cli: "data", args: `--stats --base-url ${DEAD}`, names: /--base-url/ },
  { cli: "data", args: "--stats --ranker random --cache corrupt.sqlite", names: /--cache/ },

  // notebooks (names are checked before Jupyter is looked for)
  { cli: "notebooks", args: "nosuchnotebook", names: /nosuchnotebook/ },
  { cli: "notebooks", args: "--nosuch", names: /--nosuch/ },
  { cli: "notebooks", args: "02_ nosuch", names: /nosuch/ },
  { cli: "notebooks", args: "--n 0 00_", names: /--n/ },
  { cli: "notebooks", args: "--n abc 00_", names: /--n/ },
  { cli: "notebooks", args: [""], names: /name/ },
  { cli: "notebooks", args: "00_", env: { MEMGAUGE_N: "abc" }, names: /MEMGAUGE_N/ },

  // summarize
  { cli: "summarize", args: "", names: /--in/ },
  { cli: "summarize", args: "--in rows.jsonl", names: /--out/ },
  { cli: "summarize", args: "--out s.csv", names: /--in/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.txt", names: /--out/ },
  { cli: "summarize", args: "--in missing.jsonl --out s.csv", names: /--in|missing\.jsonl/ },
  { cli: "summarize", args: "--in adir --out s.csv", names: /--in|adir/ },
  { cli: "summarize", args: "--in empty.jsonl --out s.csv", names: /--in|empty\.jsonl/ },
  { cli: "summarize", args: "--in notjson.json --out s.csv", names: /notjson\.json|line 1/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --by nope", names: /--by/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --resamples 0", names: /--resamples/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --resamples abc", names: /--resamples/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --resamples 1.5", names: /--resamples/ },
  {
    cli: "summarize",
    args: "--in rows.jsonl --out s.csv --resamples 99999999999999999999",
    names: /--resamples/,
  },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --ci nosuch", names: /--ci/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --seed abc", names: /--seed/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --level 0", names: /--level/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --level 1", names: /--level/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --level abc", names: /--level/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --level 1.5", names: /--level/ },
  { cli: "summarize", args: "--in rows.jsonl --out missing/sub/s.csv", names: /--out/ },
  { cli: "summarize", args: "--in rows.jsonl --out adir.csv", names: /--out/ },
  { cli: "summarize", args: "--in rows.jsonl --out ro/s.csv", names: /--out/ },
  { cli: "summarize", args: "--in rows.jsonl --out missing/sub/s.parquet", names: /--out/ },
  { cli: "summarize", args: "--in rows_no_pair.jsonl --out s.csv", names: /pairId/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv --nosuch", names: /--nosuch/ },
  { cli: "summarize", args: "--in rows.jsonl --out s.csv stray", names: /stray/ },
  // per-model options (sweep, batch export)
  sweep(`${W} ${OUT} ${LLM} --model-option fake-1.temperature=hot`, /--model-option/),
  sweep(`${W} ${OUT} ${LLM} --model-option fake-1.tokens=5`, /--model-option/),
  sweep(`${W} ${OUT} ${LLM} --model-option fake-1`, /--model-option/),
  sweep(`${W} ${OUT} ${LLM} --model-option fake-1.maxTokens=0`, /--model-option/),
  sweep(`${W} ${OUT} ${LLM} --model-option fake-1.responseFormat=xml`, /--model-option/),
  sweep(`${W} ${OUT} --model gpt-5.4 --model-option nosuch.seed=true`, /--model-option/),
  sweep(`${W} ${OUT} ${LLM} --api-key-env 1BAD`, /--api-key-env/),
  sweep(`${W} ${OUT} --model gpt-5.4 --api-key-env MY_KEY`, /--api-key-env/),
  {
    cli: "batch",
    args: `export ${W} ${LLM} --model-option fake-1.seed=maybe --batch-out r.jsonl`,
    names: /--model-option/,
  },
  // models check
  { cli: "models", args: "", names: /check/ },
  { cli: "models", args: "nosuch", names: /nosuch/ },
  { cli: "models", args: "check --model nosuch", names: /--model/ },
  { cli: "models", args: "check --model gpt-5.4,", names: /--model/ },
  { cli: "models", args: `check --base-url ${DEAD}`, names: /--model/ },
  { cli: "models", args: "check --base-url ftp://x --model m", names: /--base-url/ },
  { cli: "models", args: "check --api-key-env K", names: /--api-key-env/ },
  { cli: "models", args: "check --timeout soon", names: /--timeout/ },
  {
    cli: "models",
    args: "check --model gpt-5.4 --model-option gpt-5.4.seed=maybe",
    names: /--model-option/,
  },
  { cli: "models", args: "check --nosuch", names: /--nosuch/ },
  // --plugin (every CLI): the file and the field, before any other option is checked
  sweep(`--plugin nosuch.ts ${W} ${OUT}`, /--plugin nosuch\.ts: no such file/),
  sweep(`--plugin adir ${W} ${OUT}`, /--plugin adir: is not a file/),
  sweep(`${W} ${OUT} --plugin`, /--plugin/),
  sweep(`--plugin plugins/no_default.ts ${W} ${OUT}`, /no_default\.ts: default export: missing/),
  sweep(`--plugin plugins/not_object.ts ${W} ${OUT}`, /not_object\.ts: default export: expected/),
  sweep(
    `--plugin plugins/unknown_field.ts ${W} ${OUT}`,
    /unknown_field\.ts: policy: unknown field/,
  ),
  sweep(`--plugin plugins/not_list.ts ${W} ${OUT}`, /not_list\.ts: policies: expected a list/),
  sweep(
    `--plugin plugins/no_apply.ts ${W} ${OUT}`,
    /no_apply\.ts: policies\[0\]\.apply: expected a function, got undefined/,
  ),
  sweep(
    `--plugin plugins/bad_id.ts ${W} ${OUT}`,
    /bad_id\.ts: policies\[0\]\.id: expected a letter/,
  ),
  sweep(
    `--plugin plugins/dup.ts ${W} ${OUT}`,
    /dup\.ts: policies\[0\]\.id: policy: duplicate id "PQ" .*already registered from built-in/,
  ),
  sweep(
    `--plugin plugins/tq.ts --plugin plugins/tq_again.ts ${W} ${OUT}`,
    /tq_again\.ts: policies\[0\]\.id: policy: duplicate id "TQ" .*already registered from plugins\/tq\.ts/,
  ),
  sweep(`--plugin plugins/syntax.ts ${W} ${OUT}`, /--plugin plugins\/syntax\.ts: cannot be loaded/),
  sweep(`--plugin plugins/rankers_bad.ts ${W} ${OUT}`, /rankers\[0\]\.rank: expected a function/),
  sweep(`--stage management --policies UM,TQ --limit 2 ${OUT}`, /--policies: "TQ".*UM\|PQ\|NC\|SC/),
  sweep(
    `--plugin plugins/tq.ts --stage management --policies UM,XQ --limit 2 ${OUT}`,
    /--policies: "XQ".*SC\|TQ/,
  ),
  {
    cli: "summarize",
    args: "--in rows.jsonl --out s.csv --plugin plugins/no_apply.ts",
    names: /no_apply\.ts/,
  },
  { cli: "reproduce", args: "--out figs --plugin plugins/dup.ts", names: /dup\.ts/ },
  { cli: "data", args: "--stats --plugin plugins/not_object.ts", names: /not_object\.ts/ },
  { cli: "batch", args: `export ${W} --batch-out r.jsonl --plugin nosuch.ts`, names: /nosuch\.ts/ },
  { cli: "models", args: "check --model gpt-5.4 --plugin plugins/syntax.ts", names: /syntax\.ts/ },

  // Issue 22: options that do not apply, refused as the sweep refuses its own; FIFOs and invalid
  // UTF-8 refused before they are read; duplicate --by columns; a key given as a variable name.
  // Against the CLIs before issue 22, 31 of these 34 failed: 9 ran until killed at 60 s (8 on a
  // FIFO; reproduce --base-url with the offline agent drew every figure), 7 ran and wrote rows
  // (systems took --hindsight-url with mem0, --memory-placement offline, what a pipeline check
  // replaces), 4 printed the key given as --api-key-env, and 11 ended with a line naming no
  // option (invalid UTF-8 read as text, notebooks --dataset nosuch exit 1 from inside Jupyter,
  // summarize --by agent,agent a Polars error).
  { cli: "reproduce", args: `--base-url ${DEAD}`, names: /--base-url: no model is used/ },
  { cli: "reproduce", args: "--dataset bad_utf8.json", names: /bad_utf8\.json.*not UTF-8/ },
  { cli: "notebooks", args: "--dataset nosuch 00_", names: /--dataset: unknown dataset "nosuch"/ },
  { cli: "notebooks", args: "--dataset fifo.json 00_", names: /fifo\.json.*not a regular file/ },
  { cli: "notebooks", args: `--base-url ${DEAD} 00_`, names: /--base-url: no model is used/ },
  sweep(`${W} ${OUT} --dataset bad_utf8.json`, /--dataset: "bad_utf8\.json" is not UTF-8/),
  sweep(`${W} ${OUT} --dataset fifo.json`, /--dataset: "fifo\.json" is not a regular file/),
  sweep(`${W} ${LLM} ${OUT} --cache fifo`, /--cache: "fifo" is not a regular file/),
  sweep(`${W} --out fifo`, /--out: "fifo" is not a regular file/),
  {
    ...sweep(
      `${W} ${LLM} ${OUT} --api-key-env sk-proj-Q7wErTy9UiOp1AsDfGh2`,
      /--api-key-env: .*not shown/,
    ),
    absent: "sk-proj-Q7wErTy9UiOp1AsDfGh2",
  },
  {
    ...sweep(
      `${W} ${LLM} ${OUT} --api-key-env Q7wErTy9UiOp1AsDfGh2zXcV`,
      /--api-key-env: .*not shown/,
    ),
    absent: "Q7wErTy9UiOp1AsDfGh2zXcV",
  },
  { cli: "batch", args: "import --batch-in bad_utf8.jsonl", names: /bad_utf8\.jsonl.*not UTF-8/ },
  { cli: "batch", args: "import --batch-in fifo", names: /--batch-in: "fifo" is not a regular/ },
  {
    cli: "batch",
    args: "import --batch-in results.jsonl --cache fifo",
    names: /--cache: "fifo" is not a regular file/,
  },
  { cli: "summarize", args: "--in fifo --out s.csv", names: /--in: "fifo" is not a regular/ },
  { cli: "summarize", args: "--in bad_utf8.jsonl --out s.csv", names: /--in: .*not UTF-8/ },
  {
    cli: "summarize",
    args: "--in rows.jsonl --out s.csv --by agent,agent",
    names: /--by: column "agent" is given twice/,
  },
  { cli: "systems", args: "", names: /--system/ },
  { cli: "systems", args: `--system zep ${OUT}`, names: /--system/ },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --hindsight-url http://127.0.0.1:9 ${OUT}`,
    names: /--hindsight-url: applies to --system hindsight only, got --system mem0/,
  },
  {
    cli: "systems",
    args: `--system mem0 ${LLM} --hindsight-url http://127.0.0.1:9 ${OUT}`,
    names: /--hindsight-url: applies to --system hindsight only/,
  },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --memory-placement tool ${OUT}`,
    names: /--memory-placement: applies to llm: agents/,
  },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --agent llm:m --base-url ${DEAD} ${OUT}`,
    names: /--base-url: does not apply with --pipeline-check/,
  },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --cache c.sqlite ${OUT}`,
    names: /--cache: does not apply with --pipeline-check/,
  },
  {
    cli: "systems",
    args: `--system hindsight --pipeline-check --system-model m ${OUT}`,
    names: /--system-model: applies to systems whose models the kit calls/,
  },
  {
    cli: "systems",
    args: `--system hindsight ${LLM} --hindsight-url http://127.0.0.1:9 --embedding-model e ${OUT}`,
    names: /--embedding-model: applies to systems whose models/,
  },
  {
    cli: "systems",
    args: `--system mem0 ${LLM} --judge deterministic --judge-scope trajectory ${OUT}`,
    names: /--judge-scope: applies to an LLM judge/,
  },
  {
    cli: "systems",
    args: `--system mem0 --agent llm:m --api-key-env OTHER_KEY ${OUT}`,
    names: /--api-key-env: applies with --base-url only/,
  },
  {
    cli: "systems",
    args: `--system mem0 ${LLM} --embedding-key-env sk-proj-Q7wErTy9UiOp1AsDfGh2 ${OUT}`,
    names: /--embedding-key-env: .*not shown/,
    absent: "sk-proj-Q7wErTy9UiOp1AsDfGh2",
  },
  {
    cli: "systems",
    args: `--system mem0 ${LLM} --api-key-env Q7wErTy9UiOp1AsDfGh2zXcV ${OUT}`,
    names: /--api-key-env: .*not shown/,
    absent: "Q7wErTy9UiOp1AsDfGh2zXcV",
  },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --dataset bad_utf8.json ${OUT}`,
    names: /--dataset: "bad_utf8\.json" is not UTF-8/,
  },
  {
    cli: "systems",
    args: `--system mem0 ${LLM} --cache fifo ${OUT}`,
    names: /--cache: "fifo" is not a regular file/,
  },
  { cli: "systems", args: "--system mem0 --pipeline-check --out fifo", names: /--out: "fifo"/ },
  {
    cli: "systems",
    args: `--system mem0 --pipeline-check --resume --retry-errors ${OUT}`,
    names: /--resume and --retry-errors: pick one/,
  },
  // issue 21: spending cap, reproduce's model options, the grid plan, judge sensitivity
  { cli: "sweep", args: `--stage writing --out o.jsonl --max-cost 0`, names: /--max-cost/ },
  { cli: "sweep", args: `--stage writing --out o.jsonl --max-cost abc`, names: /--max-cost/ },
  {
    cli: "sweep",
    args: `--stage writing --out o.jsonl --model m --base-url ${DEAD},ftp://x`,
    names: /--base-url/,
  },
  { cli: "reproduce", args: `--model gpt-5.4 --agent llm:gpt-5.4`, names: /--model/ },
  { cli: "reproduce", args: `--model nope`, names: /--model: unknown model "nope"/ },
  { cli: "reproduce", args: `--api-key-env K`, names: /--api-key-env/ },
  { cli: "reproduce", args: `--model-option gpt-5.4.temp=1`, names: /--model-option/ },
  { cli: "reproduce", args: `--max-cost -1`, names: /--max-cost/ },
  { cli: "plan", args: `--sample 200`, names: /--sample/ },
  { cli: "plan", args: `--dataset nosuch`, names: /--dataset/ },
  { cli: "plan", args: `--model nope`, names: /--model/ },
  { cli: "summarize", args: `--in rows.jsonl --out s.csv --judge llm:x`, names: /--judge/ },
  {
    cli: "summarize",
    args: `--in rows.jsonl --out s.parquet --judge-sensitivity`,
    names: /--out/,
  },
];

/** Lay the fixtures into `dir`; returns a function that makes `ro/` writable again. */
export async function layFixtures(dir: string): Promise<() => Promise<void>> {
  const instances = Array.from(
    { length: 3 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 20 }),
  );
  await Deno.writeTextFile(
    `${dir}/instances.json`,
    JSON.stringify({ dataset: "synthetic", instances }),
  );
  const bad = structuredClone(instances);
  (bad[1].helpful.units[0] as { channel: string }).channel = "robot";
  await Deno.writeTextFile(
    `${dir}/bad_instances.json`,
    JSON.stringify({ dataset: "synthetic", instances: bad }),
  );
  await Deno.writeTextFile(`${dir}/empty.json`, "");
  await Deno.writeTextFile(`${dir}/empty.jsonl`, "");
  await Deno.writeTextFile(`${dir}/notjson.json`, "this is not JSON\n");
  const rows = [
    ...pair({ agent: "a", thetaW: 0.5, instanceId: "1", pairId: "p1" }, [true, false], [
      false,
      true,
    ]),
    ...pair({ agent: "a", thetaW: 0.5, instanceId: "2", pairId: "p2" }, [true, false], [
      true,
      false,
    ]),
  ];
  await Deno.writeTextFile(`${dir}/rows.jsonl`, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  await Deno.writeTextFile(
    `${dir}/rows_no_pair.jsonl`,
    [rows[0], { ...rows[1], pairId: undefined }].map((r) => JSON.stringify(r) + "\n").join(""),
  );
  await Deno.writeTextFile(`${dir}/corrupt.sqlite`, "this is not a SQLite database\n".repeat(40));
  await Deno.writeTextFile(
    `${dir}/results.jsonl`,
    JSON.stringify({
      custom_id: "a".repeat(64),
      response: { status_code: 200, body: { choices: [{ message: { content: "ok" } }] } },
      error: null,
    }) + "\n",
  );
  await Deno.writeTextFile(
    `${dir}/batch_bad.jsonl`,
    JSON.stringify({ custom_id: "b", response: { status_code: "200" }, error: null }) + "\n",
  );
  // An unfinished run of seed 0 (its manifest beside it), an unfinished run without a
  // manifest, and the lock file of an --out (naming process 1; `hold` locks it).
  await Deno.writeTextFile(`${dir}/held.jsonl.partial`, "");
  await Deno.writeTextFile(
    `${dir}/held.jsonl.partial.json`,
    JSON.stringify(runManifest({
      command: "sweep",
      options: { seed: 0, trials: 1 },
      runId: "r",
      instancesHash: "h",
    })),
  );
  const done = await sweep_({
    stage: "management",
    policies: ["UM"],
    instances: instances.slice(0, 1),
    dataset: "synthetic",
    attacks: ["minja"],
    agents: resolveAgents({ specs: ["reference:careful"] }),
    base: { bankSize: 20 },
  });
  await Deno.writeTextFile(
    `${dir}/unfinished.jsonl.partial`,
    done.map((r) => JSON.stringify(r) + "\n").join(""),
  );
  await Deno.writeTextFile(
    `${dir}/locked.jsonl.lock`,
    JSON.stringify({ pid: 1, host: hostname(), command: "sweep", since: "2026-01-01T00:00:00Z" }),
  );
  await Deno.mkdir(`${dir}/plugins`);
  const apply = "apply: ({ records }) => ({ kept: [...records], quarantined: [] })";
  for (
    const [name, text] of Object.entries({
      no_default: "export const policies = [];",
      not_object: "export default 3;",
      unknown_field: "export default { policy: [] };",
      not_list: `export default { policies: { id: "X", description: "x", ${apply} } };`,
      no_apply: `export default { policies: [{ id: "NA", description: "No apply." }] };`,
      bad_id: `export default { policies: [{ id: "two words", description: "x", ${apply} }] };`,
      dup: `export default { policies: [{ id: "PQ", description: "Again.", ${apply} }] };`,
      tq: `export default { policies: [{ id: "TQ", description: "Keeps all.", ${apply} }] };`,
      tq_again: `export default { policies: [{ id: "TQ", description: "Other.", ${apply} }] };`,
      syntax: "export default { policies: [",
      rankers_bad: `export default { rankers: [{ id: "r", rank: 1 }] };`,
    })
  ) await Deno.writeTextFile(`${dir}/plugins/${name}.ts`, text + "\n");
  // A FIFO nobody writes (reading it would block forever), and files that are not UTF-8.
  for (const name of ["fifo", "fifo.json"]) {
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/${name}`] }).output();
    if (!made.success) throw new Error(`mkfifo ${name} failed`);
  }
  const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0) & 0xff));
  await Deno.writeFile(
    `${dir}/bad_utf8.json`,
    latin1(JSON.stringify({ dataset: "synthetic", instances }).replace("s0", "s\xe9")),
  );
  await Deno.writeFile(
    `${dir}/bad_utf8.jsonl`,
    latin1(rows.map((r) => JSON.stringify(r) + "\n").join("").replace('"a"', '"\xe9"')),
  );
  await Deno.mkdir(`${dir}/adir`);
  await Deno.mkdir(`${dir}/adir.csv`);
  await Deno.mkdir(`${dir}/ro`);
  return await _readOnly(`${dir}/ro`);
}

/**
 * Make a directory unwritable. Tests run as root here and in CI, and root ignores mode bits:
 * there the immutable attribute does it.
 */
async function _readOnly(path: string): Promise<() => Promise<void>> {
  if (Deno.uid() === 0) {
    const on = await new Deno.Command("chattr", { args: ["+i", path] }).output();
    if (!on.success) throw new Error(`chattr +i ${path} failed: cannot make a read-only dir`);
    return async () => {
      await new Deno.Command("chattr", { args: ["-i", path] }).output();
    };
  }
  await Deno.chmod(path, 0o555);
  return () => Deno.chmod(path, 0o755);
}

/** Every path under `dir` with its size and modification time. */
export async function listing(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const info = await Deno.lstat(`${dir}/${rel}`);
    // A directory's own mtime moves when a probe file is made and removed: not a change.
    out.push(entry.isDirectory ? `${rel}/` : `${rel} ${info.size} ${info.mtime?.getTime()}`);
    if (entry.isDirectory) out.push(...await listing(dir, rel));
  }
  return out.sort();
}

/** What one invocation did: its exit code (null when killed), its output, the files it left. */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Lines of {@link listing} that are new or changed after the invocation. */
  added: string[];
}

/** What went wrong with one invocation, by the table's rules; empty when it behaved. */
export function problemsOf(bad: BadInput, outcome: Outcome): string[] {
  const { code, stdout, stderr, added } = outcome;
  const problems: string[] = [];
  if (code === null) problems.push("killed (timed out)");
  else if (code !== 2) problems.push(`exit ${code}`);
  const lines = stderrLines(stderr);
  if (lines.length !== 1) problems.push(`${lines.length} stderr lines`);
  if (/\n\s+at |panicked|RUST_BACKTRACE|error: Uncaught/.test(stderr)) {
    problems.push("stack trace or panic");
  }
  if (stdout.trim() !== "") problems.push("printed to stdout");
  for (let i = 0; bad.absent && i + 8 <= bad.absent.length; i++) {
    if ((stdout + stderr).includes(bad.absent.slice(i, i + 8))) {
      problems.push(`printed a piece of the secret it was given`);
      break;
    }
  }
  if (bad.names && lines.length >= 1 && !bad.names.test(lines.join("\n"))) {
    problems.push(`line does not name ${bad.names}`);
  }
  if (added.length > 0) problems.push(`files left or changed: ${added.join(", ")}`);
  return problems;
}

/** The non-empty lines of stderr, without Deno's own notice of a busy module cache. */
export function stderrLines(stderr: string): string[] {
  return stderr.trim().split("\n").filter((l) =>
    l.trim() !== "" && !/^Blocking waiting for file lock on /.test(l.trim())
  );
}

/** The arguments of a case as a list. */
export function argsOf(bad: BadInput): string[] {
  return typeof bad.args === "string" ? bad.args.split(" ").filter(Boolean) : [...bad.args];
}

/** The environment every case runs with (a dead data directory, a test key), plus its own. */
export function envOf(bad: BadInput, dir: string): Record<string, string> {
  return {
    NO_COLOR: "1",
    OPENAI_API_KEY: "sk-test-bad-input",
    MEMGAUGE_DATA: `${dir}/nodata`,
    ...bad.env,
  };
}

/**
 * Run one invocation as `deno task` runs it, in a subprocess with the task's own permissions, in
 * a fresh directory of fixtures; what went wrong, empty when it behaved.
 */
export async function checkBadInput(
  root: string,
  bad: BadInput,
  timeoutMs = 60_000,
): Promise<{ problems: string[]; stderr: string; code: number }> {
  const dir = await Deno.makeTempDir({ prefix: "memgauge-bad-" });
  const restore = await layFixtures(dir);
  try {
    const before = await listing(dir);
    // An OS lock, as a live writer holds it, released when this invocation is done.
    const held = bad.hold
      ? await Deno.open(`${dir}/${bad.hold}`, { read: true, write: true })
      : null;
    if (held) await held.lock(true);
    const child = new Deno.Command(Deno.execPath(), {
      // The task's own permissions (deno.json), not -A: what a user's `deno task` runs with.
      args: [
        "run",
        ...taskFlags(CLI_SCRIPTS[bad.cli]),
        `${root}/${CLI_SCRIPTS[bad.cli]}`,
        ...argsOf(bad),
      ],
      cwd: dir,
      env: envOf(bad, dir),
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const out = await child.output();
    clearTimeout(timer);
    held?.close();
    const stderr = new TextDecoder().decode(out.stderr);
    const after = await listing(dir);
    const problems = problemsOf(bad, {
      code: out.signal ? null : out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr,
      added: after.filter((l) => !before.includes(l)),
    });
    return {
      problems,
      stderr: stderrLines(stderr).slice(0, 3).join(" | ").slice(0, 300),
      code: out.code,
    };
  } finally {
    await restore();
    await Deno.remove(dir, { recursive: true });
  }
}
