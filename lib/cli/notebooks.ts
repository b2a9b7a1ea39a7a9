/**
 * `deno task notebooks`: execute the notebooks headless through Jupyter with the Deno kernel
 * (installing the kernelspec when absent) and export each to an HTML page that opens offline.
 * A cell error fails the run (exit 1): a "what to notice" claim that does not hold on the data
 * is one. So is a cell that should have shown a figure or table and shows nothing: the Deno
 * kernel (2.9.6) loses a cell's output now and then in headless runs, so such a notebook is
 * executed once more, and what is still missing fails the run. Sweeps that ended with error rows
 * (each kernel reports them through MEMGAUGE_ERROR_REPORT) exit 3.
 */
import { basename, resolve } from "node:path";
import { ERROR_REPORT_ENV, type ErrorSummary } from "../run/error_summary.ts";
import {
  CliError,
  commandLine,
  defineCommand,
  execute,
  EXIT,
  opt,
  type Parsed,
  runCommand,
} from "./command.ts";
import { z } from "zod";
import { JUDGES } from "../judges/judges.ts";
import { DATASETS } from "../data/datasets.ts";
import { AgentSpec, MODEL_OPTIONS, registeredOrModel } from "./sweep_args.ts";
import { errorRowsExit, pluginPaths } from "./command.ts";
import { NOTEBOOK_HTML_TEMPLATE, offlineMath } from "../experiments/notebook_html.ts";
import { lostDisplays, SHOW_REPORT_ENV } from "../experiments/notebook_show.ts";
import { CLAIMS_ENV } from "../experiments/notebook_notice.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";

// Failed calls are never cached: a rerun asks exactly them again and reuses every answer.
const _RETRY_LABEL = "Retry the failed calls (cached answers are reused)";

const _DIR = new URL("../../notebooks/", import.meta.url).pathname;

async function _run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; stdin?: string } = {},
) {
  const child = new Deno.Command(cmd, {
    args,
    env,
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  return {
    ok: out.success,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** True when `jupyter nbconvert` can run here. */
export async function jupyterAvailable(): Promise<boolean> {
  try {
    return (await _run("jupyter", ["nbconvert", "--version"])).ok;
  } catch {
    return false;
  }
}

/**
 * Code cells that should show something (their last statement is an expression, not a
 * declaration) but have no output: what the kernel lost. Indices count every cell from 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingOutputs } from "./notebooks.ts";
 * const cell = (source: string, outputs: unknown[] = []) => ({ cell_type: "code", source, outputs });
 * const nb = { cells: [cell("const a = 1;"), cell("fig.figure;"), cell("table;", [{ output_type: "execute_result" }])] };
 * assert.deepEqual(missingOutputs(nb), [1]);
 * ```
 */
export function missingOutputs(notebook: {
  cells: { cell_type: string; source: string | string[]; outputs?: unknown[] }[];
}): number[] {
  const missing: number[] = [];
  notebook.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code" || (cell.outputs?.length ?? 0) > 0) return;
    const lines = (Array.isArray(cell.source) ? cell.source.join("") : cell.source).split("\n")
      .filter((l) => l.trim() !== "" && !l.trim().startsWith("//"));
    // The last statement starts at the last unindented line that is not a closing bracket.
    const last = lines.findLast((l) => /^\S/.test(l) && !/^[)\]}]/.test(l));
    if (last === undefined) return;
    if (/^(const|let|var|import|export|if|for|while|type|interface|function|class)\b/.test(last)) {
      return;
    }
    missing.push(i);
  });
  return missing;
}

/** A positional that names a notebook file rather than a shipped notebook. */
function _isFile(name: string): boolean {
  return name.endsWith(".ipynb") && (() => {
    try {
      return Deno.statSync(name).isFile;
    } catch {
      return false;
    }
  })();
}

/** The notebooks shipped, by file name, sorted. */
export function notebookNames(): string[] {
  return [...Deno.readDirSync(_DIR)].map((e) => e.name).filter((n) => n.endsWith(".ipynb"))
    .sort();
}

