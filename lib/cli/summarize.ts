/** CLI: trial rows (JSONL) to a summary table (CSV or Parquet) with intervals per metric. */
import { z } from "zod";
import type pl from "nodejs-polars";
import { withAtomicPath } from "../io/atomic_write.ts";
import { spreadsheetSafeFrame } from "../io/spreadsheet_safe.ts";
import { CI_CHOICES } from "../stats/interval.ts";
import { firstRow } from "../stats/_scan_rows.ts";
import { FLIP_METRICS, SUMMARY_METRICS } from "../stats/summarize.ts";
import { summarizeFile } from "../stats/summarize_file.ts";
import { CliError, defineCommand, execute, opt, type Parsed, runCommand } from "./command.ts";
import { MODEL_OPTIONS } from "./sweep_args.ts";

/** `deno task summarize`. */
export const summarizeCommand = defineCommand({
  name: "summarize",
  summary: "trial rows (JSONL) to a summary table (CSV or Parquet) with an interval per metric",
  options: {
    in: opt.string({
      description: "Rows file written by deno task sweep or systems.",
      example: "rows.jsonl",
      required: true,
      path: { use: "input-file", nonEmpty: true, utf8: true },
    }),
    out: opt.string({
      description: "Summary table; the format follows the extension. Written to a temporary " +
        "name and renamed.",
      placeholder: "FILE.csv|FILE.parquet",
      example: "summary.csv",
      required: true,
      schema: z.string().regex(/\.(csv|parquet)$/, "expected a path ending in .csv or .parquet"),
      path: { use: "output-file" },
    }),
    by: opt.list("string", {
      description: "Grouping columns (each must be a column of the rows).",
      example: "agent,thetaW",
      defaultText: "agent, dataset, attack and the operating-point columns the rows have",
    }),
    resamples: opt.integer({
      description: "Bootstrap resamples (bootstrap intervals only).",
      example: "2000",
      default: 10000,
      schema: z.number().int().min(1),
    }),
    ci: opt.choice(CI_CHOICES, {
      description: "Interval method. auto: Wilson for rates, Newcombe's method 10 for paired " +
        "differences (MID), a BCa cluster bootstrap where instances hold several pairs; " +
        "wilson, newcombe: the score intervals only; percentile, bca: bootstrap every metric. " +
        "Each row names its method per metric (<metric>CiMethod).",
      example: "bca",
      default: "auto",
    }),
    seed: opt.integer({
      description: "Bootstrap seed: the same seed gives the same intervals.",
      example: "1",
      default: 0,
    }),
    level: opt.number({
      description: "Interval level, in (0, 1).",
      example: "0.9",
      default: 0.95,
      schema: z.number().gt(0).lt(1),
    }),
    "judge-sensitivity": opt.flag({
      description: "How much the judge decides: replay the sweep of --in (from its manifest, " +
        "with every agent answer from the response cache: no agent request is sent) and judge " +
        "its trials by the deterministic matcher, the memory-blind LLM judge and the trajectory " +
        "judge; print each metric under each judge, their spread and Cohen's kappa between " +
        "judges, and write them to --out (CSV).",
    }),
    judge: {
      ...MODEL_OPTIONS.judge,
      description: "With --judge-sensitivity: the LLM judge (when the run's was the " +
        "deterministic matcher).",
      defaultText: "the run's",
    },
    cache: {
      ...MODEL_OPTIONS.cache,
      description: "With --judge-sensitivity: the response cache the run used.",
    },
    "api-key-env": MODEL_OPTIONS["api-key-env"],
  },
  examples: [
    "deno task summarize --in rows.jsonl --out summary.csv",
    "deno task summarize --in rows.jsonl --out summary.parquet --by agent,attack,thetaW --ci bca",
    "deno task summarize --in rows.jsonl --out judges.csv --judge-sensitivity",
  ],
  check(v, { given }) {
    const twice = v.by?.find((c, i) => v.by!.indexOf(c) !== i);
    if (twice !== undefined) {
      throw new CliError(`--by: column ${JSON.stringify(twice)} is given twice`);
    }
    for (const name of ["judge", "cache", "api-key-env"] as const) {
      if (given(name) && !v.judgeSensitivity) {
        throw new CliError(`--${name}: applies with --judge-sensitivity only`);
      }
    }
    if (v.judgeSensitivity && !v.out.endsWith(".csv")) {
      throw new CliError(`--out: ${v.out}: --judge-sensitivity writes a CSV (FILE.csv)`);
    }
  },
});

