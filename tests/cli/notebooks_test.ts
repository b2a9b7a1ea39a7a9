/**
 * Executes every notebook through Jupyter when it is installed (says so visibly when not). The
 * tests read files the notebooks write (MEMGAUGE_OUT), not cell outputs, which the Deno kernel
 * loses at random in headless runs (`deno task notebooks` reruns a notebook that lost one).
 */
import assert from "node:assert/strict";
import { jupyterAvailable, notebookNames } from "../../lib/cli/notebooks.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const NOTEBOOKS = new URL("../../lib/cli/notebooks.ts", import.meta.url).pathname;
const REPRODUCE = new URL("../../lib/cli/reproduce.ts", import.meta.url).pathname;

const available = await jupyterAvailable();
if (!available) {
  console.log(
    "SKIPPED: Jupyter not installed (apt-get install -y jupyter-nbconvert python3-nbclient python3-ipykernel); notebooks not executed",
  );
}

async function _run(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    ok: out.success,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  };
}

/** Figures a notebook draws from the same data as reproduce, so from the same bytes. */
const SHARED = [
  "figure3_stages",
  "figure3_writing",
  "figure3_management",
  "figure3_retrieval",
  "mid_intervals",
  "figure4_trace_load",
  "figure5_rankers",
  "figure6_k_fill",
  "asymmetric_exposure",
  "figure7_memory_size",
];

