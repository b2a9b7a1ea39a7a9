/**
 * `summarize --judge-sensitivity`: the trials of a finished sweep judged again by the
 * deterministic matcher, the memory-blind LLM judge and the trajectory judge, without running
 * the agent again: the sweep is replayed from its manifest with every agent, ranker and writer
 * request answered by the response cache (a miss there is never sent), and only judge requests
 * that are not cached yet are sent.
 */
import { withAtomicPath } from "../io/atomic_write.ts";
import { requestPhase } from "../run/batch/request_phase.ts";
import { modelSetup } from "../run/model_setup.ts";
import { finishedManifestPath, readManifest } from "../run/run_manifest.ts";
import { sweep } from "../run/sweep.ts";
import { type JudgedRun, judgeSensitivity } from "../stats/judge_sensitivity.ts";
import { CliError } from "./command.ts";
import { parseSweep, rolesOf, SWEEP_CLI_OPTIONS } from "./sweep_args.ts";
import { modelSetupOptions, sweepOptionsFrom } from "./sweep_options.ts";

/** A manifest's row options as sweep arguments (defaults left out, as a user would type them). */
function _argv(options: Record<string, unknown>): string[] {
  const argv: string[] = [];
  const specs = SWEEP_CLI_OPTIONS as Record<string, { default?: unknown }>;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === false) continue;
    if (JSON.stringify(value) === JSON.stringify(specs[name]?.default) && name !== "agent") {
      continue;
    }
    if (value === true) argv.push(`--${name}`);
    else if (name === "model-option") {
      for (const v of value as string[]) argv.push("--model-option", v);
    } else if (Array.isArray(value)) {
      if (value.length > 0) argv.push(`--${name}`, value.join(","));
    } else argv.push(`--${name}`, String(value));
  }
  return argv;
}

/**
 * Judge the trials of `rows` (a finished sweep) three ways and write the comparison to `out`;
 * returns the lines to print.
 */
export async function judgeSensitivityReport(options: {
  /** The rows file; its run manifest (`IN.manifest.json`) says how to replay it. */
  rows: string;
  /** The CSV to write (agent, measure, value). */
  out: string;
  /** The response cache the run used. */
  cache: string;
  /** The LLM judge when the run's was the deterministic matcher (`llm:MODEL`). */
  judge?: string;
  /** With --base-url: the key's variable. */
  apiKeyEnv?: string;
}): Promise<string[]> {
  const manifest = await readManifest(finishedManifestPath(options.rows));
  if (!manifest) {
    throw new CliError(
      `--judge-sensitivity: ${options.rows} has no run manifest (${
        finishedManifestPath(options.rows)
      }), so its trials cannot be replayed; sweeps of this kit write one beside their rows`,
    );
  }
  const parsed = parseSweep([
    ..._argv(manifest.options),
    "--out",
    options.rows,
    "--cache",
    options.cache,
    ...(options.apiKeyEnv ? ["--api-key-env", options.apiKeyEnv] : []),
  ]);
  const ran = rolesOf(parsed.values).judge;
  const llm = options.judge ?? (ran.startsWith("llm:") ? ran : undefined);
  if (!llm) {
    throw new CliError(
      `--judge-sensitivity: ${options.rows} was judged by the ${ran} matcher; name the ` +
        "LLM judge to compare it with: --judge llm:MODEL",
    );
  }
  const runs: JudgedRun[] = [];
  let sent = 0;
  for (
    const [name, judge, scope] of [
      ["deterministic", "deterministic", "answer"],
      ["blind", llm, "answer"],
      ["trajectory", llm, "trajectory"],
    ] as const
  ) {
    const models = modelSetup({
      ...modelSetupOptions({ values: parsed.values, judge }),
      judgeScope: scope,
      // The agent, ranker and writer answer from the cache only: no agent request is sent.
      sendOnly: (body) => requestPhase(body) === "judge",
    });
    try {
      const planned = await sweepOptionsFrom({ parsed, models });
      const rows = await sweep({ ...planned, counterfactual: "none" });
      runs.push({ judge: name, rows });
      sent += models.stats().requests;
    } finally {
      models.close();
    }
  }
  const report = judgeSensitivity({ runs });
  const judges = runs.map((r) => r.judge);
  const csv: string[] = ["agent,measure,value"];
  const lines: string[] = [
    `Judge sensitivity of ${options.rows}: the same trials judged by the deterministic ` +
    `matcher, the memory-blind LLM judge (${llm}) and the trajectory judge (${llm}/trajectory); ` +
    `no agent request was sent, ${sent} judge requests were sent (the rest were cached)${
      report.leftOut > 0
        ? `; ${report.leftOut} trials left out (no verdict from every judge: an agent answer ` +
          "not in the cache, or a failed judge call)"
        : ""
    }.`,
  ];
  const f = (x: number) => x.toFixed(3);
  for (const agent of Object.keys(report.trials)) {
    lines.push("", `${agent} (${report.trials[agent]} trials)`);
    const head = ["metric", ...judges, "spread"];
    const rows = report.metrics.filter((m) => m.agent === agent).map((m) => {
      for (const j of judges) csv.push(`${agent},${m.metric} ${j},${f(m.values[j])}`);
      csv.push(`${agent},${m.metric} spread,${f(m.spread)}`);
      return [m.metric, ...judges.map((j) => f(m.values[j])), f(m.spread)];
    });
    const agree = report.agreements.filter((a) => a.agent === agent).map((a) => {
      csv.push(`${agent},kappa ${a.label} ${a.a} vs ${a.b},${f(a.kappa)}`);
      return [`${a.label}: ${a.a} vs ${a.b}`, f(a.kappa), f(a.agreement)];
    });
    lines.push(..._table(head, rows), "", ..._table(["agreement", "kappa", "share"], agree));
  }
  await withAtomicPath(
    { path: options.out },
    (tmp) => Deno.writeTextFile(tmp, csv.join("\n") + "\n"),
  );
  lines.push("", `wrote ${csv.length - 1} measures to ${options.out}`);
  return lines;
}

function _table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(head), ...rows.map(line)];
}
