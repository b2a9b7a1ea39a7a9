import assert from "node:assert/strict";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function sweepCli(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

async function instanceFile(dir: string): Promise<string> {
  const path = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 6 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(path, JSON.stringify({ dataset: "synthetic", instances }));
  return path;
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

full.test("sweep CLI writes rows and a summary, byte-identical across runs except latencyMs", async () => {
  const dir = await Deno.makeTempDir();
  const data = await instanceFile(dir);
  const common = [
    "--stage",
    "writing",
    "--grid",
    "0,0.5,1",
    "--dataset",
    data,
    "--bank-size",
    "20",
    "--seed",
    "4",
    "--quiet",
  ];
  const a = await sweepCli([...common, "--out", `${dir}/a.jsonl`]);
  const b = await sweepCli([...common, "--out", `${dir}/b.jsonl`]);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /offline reference agent/);
  assert.match(a.stdout, /thetaW=0.5/);
  const strip = (text: string) => text.replace(/"latencyMs":[0-9.e-]+/g, '"latencyMs":0');
  const [ta, tb] = await Promise.all([
    Deno.readTextFile(`${dir}/a.jsonl`),
    Deno.readTextFile(`${dir}/b.jsonl`),
  ]);
  assert.equal(strip(ta), strip(tb));
  assert.equal(ta.trim().split("\n").length, 2 * 5 * 3 * 6 * 2); // attacks x personas x points x instances x conditions
  assert.ok(!(await exists(`${dir}/a.jsonl.partial`)));
});

const BAD: [string, string[], RegExp][] = [
  ["--grid 1.5", ["--stage", "writing", "--grid", "1.5"], /--grid: .*"1\.5"/],
  ["--k 0", ["--stage", "retrieval", "--k", "0"], /--k: .*"0"/],
  ["--policies XX", ["--stage", "management", "--policies", "UM,XX"], /--policies: .*"XX"/],
  [
    "an unknown dataset",
    ["--stage", "writing", "--dataset", "nosuch"],
    /--dataset: unknown dataset "nosuch"/,
  ],
  ["an unknown stage", ["--stage", "reading"], /--stage: .*"reading"/],
  [
    "an unknown persona",
    ["--stage", "writing", "--agent", "reference:bold"],
    /--agent: "reference:bold"/,
  ],
];

for (const [name, args, message] of BAD) {
  full.test(`sweep CLI rejects ${name} with one line, exit code 2 and no output file`, async () => {
    const dir = await Deno.makeTempDir();
    const out = `${dir}/rows.jsonl`;
    const { code, stderr } = await sweepCli([...args, "--out", out]);
    assert.equal(code, 2);
    assert.match(stderr, message);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    assert.ok(!(await exists(out)) && !(await exists(`${out}.partial`)));
  });
}

full.test("sweep CLI rejects a malformed instance file naming the field", async () => {
  const dir = await Deno.makeTempDir();
  const data = await instanceFile(dir);
  const file = JSON.parse(await Deno.readTextFile(data));
  file.instances[2].helpful.units[1].channel = "robot";
  await Deno.writeTextFile(data, JSON.stringify(file));
  const out = `${dir}/rows.jsonl`;
  const { code, stderr } = await sweepCli([
    "--stage",
    "writing",
    "--dataset",
    data,
    "--bank-size",
    "20",
    "--out",
    out,
  ]);
  assert.equal(code, 2);
  assert.match(
    stderr,
    /instances\.2\.helpful\.units\.1\.channel|instances\[2\]\.helpful\.units\[1\]\.channel/,
  );
  assert.ok(!(await exists(out)));
});

full.test("sweep CLI rejects a bank size larger than the instances hold", async () => {
  const dir = await Deno.makeTempDir();
  const data = await instanceFile(dir);
  const { code, stderr } = await sweepCli([
    "--stage",
    "writing",
    "--dataset",
    data,
    "--bank-size",
    "500",
    "--out",
    `${dir}/r.jsonl`,
  ]);
  assert.equal(code, 2);
  assert.match(stderr, /--bank-size: 500 exceeds the 20 background records/);
});
