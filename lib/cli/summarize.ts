/** CLI: trial rows (JSONL) to a summary table (CSV or Parquet) with intervals per metric. */
import { parseArgs } from "node:util";
import type pl from "nodejs-polars";
import { CI_CHOICES, type CiChoice } from "../stats/interval.ts";
import { _firstRow } from "../stats/_scan_rows.ts";
import { SUMMARY_METRICS } from "../stats/summarize.ts";
import { summarizeFile } from "../stats/summarize_file.ts";

const USAGE = "usage: deno task summarize --in rows.jsonl --out summary.csv|summary.parquet " +
  `[--by col,...] [--resamples N] [--ci ${CI_CHOICES.join("|")}] [--seed N] [--level 0.95]`;

/**
 * Run the CLI on `args`; returns the exit code. Bad input gives one line on stderr naming what
 * was wrong, exit code 2, and no output file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./summarize.ts";
 * assert.equal(main(["--in", "rows.jsonl"]), 2); // --out missing
 * ```
 */
export function main(args: string[]): number {
  try {
    const { values } = parseArgs({
      args,
      options: {
        in: { type: "string" },
        out: { type: "string" },
        by: { type: "string" },
        resamples: { type: "string", default: "10000" },
        ci: { type: "string", default: "auto" },
        seed: { type: "string", default: "0" },
        level: { type: "string", default: "0.95" },
      },
      strict: true,
    });
    if (!values.in) throw new TypeError(`--in is required; ${USAGE}`);
    if (!values.out) throw new TypeError(`--out is required; ${USAGE}`);
    const format = values.out.endsWith(".csv")
      ? "csv"
      : values.out.endsWith(".parquet")
      ? "parquet"
      : null;
    if (!format) {
      throw new TypeError(`--out must end in .csv or .parquet, got ${values.out}`);
    }
    const resamples = _int("--resamples", values.resamples!);
    if (resamples < 1) throw new RangeError(`--resamples must be at least 1, got ${resamples}`);
    const seed = _int("--seed", values.seed!);
    const ci = values.ci as CiChoice;
    if (!(CI_CHOICES as readonly string[]).includes(ci)) {
      throw new RangeError(`--ci must be one of ${CI_CHOICES.join(", ")}, got ${ci}`);
    }
    const level = Number(values.level);
    if (!(level > 0 && level < 1)) {
      throw new RangeError(`--level must be in (0, 1), got ${values.level}`);
    }
    const by = values.by?.split(",").map((c) => c.trim()).filter((c) => c !== "");
    const columns = Object.keys(_firstRow(values.in));
    for (const c of by ?? []) {
      if (!columns.includes(c)) {
        throw new RangeError(`--by column "${c}" does not exist in ${values.in}`);
      }
    }
    const summary = summarizeFile(values.in, { by, resamples, ci, seed, level });
    if (format === "csv") summary.writeCSV(values.out);
    else summary.writeParquet(values.out);
    console.log(_table(summary));
    console.log(_methods(summary));
    console.log(`wrote ${summary.height} rows to ${values.out}`);
    return 0;
  } catch (e) {
    console.error(`summarize: ${(e as Error).message.split("\n")[0]}`);
    return 2;
  }
}

function _int(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n)) throw new TypeError(`${flag} must be an integer, got ${text}`);
  return n;
}

/** Which interval method each metric used, over all rows. */
function _methods(s: pl.DataFrame): string {
  const parts = SUMMARY_METRICS.map((m) => {
    const used = [...new Set(s.getColumn(`${m}CiMethod`).toArray().filter((v) => v !== null))];
    return `${m} ${used.length ? used.join("/") : "-"}`;
  });
  return `intervals: ${parts.join(", ")}`;
}

/** Plain-text table: grouping columns that vary, pairs, errors, each metric as "est [lo, hi]". */
function _table(s: pl.DataFrame): string {
  const metrics = ["cleanUtility", "poisonedUtility", "asr", "u0", "midAsr", "midUtility"];
  const hidden = new Set([
    "pairs",
    "errors",
    "instances",
    "unpaired",
    "u0Runs",
    "u0Errors",
    "seed",
    ...metrics.flatMap((m) => [m, `${m}Lo`, `${m}Hi`, `${m}CiMethod`]),
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

if (import.meta.main) Deno.exit(main(Deno.args));
