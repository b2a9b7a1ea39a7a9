/**
 * `deno task explore`: --help, bad input (one line naming the option and value, exit 2, no file
 * written), a page from rows alone, and the Inspect AI logs it writes beside.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { exploreCommand } from "../../lib/cli/explore.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const EXPLORE = `${ROOT}lib/cli/explore.ts`;

async function run(args: string[], cwd = ROOT) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

const files = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

let _sweep: Promise<string> | undefined;
/** A small offline sweep with its sidecar, made once for the tests of this file. */
function sweepDir(): Promise<string> {
  _sweep ??= (async () => {
    const dir = await Deno.makeTempDir();
    const made = await run([
      `${ROOT}lib/cli/sweep.ts`,
      ...["--stage", "writing", "--grid", "0.5,1", "--limit", "2", "--counterfactual", "loo"],
      ...["--agent", "reference:compliant", "--out", `${dir}/w.jsonl`, "--quiet"],
    ]);
    assert.equal(made.code, 0, made.stderr);
    return dir;
  })();
  return _sweep;
}

full.test("deno task explore --help exits 0 and lists every option with its default and an example", async () => {
  const { code, stdout, stderr } = await run([EXPLORE, "--help"]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^deno task explore: /);
  for (const option of Object.keys(exploreCommand.spec.options)) {
    assert.match(stdout, new RegExp(`\\n  --${option}\\b[^]*?Example: --${option}\\b`), option);
  }
});

for (
  const [name, args, names] of [
    ["no --in", [], /--in/],
    ["a missing --in", ["--in", "missing.jsonl"], /--in.*missing\.jsonl|missing\.jsonl/],
    ["an --out that is not .html", ["--in", "w.jsonl", "--out", "w.txt"], /--out.*w\.txt/],
    ["an --out into a missing folder", ["--in", "w.jsonl", "--out", "no/w.html"], /--out/],
    [
      "a --trajectories that is missing",
      ["--in", "w.jsonl", "--trajectories", "t.jsonl"],
      /--trajectories/,
    ],
    ["rows that are not rows", ["--in", "bad.jsonl"], /--in: .*bad\.jsonl line 1: runId/],
    [
      "--inspect without a sidecar",
      ["--in", "alone.jsonl", "--inspect", "logs"],
      /--inspect: needs the trajectory sidecar/,
    ],
  ] as const
) {
  full.test(`deno task explore rejects ${name} with one line, exit 2 and no file`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const sweep = await sweepDir();
      await Deno.copyFile(`${sweep}/w.jsonl`, `${dir}/w.jsonl`);
      await Deno.copyFile(`${sweep}/w.jsonl`, `${dir}/alone.jsonl`);
      await Deno.writeTextFile(`${dir}/bad.jsonl`, '{"runId": 3}\n');
      const before = files(dir);
      const { code, stdout, stderr } = await run([EXPLORE, ...args], dir);
      assert.equal(code, 2, stdout + stderr);
      const lines = stderr.trim().split("\n");
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], /^memgauge explore: /);
      assert.match(lines[0], names);
      assert.deepEqual(files(dir), before, "no file written");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

full.test("deno task explore: rows alone make a page too, saying the trajectories are missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(`${await sweepDir()}/w.jsonl`, `${dir}/alone.jsonl`);
    const { code, stdout } = await run([EXPLORE, "--in", `${dir}/alone.jsonl`]);
    assert.equal(code, 0);
    assert.match(stdout, /\d+ pairs \(no trajectory sidecar .*\) -> .*alone\.explore\.html/);
    const html = await Deno.readTextFile(`${dir}/alone.explore.html`);
    assert.match(html, /0 with their trajectory/);
    assert.doesNotMatch(
      html,
      /<script[^>]* src=|<link[^>]* href=/,
      "nothing loaded from elsewhere",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The fields inspect_ai's `EvalLog` requires (src/inspect_ai/log/_log.py at the pinned commit):
 * a log `inspect view` can read has these, with these types.
 */
const InspectMessage = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([
    z.string(),
    z.array(z.union([
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({ type: z.literal("reasoning"), reasoning: z.string() }),
    ])),
  ]),
});
const Score = z.object({ value: z.union([z.string(), z.number(), z.boolean()]) });
const EvalLog = z.object({
  version: z.literal(2),
  status: z.enum(["started", "success", "cancelled", "error"]),
  eval: z.object({
    created: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
    task: z.string(),
    dataset: z.object({ name: z.string().nullable().optional() }),
    model: z.string(),
    config: z.object({}),
  }),
  results: z.object({
    total_samples: z.number().int(),
    completed_samples: z.number().int(),
    scores: z.array(z.object({
      name: z.string(),
      scorer: z.string(),
      metrics: z.record(z.string(), z.object({ name: z.string(), value: z.number() })),
    })),
  }),
  samples: z.array(z.object({
    id: z.string(),
    epoch: z.number().int().min(1),
    input: z.string(),
    target: z.string(),
    messages: z.array(InspectMessage),
    output: z.object({
      model: z.string(),
      choices: z.array(z.object({ message: InspectMessage, stop_reason: z.string() })),
      completion: z.string(),
    }),
    scores: z.record(z.string(), Score).optional(),
    metadata: z.record(z.string(), z.unknown()),
  })),
});

full.test("deno task explore --inspect writes one Inspect eval log per agent, named as inspect view lists them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sweep = await sweepDir();
    const { code, stdout, stderr } = await run([
      EXPLORE,
      ...["--in", `${sweep}/w.jsonl`, "--out", `${dir}/w.html`, "--inspect", `${dir}/logs`],
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /1 Inspect AI eval log -> .*logs\/ \(open: inspect view --log-dir/);
    const [name] = files(`${dir}/logs`);
    // inspect_ai's log_file_pattern: JSON logs are listed only under an ISO-time name.
    assert.match(name, /^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}.*\.json$/);
    const log = EvalLog.parse(JSON.parse(await Deno.readTextFile(`${dir}/logs/${name}`)));
    const rows = (await Deno.readTextFile(`${sweep}/w.jsonl`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const ordinary = rows.filter((r) => !r.counterfactualOf);
    assert.equal(log.samples.length, ordinary.length, "one sample per pair trial and condition");
    const poisoned = ordinary.filter((r) => r.condition === "poisoned");
    const asr = poisoned.filter((r) => r.matchesTarget).length / poisoned.length;
    const metric = log.results.scores.find((s) => s.name === "matches_target")!.metrics.asr.value;
    assert.ok(Math.abs(metric - asr) < 1e-12);
    const sample = log.samples[0];
    assert.equal(sample.messages.at(-1)?.role, "assistant");
    assert.equal(sample.output.completion, ordinary[0].output);
    assert.equal(sample.metadata.messagesReconstructed, true, "the simulator has no transcript");
    assert.ok(log.samples.some((s) => (s.metadata.counterfactual as unknown[]).length > 0));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