/** `deno task notebooks`. */
export const notebooksCommand = defineCommand({
  name: "notebooks",
  summary: "execute the notebooks headless through Jupyter (Deno kernel)",
  description: "Each option is passed to the notebooks through its environment variable, which " +
    "can also be set directly; every other knob of a notebook's parameters cell is read from " +
    "MEMGAUGE_<NAME> too (e.g. MEMGAUGE_GRID=0,0.5,1, MEMGAUGE_K=3, MEMGAUGE_OUT=DIR to write " +
    "the notebook's figures and CSVs). Each executed notebook (NAME.ipynb) and its page " +
    "(NAME.html: equations as MathML, solutions folded, nothing fetched from a network) go to " +
    "--out, by default a temporary directory printed at the end; the committed notebooks stay " +
    'without outputs. A claim of a "what to notice" cell that does not hold fails its ' +
    "notebook. A notebook whose kernel lost a cell's output is executed once more; an output " +
    "still missing fails the run.",
  positionals: {
    name: "NAME",
    description: `Run only the notebooks whose file name contains NAME (${
      notebookNames().map((n) => n.replace(/\.ipynb$/, "")).join(", ")
    }), or the notebook file NAME.ipynb; every NAME must match one.`,
    example: "03_management",
  },
  options: {
    n: opt.integer({
      description: "Instances per experiment; default each notebook's own N (0: every " +
        "instance, 28 on the demo set). A small n keeps a run short and its rates coarse.",
      example: "10",
      defaultText: "every instance",
      env: "MEMGAUGE_N",
      schema: z.number().int().min(1),
    }),
    out: opt.string({
      description: "Directory for the executed notebooks and their HTML pages.",
      example: "executed",
      defaultText: "a new temporary directory",
      path: { use: "output-dir" },
    }),
    claims: opt.string({
      description: 'check: a "what to notice" claim that does not hold fails its notebook; ' +
        "mark: it is shown with ✗ and the notebook goes on (for runs with other parameters " +
        "than the ones the claims were written for).",
      example: "mark",
      default: "check",
      env: "MEMGAUGE_CLAIMS",
      schema: z.enum(["check", "mark"]),
    }),
    "kernel-cwd": opt.string({
      description: "Working directory of each notebook's kernel (the notebooks find lib/ and " +
        "data/ from their own location, so any directory inside the repository works).",
      example: ".",
      defaultText: "the notebook's folder, as Jupyter starts kernels",
      path: { use: "input-dir" },
    }),
    agent: opt.string({
      description: "Agent of the notebooks: reference (the offline simulator), " +
        "reference:PERSONA or llm:MODEL.",
      example: "llm:gpt-5.4-mini",
      defaultText: "reference",
      env: "MEMGAUGE_AGENT",
      schema: AgentSpec,
    }),
    dataset: opt.string({
      description: "demo, locomo, longmemeval, or an instance file FILE.json.",
      placeholder: "NAME|FILE.json",
      example: "locomo",
      defaultText: "demo",
      env: "MEMGAUGE_DATASET",
      path: {
        use: "input-file",
        nonEmpty: true,
        utf8: true,
        when: (v) => String(v.dataset).endsWith(".json"),
      },
    }),
    judge: opt.string({
      description: MODEL_OPTIONS.judge.describe ?? MODEL_OPTIONS.judge.description,
      placeholder: MODEL_OPTIONS.judge.placeholder,
      example: "llm:gpt-5.4-mini",
      defaultText: "deterministic",
      env: "MEMGAUGE_JUDGE",
      schema: registeredOrModel(JUDGES),
    }),
    "base-url": { ...MODEL_OPTIONS["base-url"], env: "MEMGAUGE_BASE_URL" },
    cache: opt.string({
      description: "SQLite response cache of the notebooks' model calls.",
      example: "runs/cache.sqlite",
      defaultText: ".memgauge/cache.sqlite",
      env: "MEMGAUGE_CACHE",
      path: { use: "database" },
    }),
    "retry-errors": opt.flag({
      description: "Rerun after a run that ended with error rows: answers already in the " +
        "response cache are reused, so only the calls that failed are sent again (failed calls " +
        "are never cached; a plain rerun does the same).",
    }),
    "allow-errors": opt.flag({
      description: "Exit 0 even when notebooks end with error rows (default: exit 3).",
    }),
  },
  examples: [
    "deno task notebooks",
    "deno task notebooks 03_management --n 28",
    "deno task notebooks 02_ 06_ --agent llm:gpt-5.4-mini --judge llm:gpt-5.4-mini",
  ],
  check(v, { positionals, label, given }) {
    // Checked here, before Jupyter starts (a wrong name used to fail inside a kernel, 15 s on).
    if (v.dataset !== undefined && !DATASETS.has(v.dataset) && !v.dataset.endsWith(".json")) {
      throw new RangeError(
        `${label("dataset")}: unknown dataset ${JSON.stringify(v.dataset)} (expected one of ${
          DATASETS.ids().join(", ")
        }, or a path ending in .json)`,
      );
    }
    if (given("base-url") && ![v.agent ?? "", v.judge ?? ""].some((id) => id.startsWith("llm:"))) {
      throw new CliError(
        `${label("base-url")}: no model is used (agent ${v.agent ?? "reference"}, judge ${
          v.judge ?? "deterministic"
        }); add an llm: agent or judge`,
      );
    }
    const names = notebookNames();
    for (const p of positionals) {
      if (p.trim() === "") {
        throw new CliError("notebook name: empty (see deno task notebooks --help)");
      }
      if (_isFile(p)) continue;
      if (!names.some((n) => n.includes(p))) {
        throw new CliError(
          `notebook name ${JSON.stringify(p)}: matches none of ${
            names.map((n) => n.replace(/\.ipynb$/, "")).join(", ")
          }`,
        );
      }
    }
  },
});