async function _judgeSensitivity(
  v: Parsed<typeof summarizeCommand.spec.options>["values"],
): Promise<number> {
  // Loaded only when asked: the replay needs the sweep and the model clients (about 140 MB and
  // a second to load), which a summary never uses.
  const { judgeSensitivityReport } = await import("./judge_sensitivity.ts");
  const lines = await judgeSensitivityReport({
    rows: v.in,
    out: v.out,
    cache: v.cache,
    judge: v.judge,
    apiKeyEnv: v.apiKeyEnv,
  });
  console.log(lines.join("\n"));
  return 0;
}

function _summarize(parsed: Parsed<typeof summarizeCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  if (v.judgeSensitivity) return _judgeSensitivity(v);
  const by = v.by;
  const columns = Object.keys(firstRow(v.in));
  for (const c of by ?? []) {
    if (!columns.includes(c)) {
      throw new CliError(`--by: column ${JSON.stringify(c)} does not exist in ${v.in}`);
    }
  }
  const summary = summarizeFile(v.in, {
    by,
    resamples: v.resamples,
    ci: v.ci,
    seed: v.seed,
    level: v.level,
  });
  return withAtomicPath({ path: v.out }, (tmp) => {
    // A cell a spreadsheet would run (an instance id "=..."), escaped; Parquet keeps data as is.
    if (v.out.endsWith(".csv")) spreadsheetSafeFrame(summary).writeCSV(tmp);
    else summary.writeParquet(tmp);
  }).then(() => {
    console.log(_table(summary));
    console.log(_methods(summary));
    console.log(`wrote ${summary.height} rows to ${v.out}`);
    return 0;
  });
}

/**
 * Run the CLI on `args`; returns the exit code. Bad input gives one line on stderr naming what
 * was wrong, exit code 2, and no output file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./summarize.ts";
 * assert.equal(await main(["--in", "rows.jsonl"]), 2); // --out missing
 * ```
 */
export function main(args: string[]): Promise<number> {
  return execute({ command: summarizeCommand, argv: args, main: _summarize });
}

/** Which interval method each metric used, over all rows. */
function _methods(s: pl.DataFrame): string {
  // Flip rates are there only for rows with counterfactual reruns.
  const metrics = [...SUMMARY_METRICS, ...FLIP_METRICS.filter((m) => s.columns.includes(m))];
  const parts = metrics.map((m) => {
    const used = [...new Set(s.getColumn(`${m}CiMethod`).toArray().filter((v) => v !== null))];
    return `${m} ${used.length ? used.join("/") : "-"}`;
  });
  return `intervals: ${parts.join(", ")}`;
}

/** Plain-text table: grouping columns that vary, pairs, errors, each metric as "est [lo, hi]". */
function _table(s: pl.DataFrame): string {
  const metrics = [
    "cleanUtility",
    "poisonedUtility",
    "asr",
    "u0",
    "midAsr",
    "midUtility",
    ...FLIP_METRICS.filter((m) => s.columns.includes(m)),
  ];
  const hidden = new Set([
    "pairs",
    "errors",
    "instances",
    "unpaired",
    "u0Runs",
    "u0Errors",
    "seed",
    "riskReruns",
    "helpfulReruns",
    "backgroundReruns",
    "rerunErrors",
    ...[...metrics, ...FLIP_METRICS].flatMap((m) => [m, `${m}Lo`, `${m}Hi`, `${m}CiMethod`]),
  ]);
  const keys = s.columns.filter((c) =>
    !hidden.has(c) && (s.height < 2 || s.getColumn(c).nUnique() > 1)
  );
  const f = (x: unknown) => (x === null || x === undefined ? "-" : Number(x).toFixed(3));
  const header = [...keys, "pairs", "errors", ...metrics];
  const body = s.toRecords().map((r) => [
    ...keys.map((k) => String(r[k])),
    String(r.pairs),
    String(r.errors),
    ...metrics.map((m) =>
      r[m] === null ? "-" : `${f(r[m])} [${f(r[`${m}Lo`])}, ${f(r[`${m}Hi`])}]`
    ),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  return [header, ...body].map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  "))
    .join("\n");
}

if (import.meta.main) await runCommand(summarizeCommand, _summarize);
