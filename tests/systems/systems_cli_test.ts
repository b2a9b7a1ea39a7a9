import assert from "node:assert/strict";
import { systemsMain } from "../../lib/cli/systems.ts";
import { SYSTEM_NAMES } from "../../lib/systems/resolve_system.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { full } from "../support/tiers.ts";

const CLI = new URL("../../lib/cli/systems.ts", import.meta.url).pathname;

async function _cli(args: string[], cwd: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd,
    env: { OPENAI_API_KEY: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stderr: new TextDecoder().decode(out.stderr),
  };
}

full.test("systems CLI: bad input is one line, exit 2, no file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string[], RegExp][] = [
      [
        ["--system", "zep"],
        /^memgauge systems: --system: "zep" is invalid \(expected one of mem0\|mem0-classic\|hindsight\|langmem\|amem\)$/,
      ],
      [
        ["--system", "mem0", "--management", "sometimes"],
        /^memgauge systems: --management: expected one of on\|off\|both, got "sometimes"$/,
      ],
      [
        ["--system", "mem0", "--k", "0"],
        /^memgauge systems: --k: "0" is invalid \(expected K >= 1\)$/,
      ],
      [
        ["--system", "mem0", "--k", "3,21"],
        /^memgauge systems: --k: "21" is invalid \(expected K <= 20\)$/,
      ],
      [
        ["--system", "mem0"],
        /--agent: a real run needs a model agent .*"reference:balanced" is the offline simulator/,
      ],
      [
        ["--system", "mem0", "--agent", "reference:careful"],
        /--agent: a real run needs a model agent/,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await _cli([...args, "--out", "rows.jsonl"], dir);
      assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
      const lines = stderr.trim().split("\n");
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], message);
      assert.deepEqual([...Deno.readDirSync(dir)], [], `${args.join(" ")} left a file`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The plan's total line: chat and embedding requests, prompt tokens.
async function _plan(
  argv: string[],
): Promise<
  { chat: number; embed: number; promptTokens: number; agentTokens: number; text: string }
> {
  const lines: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  console.error = () => {};
  let code: number;
  try {
    code = await systemsMain(argv);
  } finally {
    console.log = log;
    console.error = error;
  }
  const text = lines.join("\n");
  assert.equal(code, 0, text);
  const total = /^total\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(text);
  assert.ok(total, text);
  return {
    chat: Number(total[1]),
    embed: Number(total[2]),
    promptTokens: Number(total[3]),
    // The agent's share alone: the system's writing tokens would hide a miscount of it.
    agentTokens: Number(/^agent\+judge\s+\d+\s+\d+\s+(\d+)/m.exec(text)?.[1]),
    text,
  };
}

for (const name of SYSTEM_NAMES) {
  full.test(`systems CLI ${name}: --dry-run sends nothing and counts within 10% of a pipeline check's requests and tokens`, async () => {
    const dir = await Deno.makeTempDir();
    // Every model of the dry run points here: it must not receive a single request.
    const trap = startFakeOpenAIServer({});
    const common = ["--system", name, "--limit", "3", "--bank-size", "5", "--k", "1,5"];
    try {
      const run = await _plan([
        ...common,
        "--pipeline-check",
        "--agent",
        "llm:stand-in",
        "--out",
        `${dir}/rows.jsonl`,
      ]);
      const dry = await _plan([
        ...common,
        "--dry-run",
        "--agent",
        "llm:gpt-5.4",
        "--base-url",
        trap.baseUrl,
        "--cache",
        `${dir}/cache.sqlite`,
      ]);
      assert.equal(trap.requests, 0);
      assert.ok(run.chat > 0, run.text);
      for (const k of ["chat", "embed", "promptTokens", "agentTokens"] as const) {
        assert.ok(
          Math.abs(dry[k] - run[k]) <= 0.1 * run[k],
          `${k}: dry run ${dry[k]} vs run ${run[k]}\n${dry.text}\n${run.text}`,
        );
      }
      assert.match(dry.text, /^DRY RUN/);
      assert.ok(!(await Deno.stat(`${dir}/rows.jsonl.partial`).catch(() => null)));
    } finally {
      await trap.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

full.test("systems CLI: --resume completes a torn rows file without duplicates, same bytes as one run", async () => {
  const dir = await Deno.makeTempDir();
  const args = ["--system", "amem", "--pipeline-check", "--limit", "3", "--bank-size", "5"];
  try {
    await _plan([...args, "--out", `${dir}/full.jsonl`]);
    const full = await Deno.readTextFile(`${dir}/full.jsonl`);
    const lines = full.trim().split("\n");
    // An interrupted run: the first task complete, the second cut mid-line.
    const perTask = lines.filter((l) =>
      l.includes('"instanceId":"demo-01","pairId":"demo-01:minja')
    ).length;
    await Deno.writeTextFile(
      `${dir}/r.jsonl.partial`,
      lines.slice(0, perTask + 3).join("\n") + "\n" + lines[perTask + 3].slice(0, 40),
    );
    await _plan([...args, "--resume", "--out", `${dir}/r.jsonl`]);
    const resumed = await Deno.readTextFile(`${dir}/r.jsonl`);
    const strip = (t: string) => t.replace(/"latencyMs":[0-9.]+/g, '"latencyMs":0');
    assert.equal(strip(resumed), strip(full));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("systems CLI: --retry-errors reruns only the tasks with error rows, in place", async () => {
  const dir = await Deno.makeTempDir();
  const args = ["--system", "langmem", "--pipeline-check", "--limit", "2", "--bank-size", "5"];
  try {
    await _plan([...args, "--out", `${dir}/rows.jsonl`]);
    const good = await Deno.readTextFile(`${dir}/rows.jsonl`);
    // One task (demo-02, sleeper) failed: its system rows are error rows.
    const broken = good.trim().split("\n").map((line) => {
      const r = JSON.parse(line);
      if (r.instanceId !== "demo-02" || r.attack !== "sleeper" || r.condition === "nomemory") {
        return line;
      }
      return JSON.stringify({
        ...r,
        output: null,
        correct: null,
        matchesTarget: null,
        hedged: null,
        error: "ModelCallError: boom",
        contextIds: [],
        contextSize: 0,
      });
    }).join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/rows.jsonl`, broken);
    await _plan([...args, "--retry-errors", "--out", `${dir}/rows.jsonl`]);
    const strip = (t: string) => t.replace(/"latencyMs":[0-9.]+/g, '"latencyMs":0');
    assert.equal(strip(await Deno.readTextFile(`${dir}/rows.jsonl`)), strip(good));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// An all-401 server that echoes the key: every system's run ends in error rows and exit 3, with
// no stack trace and no 8-character piece of the key in any output or file.
full.test("systems CLI: an all-401 server gives error rows, exit 3, no stack, no key", async () => {
  const key = "sk-ECHO-systems-401-a1b2c3d4e5f6";
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  try {
    for (const name of SYSTEM_NAMES.filter((n) => n !== "hindsight")) {
      const dir = await Deno.makeTempDir({ prefix: "mg-s401-" });
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          CLI,
          "--system",
          name,
          "--agent",
          "llm:m",
          "--system-model",
          "m",
          "--embedding-model",
          "e",
          "--base-url",
          server.baseUrl,
          "--limit",
          "2",
          "--bank-size",
          "5",
          "--k",
          "1",
          "--cache",
          `${dir}/c.sqlite`,
          "--out",
          `${dir}/rows.jsonl`,
        ],
        env: { NO_COLOR: "1", OPENAI_API_KEY: key },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 3, `${name}: ${text}`);
      assert.ok(!/\n\s+at |Uncaught/.test(text), `${name} printed a stack:\n${text}`);
      const rows = (await Deno.readTextFile(`${dir}/rows.jsonl`)).trim().split("\n")
        .map((l) => JSON.parse(l));
      assert.ok(rows.length > 0 && rows.every((r) => /HTTP 401/.test(r.error)), name);
      const texts = [text];
      for await (const e of Deno.readDir(dir)) {
        texts.push(new TextDecoder("latin1").decode(await Deno.readFile(`${dir}/${e.name}`)));
      }
      for (const t of texts) {
        for (let i = 0; i + 8 <= key.length; i++) {
          assert.ok(!t.includes(key.slice(i, i + 8)), `${name}: piece ${key.slice(i, i + 8)}`);
        }
      }
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await server.close();
  }
});

full.test("systems and sweep take --out with --dry-run alike: the plan of that command, no file", async () => {
  // Before issue 22, systems refused it ("--out: a --dry-run writes no file") and sweep took it.
  const dir = await Deno.makeTempDir({ prefix: "mg-dry-out-" });
  try {
    for (
      const [cli, args] of [
        ["systems", ["--system", "amem", "--agent", "llm:gpt-5.4", "--limit", "1"]],
        ["sweep", ["--stage", "writing", "--model", "gpt-5.4", "--limit", "1"]],
      ] as const
    ) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL(`../../lib/cli/${cli}.ts`, import.meta.url).pathname,
          ...args,
          "--dry-run",
          "--out",
          `${dir}/rows.jsonl`,
          "--cache",
          `${dir}/c.sqlite`,
        ],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, `${cli}: ${new TextDecoder().decode(out.stderr)}`);
      assert.match(new TextDecoder().decode(out.stdout), /DRY RUN/);
      assert.deepEqual(
        [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("rows")),
        [],
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