Deno.test({
  name:
    "every notebook runs headless, every claim holds, and its figures are byte-identical to reproduce's",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // Every instance, the notebooks' default: the claims were written for it.
      const notebooks = await _run([NOTEBOOKS, "--out", `${dir}/executed`], {
        MEMGAUGE_OUT: `${dir}/nb`,
      });
      assert.ok(notebooks.ok, notebooks.text);
      assert.match(notebooks.text, new RegExp(`All ${notebookNames().length} notebooks ran`));
      for (const name of notebookNames()) {
        const executed = JSON.parse(await Deno.readTextFile(`${dir}/executed/${name}`));
        const shown = JSON.stringify(executed);
        assert.match(shown, /What to notice, checked on this run/, `${name}: no checked claims`);
        assert.doesNotMatch(shown, /"output_type": ?"error"/, `${name}: an error output`);
        // The page opens offline: equations as MathML, no script from a network, solutions folded.
        const html = await Deno.readTextFile(`${dir}/executed/${name.replace(/ipynb$/, "html")}`);
        assert.match(html, /<math /, `${name}: no MathML`);
        assert.doesNotMatch(html.replace(/<pre[\s\S]*?<\/pre>/g, ""), /\$\$/, `${name}: raw $$`);
        assert.doesNotMatch(html, /<script[^>]+src=/, `${name}: a script from elsewhere`);
        assert.match(html, /<details class="memgauge-solution"><summary>Solution 1/, name);
      }
      const reproduce = await _run([REPRODUCE, "--out", `${dir}/rep`], {});
      assert.ok(reproduce.ok, reproduce.text);
      for (const name of SHARED) {
        for (const ext of ["svg", "png"]) {
          const a = await Deno.readFile(`${dir}/nb/${name}.${ext}`);
          const b = await Deno.readFile(`${dir}/rep/${name}.${ext}`);
          assert.deepEqual(a, b, `${name}.${ext} differs between notebook and reproduce`);
        }
      }
      for (const name of SHARED.filter((n) => n !== "figure3_stages" && n !== "mid_intervals")) {
        assert.equal(
          await Deno.readTextFile(`${dir}/nb/${name}.csv`),
          await Deno.readTextFile(`${dir}/rep/${name}.csv`),
          `${name}.csv`,
        );
      }
      // Notebook 07 checks the matcher against the hand-labelled answers.
      const judge = await Deno.readTextFile(`${dir}/nb/judge_hand_labels.csv`);
      assert.match(judge, /^question,n,judged,agreement,kappa,judge/);
      assert.match(judge, /all,240,240,/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** A notebook of a parameters cell and one cell of code, run from the repository root. */
async function _tinyNotebook(dir: string, code: string): Promise<string> {
  const path = `${dir}/tiny.ipynb`;
  const cell = (source: string, tags: string[] = []) => ({
    cell_type: "code",
    execution_count: null,
    metadata: { tags },
    outputs: [],
    source,
  });
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      cells: [
        cell('import * as mg from "memgauge";\nconst N = mg.param("N", 0);', ["parameters"]),
        cell(code),
      ],
      metadata: { kernelspec: { display_name: "Deno", language: "typescript", name: "deno" } },
      nbformat: 4,
      nbformat_minor: 5,
    }),
  );
  return path;
}

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "a claim that does not hold on the run's data fails deno task notebooks, naming the claim",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const path = await _tinyNotebook(
        dir,
        `const result = await mg.stageExperiment({ stage: "management", n: 4, resamples: 10, attacks: ["minja"] });
const asr = (policy: string) => mg.kitMedian({ summary: result.summary, metric: "asr", where: { policy } })!;
await mg.show(mg.notice({ rows: result.rows, claims: [
  { claim: "SC leaves more target decisions than UM.", holds: asr("SC") > asr("UM"), values: { UM: asr("UM"), SC: asr("SC") } },
] }));`,
      );
      const run = await _run([NOTEBOOKS, path, "--kernel-cwd", ROOT, "--out", `${dir}/out`], {});
      assert.ok(!run.ok, run.text);
      assert.match(run.text, /FAILED tiny\.ipynb/);
      assert.match(run.text, /ClaimError/);
      assert.match(
        run.text,
        /does not hold on this run: "SC leaves more target decisions than UM\."/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a display the kernel sent and the notebook lacks fails deno task notebooks after a rerun",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // The cell reports display 99 as sent, as show() does, without sending it: a loss.
      const path = await _tinyNotebook(
        dir,
        `await mg.show(mg.keyValues({ title: "shown", values: { a: 1 } }));
Deno.writeTextFileSync(Deno.env.get(mg.SHOW_REPORT_ENV)!, "99\\n", { append: true });`,
      );
      const run = await _run([NOTEBOOKS, path, "--kernel-cwd", ROOT, "--out", `${dir}/out`], {});
      assert.ok(!run.ok, run.text);
      assert.match(run.text, /rerun {2}tiny\.ipynb \(the kernel lost display 99/);
      assert.match(run.text, /FAILED tiny\.ipynb .*lost display 99 .*again on a rerun/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "every notebook runs with its kernel started at the repository root, and without the benchmark files",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // No benchmark files here: the solutions that need them say so instead of failing.
      const run = await _run([NOTEBOOKS, "--kernel-cwd", ROOT, "--out", dir], {
        MEMGAUGE_DATA: `${dir}/no-data`,
      });
      assert.ok(run.ok, run.text);
      assert.match(run.text, new RegExp(`All ${notebookNames().length} notebooks ran`));
      const solutions = await Deno.readTextFile(`${dir}/05_robustness.ipynb`);
      assert.match(solutions, /LongMemEval is not here, so this solution cannot run/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "MEMGAUGE_GRID=0,0.5,1 gives exactly those operating points in the writing notebook",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // Other parameters than the claims were written for: claims are marked, not enforced.
      const run = await _run([NOTEBOOKS, "02_writing", "--claims", "mark"], {
        MEMGAUGE_N: "2",
        MEMGAUGE_GRID: "0,0.5,1",
        MEMGAUGE_K: "3",
        MEMGAUGE_OUT: dir,
      });
      assert.ok(run.ok, run.text);
      const csv = (await Deno.readTextFile(`${dir}/figure3_writing.csv`)).trim().split("\n");
      const header = csv[0].split(",");
      const column = (
        name: string,
      ) => [...new Set(csv.slice(1).map((l) => l.split(",")[header.indexOf(name)]))];
      assert.deepEqual(column("thetaW").map(Number), [0, 0.5, 1]);
      assert.deepEqual(column("backend"), ["simulator"]);
      // K is held fixed, so it is in the caption rather than a column.
      const caption = (await Deno.readTextFile(`${dir}/figure3_writing.svg`))
        .replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      assert.match(caption, /K = 3, \|B\| = 100/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "notebooks run an llm: agent and judge against an OpenAI-compatible endpoint and say so",
  ignore: !available,
  async fn() {
    const server = startFakeOpenAIServer({});
    const dir = await Deno.makeTempDir();
    try {
      const run = await _run([NOTEBOOKS, "03_management", "07_judge"], {
        MEMGAUGE_N: "2",
        MEMGAUGE_AGENT: "llm:fake-1",
        MEMGAUGE_JUDGE: "llm:fake-judge",
        MEMGAUGE_BASE_URL: server.baseUrl,
        MEMGAUGE_CACHE: `${dir}/cache.sqlite`,
        MEMGAUGE_OUT: `${dir}/out`,
        OPENAI_API_KEY: "sk-test-notebooks",
      });
      assert.ok(run.ok, run.text);
      assert.ok(server.requests > 0);
      const svg = await Deno.readTextFile(`${dir}/out/figure3_management.svg`);
      assert.match(svg, /Agent backend: real model llm:fake-1, not the offline reference agent/);
      assert.doesNotMatch(svg, /Agent backend: offline reference agent/);
      const csv = await Deno.readTextFile(`${dir}/out/figure3_management.csv`);
      assert.match(csv, /,fake-1,/); // the backend column names the model
      const judge = await Deno.readTextFile(`${dir}/out/judge_hand_labels.csv`);
      assert.match(judge, /fake-judge/);
      assert.ok(!run.text.includes("sk-test-notebooks"));
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const DATA = Deno.env.get("MEMGAUGE_DATA");
const hasLocomo = DATA !== undefined &&
  (() => {
    try {
      return Deno.statSync(`${DATA}/locomo/locomo10.json`).isFile;
    } catch {
      return false;
    }
  })();

Deno.test({
  name: "notebooks run on LoCoMo from the data directory, wherever the kernel runs",
  ignore: !available || !hasLocomo,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const run = await _run([NOTEBOOKS, "01_anatomy", "03_management", "--claims", "mark"], {
        MEMGAUGE_N: "2",
        MEMGAUGE_DATASET: "locomo",
        MEMGAUGE_OUT: dir,
      });
      assert.ok(run.ok, run.text);
      assert.match(await Deno.readTextFile(`${dir}/figure3_management.csv`), /,locomo,/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("every notebook: committed without outputs, a tagged parameters cell whose every knob is used, the paper's claim, exercises", async () => {
  for (const name of notebookNames()) {
    const nb = JSON.parse(
      await Deno.readTextFile(new URL(`../../notebooks/${name}`, import.meta.url)),
    );
    const cells = nb.cells as {
      cell_type: string;
      source: string[];
      metadata: { tags?: string[] };
      outputs?: unknown[];
    }[];
    const text = (c: { source: string[] }) => c.source.join("");
    for (const c of cells) {
      if (c.cell_type === "code") {
        assert.deepEqual(c.outputs, [], `${name}: committed with outputs`);
      }
    }
    const code = cells.filter((c) => c.cell_type === "code");
    assert.deepEqual(code[0].metadata.tags, ["parameters"], `${name}: first code cell not tagged`);
    const knobs = [...text(code[0]).matchAll(/const (\w+) = mg\.param\("(\w+)"/g)];
    assert.ok(knobs.length >= 5, `${name}: ${knobs.length} knobs`);
    const rest = code.slice(1).map(text).join("\n");
    for (const [, constant, env] of knobs) {
      assert.equal(constant, env, `${name}: ${constant} is read from MEMGAUGE_${env}`);
      assert.match(
        rest,
        new RegExp(`\\b${constant}\\b`),
        `${name}: knob ${constant} is never used`,
      );
    }
    const markdown = cells.filter((c) => c.cell_type === "markdown").map(text).join("\n");
    assert.match(markdown, /\*\*The paper's claims?\*\* \(Zang et al\. 2026/, `${name}: no claim`);
    assert.match(markdown, /\$\$[\s\S]+\$\$/, `${name}: no equation`);
    assert.match(markdown, /## What to notice/, `${name}: no "what to notice"`);
    assert.match(
      markdown,
      /## Exercises[\s\S]*1\. [\s\S]*\*Hint:\*[\s\S]*2\. /,
      `${name}: exercises`,
    );
    assert.doesNotMatch(markdown + rest, /SPEC/, `${name}: cites SPEC`);
    // Found from the repository's deno.json wherever the kernel starts, never "../lib".
    assert.match(text(code[0]), /import \* as mg from "memgauge";/, `${name}: import`);
    assert.doesNotMatch(rest + text(code[0]), /\.\.\/lib\//, `${name}: imports ../lib/`);
    // What to notice is checked by code, and every exercise has a folded, executed solution.
    assert.match(rest, /mg\.notice\(/, `${name}: no check cell`);
    assert.doesNotMatch(markdown, /MEMGAUGE_/, `${name}: an exercise sets MEMGAUGE_*`);
    const exercises = markdown.slice(markdown.indexOf("## Exercises"));
    const asked = [...exercises.matchAll(/^(\d+)\. \*\*/gm)].length;
    const solutions = cells.filter((c) =>
      c.cell_type === "code" && (c.metadata.tags ?? []).includes("solution")
    );
    assert.equal(
      solutions.length,
      asked,
      `${name}: ${asked} exercises, ${solutions.length} solutions`,
    );
    for (const [i, c] of solutions.entries()) {
      assert.match(text(c), new RegExp(`^// Solution ${i + 1}:`), `${name}: solution ${i + 1}`);
      assert.deepEqual(
        (c.metadata as { jupyter?: unknown }).jupyter,
        { source_hidden: true, outputs_hidden: true },
        `${name}: solution ${i + 1} not folded`,
      );
    }
  }
});