async function _main(parsed: Parsed<typeof notebooksCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  if (!await jupyterAvailable()) {
    throw new Error(
      "jupyter nbconvert not found: apt-get install -y jupyter-nbconvert python3-nbclient python3-ipykernel",
    );
  }
  // `jupyter kernelspec` needs jupyter-client's CLI, often absent: look in the data dirs instead.
  const jupyterPaths = await _run("jupyter", ["--paths", "--json"]);
  const dataDirs: string[] = jupyterPaths.ok ? JSON.parse(jupyterPaths.stdout).data ?? [] : [];
  const hasKernel = dataDirs.some((d) => {
    try {
      return Deno.statSync(`${d}/kernels/deno/kernel.json`).isFile;
    } catch {
      return false;
    }
  });
  if (!hasKernel) {
    console.log("Installing the Deno kernelspec (deno jupyter --install)");
    const install = await _run(Deno.execPath(), ["jupyter", "--install"]);
    if (!install.ok) throw new Error(`deno jupyter --install failed: ${install.stderr}`);
  }
  const only = parsed.positionals;
  const files = only.filter(_isFile).map((f) => resolve(f));
  const names = only.length > 0 && files.length === only.length
    ? []
    : notebookNames().filter((n) =>
      only.length === 0 || only.some((o) => !_isFile(o) && n.includes(o))
    );
  const paths = [...names.map((n) => `${_DIR}${n}`), ...files];
  const outDir = v.out === undefined
    ? await Deno.makeTempDir({ prefix: "memgauge-notebooks-" })
    : resolve(v.out);
  await Deno.mkdir(outDir, { recursive: true });
  // Kernels may run anywhere: paths given here are made absolute first.
  const env: Record<string, string> = {
    ...(v.n !== undefined && { MEMGAUGE_N: String(v.n) }),
    [CLAIMS_ENV]: v.claims,
    ...(v.agent !== undefined && { MEMGAUGE_AGENT: v.agent }),
    ...(v.dataset !== undefined && {
      MEMGAUGE_DATASET: v.dataset.endsWith(".json") ? resolve(v.dataset) : v.dataset,
    }),
    ...(v.judge !== undefined && { MEMGAUGE_JUDGE: v.judge }),
    ...(v.baseUrl !== undefined && { MEMGAUGE_BASE_URL: v.baseUrl }),
    ...(v.cache !== undefined && { MEMGAUGE_CACHE: resolve(v.cache) }),
  };
  // --plugin reaches each kernel's notebookSetup (PLUGINS knob) as absolute paths.
  const plugins = pluginPaths({ argv: parsed.argv }).map((p) => resolve(p));
  if (plugins.length > 0) env.MEMGAUGE_PLUGINS = plugins.join(",");
  let failed = 0;
  const withErrors: string[] = [];
  const total: ErrorSummary = { rows: 0, errors: 0, kinds: [] };
  const kinds = new Map<string, number>();
  const lost: string[] = [];
  for (const path of paths) {
    const name = basename(path);
    const started = performance.now();
    const report = `${outDir}/${name}.errors.jsonl`;
    const shown = `${outDir}/${name}.shown.txt`;
    const executed = `${outDir}/${name}`;
    // The notebook comes in on stdin, so the kernel starts in the directory we choose (nbconvert
    // would start it in the notebook's folder); the executed copy goes to --out.
    const execute = async () => {
      await Deno.remove(shown).catch(() => {});
      return await _run(
        "jupyter",
        [
          "nbconvert",
          "--stdin",
          "--to",
          "notebook",
          "--execute",
          "--ExecutePreprocessor.kernel_name=deno",
          "--ExecutePreprocessor.timeout=900",
          "--output-dir",
          outDir,
          "--output",
          name.replace(/\.ipynb$/, ""),
        ],
        { ...env, [ERROR_REPORT_ENV]: report, [SHOW_REPORT_ENV]: shown },
        {
          cwd: v.kernelCwd === undefined ? resolve(path, "..") : resolve(v.kernelCwd),
          stdin: await Deno.readTextFile(path),
        },
      );
    };
    let result = await execute();
    let missing = result.ok ? _missing(executed, shown) : [];
    if (missing.length > 0) {
      // Lost outputs are the kernel's, not the notebook's: one more run, from a clean report.
      console.log(`rerun  ${name} (the kernel lost ${missing.join(", ")})`);
      await Deno.remove(report).catch(() => {});
      result = await execute();
      missing = result.ok ? _missing(executed, shown) : [];
      if (missing.length > 0) lost.push(`${name}: ${missing.join(", ")}`);
    }
    if (result.ok) {
      const html = await _exportHtml(executed);
      if (html) result = { ...result, ok: false, stderr: html };
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const summaries = _readReport(report);
    const errors = summaries.reduce((n, s) => n + s.errors, 0);
    for (const s of summaries) {
      total.rows += s.rows;
      total.errors += s.errors;
      for (const [k, c] of s.kinds) kinds.set(k, (kinds.get(k) ?? 0) + c);
    }
    if (errors > 0) withErrors.push(name.replace(/\.ipynb$/, ""));
    const rows = summaries.reduce((n, s) => n + s.rows, 0);
    const note = errors > 0 ? `, ${errors} of ${rows} rows are error rows` : "";
    if (result.ok && missing.length === 0) console.log(`ok     ${name} (${seconds} s${note})`);
    else if (result.ok) {
      failed++;
      console.log(
        `FAILED ${name} (${seconds} s${note}): the kernel lost ${
          missing.join(", ")
        } again on a rerun (a figure or table the notebook should show is missing)`,
      );
    } else {
      failed++;
      console.log(
        `FAILED ${name} (${seconds} s${note})\n${result.stderr.split("\n").slice(-40).join("\n")}`,
      );
    }
  }
  total.kinds = [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (failed > 0) {
    console.error(
      `memgauge notebooks: ${failed} of ${paths.length} notebooks failed with a cell error ` +
        `or a missing output (outputs in ${outDir})` +
        (lost.length > 0
          ? `; missing after a rerun (the Deno kernel drops outputs now and then in headless ` +
            `runs; run them again): ${lost.join("; ")}`
          : ""),
    );
    return EXIT.failed;
  }
  console.log(
    `All ${paths.length} notebooks ran without a cell error, every claim held and every ` +
      `figure and table was shown (executed notebooks and HTML pages in ${outDir}).`,
  );
  const options = parsed.argv.filter((a) => !parsed.positionals.includes(a));
  return errorRowsExit({
    name: "notebooks",
    summary: total,
    retry: commandLine({
      name: "notebooks",
      argv: options,
      drop: ["retry-errors", "allow-errors"],
      add: ["--retry-errors", ...withErrors],
    }),
    retryLabel: _RETRY_LABEL,
    allowErrors: v.allowErrors,
  });
}

/**
 * Write `NAME.html` beside an executed `NAME.ipynb`: equations as MathML, solutions folded, no
 * network. Returns "" when written, else what went wrong.
 */
async function _exportHtml(executed: string): Promise<string> {
  const { notebook, fill } = offlineMath(JSON.parse(await Deno.readTextFile(executed)));
  const dir = resolve(executed, "..");
  const name = basename(executed).replace(/\.ipynb$/, "");
  const out = await _run(
    "jupyter",
    [
      "nbconvert",
      "--stdin",
      "--to",
      "html",
      "--template-file",
      NOTEBOOK_HTML_TEMPLATE,
      "--output-dir",
      dir,
      "--output",
      `${name}.tmp`,
    ],
    {},
    { stdin: JSON.stringify(notebook) },
  );
  if (!out.ok) return `HTML export of ${name} failed:\n${out.stderr}`;
  const html = await Deno.readTextFile(`${dir}/${name}.tmp.html`);
  await Deno.remove(`${dir}/${name}.tmp.html`);
  await writeFileAtomic({ path: `${dir}/${name}.html`, data: fill(html) });
  return "";
}

/**
 * Cells whose output the kernel lost: a display `mg.show` sent that the notebook lacks (found
 * through the numbers it reported), or a cell that should show something and shows nothing.
 */
function _missing(path: string, shown: string): string[] {
  let notebook;
  try {
    notebook = JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return [];
  }
  let report = "";
  try {
    report = Deno.readTextFileSync(shown);
  } catch {
    // no display was sent
  }
  const empty = missingOutputs(notebook);
  return [
    ...empty.map((i) => `cell ${i}`),
    ...lostDisplays({ notebook, report }).map((l) =>
      `display ${l.display} (${l.after < 0 ? "the first" : `sent after cell ${l.after}'s`})`
    ),
  ];
}

function _readReport(path: string): ErrorSummary[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return []; // no sweep in this notebook reported
  }
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** Run the notebooks CLI with the given arguments; returns the exit code (errors are printed). */
export async function notebooksMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: notebooksCommand, argv, main: _main });
}

if (import.meta.main) await runCommand(notebooksCommand, _main);
