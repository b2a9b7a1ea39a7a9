/**
 * The lock on --out is the operating system's: a writer killed with kill -9 frees it at once,
 * even while it waits unreaped as a zombie (a parent that never calls wait, or a container whose
 * init does not reap). Before issue 22 the lock held a pid that a liveness probe checked, and a
 * zombie passes that probe: a resume right after the kill was refused ("another sweep (process N)
 * is writing it") for as long as nobody reaped the dead writer.
 */
import assert from "node:assert/strict";
import { lockOut, OutLockedError } from "../../lib/run/out_lock.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const LOCK = new URL("../../lib/run/out_lock.ts", import.meta.url).href;
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);
const lines = async (path: string) =>
  (await Deno.readTextFile(path).catch(() => "")).split("\n").filter((l) => l !== "").length;

/**
 * Start `argv` in the background of a shell that then becomes `sleep`, which never reaps it:
 * once killed, the process stays a zombie until the test ends the shell. Returns its pid.
 */
async function _unreaped(argv: string[], env: Record<string, string> = {}) {
  const shell = new Deno.Command("sh", {
    args: ["-c", '"$0" "$@" >/dev/null 2>&1 & echo $!; exec sleep 120', ...argv],
    env,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = shell.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { pid: Number(text.trim()), shell };
}

async function _zombie(pid: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    // The leader shows Z as soon as it exits; its other threads (which share the open files,
    // and so the lock) may still be tearing down. A zombie is whole when it is the only task.
    const tasks = await Array.fromAsync(Deno.readDir(`/proc/${pid}/task`)).catch(() => []);
    if (/^\d+ \(.*\) Z/.test(stat) && tasks.length <= 1) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

full.test("lockOut(): a lock held by a live process is refused; once it is killed (a zombie), it is free at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mg-lock-" });
  const out = `${dir}/rows.jsonl`;
  const holder = await _unreaped([
    Deno.execPath(),
    "eval",
    `const { lockOut } = await import(${JSON.stringify(LOCK)}); ` +
    `lockOut({ out: ${JSON.stringify(out)}, command: "sweep" }); ` +
    `await Deno.writeTextFile(${JSON.stringify(`${dir}/held`)}, "1"); ` +
    `await new Promise((r) => setTimeout(r, 60000));`,
  ]);
  try {
    for (let i = 0; i < 1000 && !await exists(`${dir}/held`); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.throws(
      () => lockOut({ out, command: "sweep" }),
      (e) =>
        e instanceof OutLockedError &&
        new RegExp(`another sweep \\(process ${holder.pid},`).test(e.message),
    );
    Deno.kill(holder.pid, "SIGKILL");
    assert.ok(await _zombie(holder.pid), "the killed holder waits unreaped");
    const lock = lockOut({ out, command: "sweep" });
    lock.release();
    assert.ok(!await exists(`${out}.lock`));
  } finally {
    holder.shell.kill("SIGKILL");
    await holder.shell.status;
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("a sweep resumes at once after kill -9 of its writer, while the dead writer is an unreaped zombie", async () => {
  const server = startFakeOpenAIServer({ latencyMs: 20 });
  const dir = await Deno.makeTempDir({ prefix: "mg-zombie-" });
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 6 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  const out = `${dir}/rows.jsonl`;
  const args = [
    ...["--stage", "writing", "--grid", "0,0.5,1", "--dataset", data, "--agent", "llm:fake-1"],
    ...["--base-url", server.baseUrl, "--bank-size", "20", "--cache", `${dir}/cache.sqlite`],
    ...["--concurrency", "2", "--out", out, "--quiet"],
  ];
  const env = { NO_COLOR: "1", OPENAI_API_KEY: "sk-Zb6Kq1Xw8Lm3" };
  const writer = await _unreaped([Deno.execPath(), "run", "-A", SWEEP, ...args], env);
  try {
    for (let i = 0; i < 1000 && await lines(`${out}.partial`) < 8; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(await lines(`${out}.partial`) >= 8, "the writer wrote rows");
    Deno.kill(writer.pid, "SIGKILL");
    assert.ok(await _zombie(writer.pid), "the killed writer waits unreaped");
    const resumed = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SWEEP, ...args, "--resume"],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(resumed.stderr);
    assert.equal(resumed.code, 0, stderr);
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
    const keys = rows.map((r) => `${r.pairId}#${r.condition}`);
    assert.equal(rows.length, 3 * 2 * 6 * 2);
    assert.equal(new Set(keys).size, keys.length, "no row twice");
    assert.ok(!await exists(`${out}.lock`));
  } finally {
    writer.shell.kill("SIGKILL");
    await writer.shell.status;
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
