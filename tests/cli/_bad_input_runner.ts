/**
 * Runs the whole bad-input table in this one process, through each CLI's exported entry
 * (`CLI_ENTRIES`), instead of one `deno run` per case: the working directory is the fixture
 * folder, the environment is the case's, and everything the CLI prints (console, Deno and Node
 * streams) is captured. Prints one JSON line per case: `{ index, problems, stderr }`.
 * A plugin registers into process-wide registries that no case can undo, so the test runs each
 * `--plugin` case in a runner of its own.
 *
 * Run: deno run -A tests/cli/_bad_input_runner.ts [INDEX,INDEX,...]   (default every case)
 */
import process from "node:process";
import {
  argsOf,
  BAD_INPUTS,
  CLI_ENTRIES,
  type CliEntry,
  envOf,
  layFixtures,
  listing,
  problemsOf,
  stderrLines,
} from "./_bad_inputs.ts";

const TIMEOUT_MS = 60_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const print = Deno.stdout.writeSync.bind(Deno.stdout);

// Everything a CLI prints goes to the case's buffers.
const captured = { out: "", err: "" };
const text = (args: unknown[]) =>
  args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(" ") + "\n";
console.log = console.info = console.debug = (...a: unknown[]) => void (captured.out += text(a));
console.warn = console.error = (...a: unknown[]) => void (captured.err += text(a));
const chunk = (c: unknown) => typeof c === "string" ? c : decoder.decode(c as Uint8Array);
for (const [stream, key] of [[Deno.stdout, "out"], [Deno.stderr, "err"]] as const) {
  stream.writeSync = (p: Uint8Array) => (captured[key] += decoder.decode(p), p.length);
  stream.write = (p: Uint8Array) => (captured[key] += decoder.decode(p), Promise.resolve(p.length));
}
for (const [stream, key] of [[process.stdout, "out"], [process.stderr, "err"]] as const) {
  stream.write = ((c: unknown) => (captured[key] += chunk(c), true)) as typeof stream.write;
}
// A rejection a CLI leaves behind is printed to stderr, as Deno would.
globalThis.addEventListener("unhandledrejection", (e) => {
  e.preventDefault();
  captured.err += `error: Uncaught (in promise) ${e.reason}\n`;
});

const indices = Deno.args[0]?.split(",").map(Number) ?? BAD_INPUTS.map((_, i) => i);
const entries = new Map<string, CliEntry>();
let dir = "";
let restore = async () => {};
let before: string[] = [];
const fresh = async () => {
  if (dir) {
    Deno.chdir("/");
    await restore();
    await Deno.remove(dir, { recursive: true });
  }
  dir = await Deno.makeTempDir({ prefix: "memgauge-bad-" });
  restore = await layFixtures(dir);
  before = await listing(dir);
};
await fresh();

for (const index of indices) {
  const bad = BAD_INPUTS[index];
  if (!entries.has(bad.cli)) entries.set(bad.cli, await CLI_ENTRIES[bad.cli]());
  const env = envOf(bad, dir);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  const held = bad.hold ? await Deno.open(`${dir}/${bad.hold}`, { read: true, write: true }) : null;
  if (held) await held.lock(true);
  captured.out = captured.err = "";
  Deno.chdir(dir);
  let code: number | null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    code = await Promise.race([
      entries.get(bad.cli)!(argsOf(bad)),
      new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), TIMEOUT_MS)),
    ]);
  } catch (e) {
    // An entry never throws: what it cannot handle is a bug, shown as Deno shows it.
    captured.err += `error: Uncaught ${(e as Error)?.stack ?? e}\n`;
    code = 1;
  }
  clearTimeout(timer);
  // Let stray timers and rejections of the case land in its own buffers.
  await new Promise((resolve) => setTimeout(resolve, 0));
  Deno.chdir("/");
  held?.close();
  for (const [k, v] of Object.entries(saved)) {
    v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  }
  const added = (await listing(dir)).filter((l) => !before.includes(l));
  const problems = problemsOf(bad, { code, stdout: captured.out, stderr: captured.err, added });
  const stderr = stderrLines(captured.err).slice(0, 3).join(" | ").slice(0, 300);
  print(encoder.encode(JSON.stringify({ index, problems, stderr }) + "\n"));
  // A case that changed the fixtures gets them laid again for the next one.
  if (added.length > 0) await fresh();
}
Deno.chdir("/");
await restore();
await Deno.remove(dir, { recursive: true });
Deno.exit(0);
