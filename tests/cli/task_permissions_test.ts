/**
 * Every `deno task` runs its CLI with named permissions (deno.json), not `-A`, and each path a
 * user takes still works with them: offline and model runs, summaries, batch files, every
 * system, the figures, data statistics, model checks, a plugin, and a notebook when Jupyter is
 * installed. Before issue 22 every task was `deno run -A`.
 */
import assert from "node:assert/strict";
import { jupyterAvailable } from "../../lib/cli/notebooks.ts";
import { SYSTEM_NAMES } from "../../lib/systems/resolve_system.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { DATA_DIR, HAVE_DATA } from "../data/_built.ts";
import { taskFlags } from "../support/task_flags.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TASKS = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks as Record<
  string,
  string
>;

Deno.test("deno.json: no CLI task runs with -A; each names the permissions it needs", () => {
  for (const [name, command] of Object.entries(TASKS)) {
    if (!command.includes("lib/cli/")) continue; // test, ok and bench run the test runner
    assert.doesNotMatch(command, /\s(-A|--allow-all)\b/, name);
    assert.match(command, /--allow-read/, name);
  }
});

/** Run a CLI as its task does; returns the exit code and the output. */
async function _task(script: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      ...taskFlags(`lib/cli/${script}.ts`),
      `lib/cli/${script}.ts`,
      ...args,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-Tp9Xw2Lq7Zm4", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.doesNotMatch(
    text,
    /Requires \w+ access|NotCapable|PermissionDenied/,
    `${script}: ${text}`,
  );
  return { code: out.code, text };
}

full.test("every task path works with its task's permissions", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "mg-task-perms-" });
  const llm = ["--agent", "llm:m", "--base-url", server.baseUrl, "--cache", `${dir}/c.sqlite`];
  const ok = (name: string, r: { code: number; text: string }, codes = [0]) =>
    assert.ok(codes.includes(r.code), `${name} exited ${r.code}:\n${r.text}`);
  try {
    ok(
      "sweep offline",
      await _task("sweep", [
        "--stage",
        "writing",
        "--limit",
        "2",
        "--out",
        `${dir}/r.jsonl`,
        "--quiet",
      ]),
    );
    // The LangGraph agent and the LLM judge over a model endpoint.
    ok(
      "sweep llm",
      await _task("sweep", [
        "--stage",
        "retrieval",
        "--limit",
        "1",
        ...llm,
        "--out",
        `${dir}/l.jsonl`,
        "--quiet",
      ]),
    );
    ok(
      "sweep plugin",
      await _task("sweep", [
        "--plugin",
        `${ROOT}tests/fixtures/plugins/tq_policy.ts`,
        ...["--stage", "management", "--policies", "UM,TQ", "--limit", "1"],
        ...["--out", `${dir}/p.jsonl`, "--quiet"],
      ]),
    );
    ok(
      "summarize csv",
      await _task("summarize", ["--in", `${dir}/r.jsonl`, "--out", `${dir}/s.csv`]),
    );
    ok(
      "summarize parquet",
      await _task("summarize", ["--in", `${dir}/l.jsonl`, "--out", `${dir}/s.parquet`]),
    );
    ok(
      "batch export",
      await _task("batch", [
        "export",
        "--stage",
        "writing",
        "--limit",
        "1",
        ...llm,
        "--batch-out",
        `${dir}/req.jsonl`,
      ]),
    );
    await Deno.writeTextFile(
      `${dir}/results.jsonl`,
      JSON.stringify({
        custom_id: "a".repeat(64),
        response: { status_code: 200, body: { choices: [{ message: { content: "ok" } }] } },
        error: null,
      }) + "\n",
    );
    ok(
      "batch import",
      await _task("batch", [
        "import",
        "--batch-in",
        `${dir}/results.jsonl`,
        "--cache",
        `${dir}/c.sqlite`,
      ]),
    );
    for (const name of SYSTEM_NAMES) {
      ok(
        `systems ${name}`,
        await _task("systems", [
          ...["--system", name, "--pipeline-check", "--limit", "1", "--bank-size", "5", "--k", "1"],
          ...["--out", `${dir}/sys-${name}.jsonl`],
        ]),
      );
    }
    ok(
      "systems llm",
      await _task("systems", [
        ...["--system", "amem", "--system-model", "m", "--embedding-model", "e", ...llm],
        ...["--judge", "deterministic", "--limit", "1", "--bank-size", "5", "--k", "1"],
        ...["--out", `${dir}/sys-llm.jsonl`, "--allow-errors"],
      ]),
    );
    ok("reproduce", await _task("reproduce", ["--limit", "1", "--out", `${dir}/figures`]));
    assert.ok((await Deno.stat(`${dir}/figures/manifest.json`)).isFile);
    if (HAVE_DATA) {
      ok(
        "data",
        await _task("data", ["--stats", "--dataset", "locomo"], { MEMGAUGE_DATA: DATA_DIR }),
      );
    } else {
      console.log("SKIPPED: deno task data --stats (no LoCoMo under MEMGAUGE_DATA)");
    }
    ok("models", await _task("models", ["check", "--model", "m", "--base-url", server.baseUrl]));
    if (await jupyterAvailable()) {
      ok("notebooks", await _task("notebooks", ["00_", "--n", "2", "--claims", "mark"]));
    } else {
      console.log("SKIPPED: the notebooks task (Jupyter not installed)");
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
