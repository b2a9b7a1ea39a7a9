/**
 * `deno task explore`: a rows file (and its trajectory sidecar) to one self-contained HTML page
 * to look at every pair, clean and poisoned side by side; optionally also an Inspect AI eval
 * log, so `inspect view` opens the same run.
 */
import { z } from "zod";
import { explorePayload, pairSummaries } from "../explore/explore_data.ts";
import { explorerPage } from "../explore/explorer_page.ts";
import { inspectLogName, inspectLogs } from "../explore/inspect_log.ts";
import { readTrialRows } from "../explore/read_trial_rows.ts";
import { readSidecar, sidecarPath } from "../explore/sidecar_file.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";
import { pathProblem } from "../io/path_problem.ts";
import { CliError, defineCommand, execute, opt, type Parsed, runCommand } from "./command.ts";

/** `deno task explore`. */
export const exploreCommand = defineCommand({
  name: "explore",
  summary: "a rows file (and its trajectory sidecar) to one HTML page to look at every pair",
  description: "The page holds its data and script (no network): it opens from the file " +
    "system or behind any static server. Its table filters pairs by figure, stage, operating " +
    "point, policy, attack, agent, dataset, setting and outcome; a pair opens its clean and " +
    "poisoned runs side by side, stage by stage. The filters live in the URL fragment " +
    "(page.html#stage=writing&point=θw 0.3&outcome=attacked), so a view can be linked.",
  options: {
    in: opt.string({
      description: "Rows file written by deno task sweep or systems.",
      example: "rows.jsonl",
      required: true,
      path: { use: "input-file", nonEmpty: true },
    }),
    trajectories: opt.string({
      description: "The rows' trajectory sidecar; without one, pairs show their rows only " +
        "(context ids, answers, verdicts).",
      placeholder: "FILE",
      example: "rows.trajectories.jsonl",
      defaultText: "the sidecar beside --in (IN without .jsonl, plus .trajectories.jsonl), if any",
      path: { use: "input-file" },
    }),
    out: opt.string({
      description: "The HTML page (written to a temporary name and renamed).",
      placeholder: "FILE.html",
      example: "explore.html",
      defaultText: "IN without .jsonl, plus .explore.html",
      schema: z.string().regex(/\.html?$/, "expected a path ending in .html"),
      path: { use: "output-file" },
    }),
    title: opt.string({
      description: "The page's title.",
      example: "writing sweep, gpt-5.4",
      defaultText: "memgauge explorer: IN",
    }),
    inspect: opt.string({
      description: "Also write the run as Inspect AI eval logs (JSON, one per run and agent) " +
        "into DIR, for `inspect view --log-dir DIR`: one sample per pair trial and condition, " +
        "with the agent's messages, the judge's scores and the row as metadata (docs/explorer.md " +
        "says what does not map). Needs the trajectory sidecar (the questions are there).",
      placeholder: "DIR",
      example: "logs",
      defaultText: "none",
      path: { use: "output-dir" },
    }),
  },
  examples: [
    "deno task explore --in rows.jsonl",
    "deno task explore --in rows.jsonl --out w.html --inspect logs",
  ],
  check(v) {
    if (v.out !== undefined && v.out === v.in) {
      throw new CliError(`--out: ${JSON.stringify(v.out)} is the rows file (--in)`);
    }
  },
});

/** Run the explore CLI with the given arguments; returns the exit code. */
export async function exploreMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: exploreCommand, argv, main: _main });
}

async function _main(parsed: Parsed<typeof exploreCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const out = v.out ?? `${v.in.replace(/\.jsonl$/, "")}.explore.html`;
  if (v.out === undefined) {
    const problem = pathProblem({ path: out, use: "output-file" });
    if (problem) throw new CliError(`--out: ${problem}`);
  }
  const sidecar = v.trajectories ?? sidecarPath({ rows: v.in });
  let rows;
  try {
    rows = await readTrialRows({ path: v.in });
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(`--in: ${e.message}`);
    throw e;
  }
  if (rows.length === 0) throw new CliError(`--in: ${v.in} holds no rows`);
  const trajectories = await readSidecar({ path: sidecar });
  if (v.trajectories !== undefined && trajectories.length === 0) {
    throw new CliError(`--trajectories: ${v.trajectories} holds no trajectory line`);
  }
  const pairs = pairSummaries({ rows, trajectories });
  const kept = pairs.filter((p) => p.trajectory !== null).length;
  if (trajectories.length > 0 && kept === 0) {
    throw new CliError(
      `--trajectories: no line of ${sidecar} belongs to a pair of ${v.in} (another run's sidecar?)`,
    );
  }
  const payload = explorePayload({
    pairs,
    title: v.title ?? `memgauge explorer: ${v.in.replace(/^.*\//, "")}`,
    source: [v.in, ...(kept > 0 ? [sidecar] : [])].map((p) => p.replace(/^.*\//, "")).join(
      " and ",
    ),
  });
  if (v.inspect !== undefined && kept === 0) {
    throw new CliError(
      `--inspect: needs the trajectory sidecar of ${v.in} (the questions and messages are there); ${sidecar} is missing`,
    );
  }
  const html = await explorerPage({ payload });
  const logs: string[] = [];
  if (v.inspect !== undefined) {
    // The rows' write time: the same rows give the same log names.
    const created = (await Deno.stat(v.in)).mtime!.toISOString().replace(/\.\d+Z$/, "+00:00");
    await Deno.mkdir(v.inspect, { recursive: true });
    for (const log of inspectLogs({ rows, trajectories, source: v.in, created })) {
      const path = `${v.inspect}/${inspectLogName({ log })}`;
      await writeFileAtomic({ path, data: JSON.stringify(log) + "\n" });
      logs.push(path);
    }
  }
  await writeFileAtomic({ path: out, data: html });
  const what = kept > 0
    ? `${kept} with trajectories from ${sidecar}`
    : `no trajectory sidecar (${sidecar} is missing): pairs show their rows only`;
  console.log(`${pairs.length} pairs (${what}) -> ${out}`);
  console.log(`Open it in a browser: file://${await Deno.realPath(out)}`);
  if (v.inspect !== undefined) {
    console.log(
      `${logs.length} Inspect AI eval log${logs.length === 1 ? "" : "s"} -> ${v.inspect}/ ` +
        `(open: inspect view --log-dir ${v.inspect})`,
    );
  }
  return 0;
}

if (import.meta.main) await runCommand(exploreCommand, _main);
