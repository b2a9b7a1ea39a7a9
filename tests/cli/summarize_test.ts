import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { pair } from "../stats/_rows.ts";
import { full } from "../support/tiers.ts";

const rows = [
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "1", pairId: "p1" }, [true, false], [
    false,
    true,
  ]),
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "2", pairId: "p2" }, [true, false], [
    true,
    false,
  ]),
];

async function run(args: string[], cli = "summarize") {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(`../../lib/cli/${cli}.ts`, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

async function fixture(lines: Record<string, unknown>[]) {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/rows.jsonl`, lines.map((r) => JSON.stringify(r)).join("\n"));
  return dir;
}

full.test("summarize CLI writes CSV and Parquet and prints a table", async () => {
  const dir = await fixture(rows);
  const csv = await run([
    "--in",
    `${dir}/rows.jsonl`,
    "--out",
    `${dir}/s.csv`,
    "--resamples",
    "50",
  ]);
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stdout, /midAsr/);
  assert.match(csv.stdout, /intervals: cleanUtility wilson, .* midAsr newcombe/);
  assert.equal(pl.readCSV(`${dir}/s.csv`).getColumn("asr").get(0), 0.5);
  assert.equal(pl.readCSV(`${dir}/s.csv`).getColumn("asrCiMethod").get(0), "wilson");
  const pq = await run([
    "--in",
    `${dir}/rows.jsonl`,
    "--out",
    `${dir}/s.parquet`,
    "--ci",
    "bca",
    "--resamples",
    "50",
  ]);
  assert.equal(pq.code, 0, pq.stderr);
  assert.equal(pl.readParquet(`${dir}/s.parquet`).getColumn("midAsr").get(0), 0.5);
  assert.equal(pl.readParquet(`${dir}/s.parquet`).getColumn("midAsrCiMethod").get(0), "bca");
  await Deno.remove(dir, { recursive: true });
});

full.test("summarize CLI rejects bad input with one line naming it and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/s.csv`;
  const file = async (name: string, text: string) => {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    return `${dir}/${name}`;
  };
  const lines = (rs: Record<string, unknown>[]) => rs.map((r) => JSON.stringify(r)).join("\n");
  const good = await file("good.jsonl", lines(rows) + "\n");
  const cases: [string[], RegExp][] = [
    [
      [
        "--in",
        await file("no_pair.jsonl", lines([rows[0], { ...rows[1], pairId: undefined }])),
        "--out",
        out,
      ],
      /line 2 lacks required column "pairId"/,
    ],
    [
      [
        "--in",
        await file("yes.jsonl", lines([rows[0], rows[1], { ...rows[2], correct: "yes" }])),
        "--out",
        out,
      ],
      /line 3, column "correct": expected a boolean or null, got "yes"/,
    ],
    [
      [
        "--in",
        await file(
          "high.jsonl",
          lines([{ ...rows[0], thetaR: 0.8 }, { ...rows[1], thetaR: "high" }]),
        ),
        "--out",
        out,
      ],
      /line 2, column "thetaR": expected a number or null, got "high"/,
    ],
    [
      [
        "--in",
        await file("torn.jsonl", lines(rows) + "\n" + JSON.stringify(rows[0]).slice(0, 40)),
        "--out",
        out,
      ],
      /line 5 is not valid JSON: the file ends mid-line \(a torn last line\?\)/,
    ],
    [["--in", await file("empty.jsonl", ""), "--out", out], /--in: ".*empty\.jsonl" is empty/],
    [
      ["--in", good, "--out", out, "--ci", "xx"],
      /--ci: expected one of auto\|wilson\|newcombe\|percentile\|bca, got "xx"/,
    ],
    [["--in", good, "--out", out, "--by", "agent,nope"], /--by: column "nope"/],
    [["--in", good, "--out", out, "--resamples", "0"], /--resamples: "0" is invalid/],
  ];
  for (const [args, pattern] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    await assert.rejects(() => Deno.stat(out));
  }
  await Deno.remove(dir, { recursive: true });
});

full.test("sweep --trials 3 then summarize from the CLI: instances are clusters, intervals no narrower", async () => {
  const dir = await Deno.makeTempDir();
  const sweep = await run(
    [
      "--stage",
      "writing",
      "--grid",
      "0.6",
      "--trials",
      "3",
      "--agent",
      "reference:balanced",
      "--quiet",
      "--out",
      `${dir}/rows.jsonl`,
    ],
    "sweep",
  );
  assert.equal(sweep.code, 0, sweep.stderr);
  const rows = (await Deno.readTextFile(`${dir}/rows.jsonl`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual([...new Set(rows.map((r) => r.trial))], [0, 1, 2]);
  const write = (name: string, rs: Record<string, unknown>[]) =>
    Deno.writeTextFile(`${dir}/${name}`, rs.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const first = rows.filter((r) => r.trial === 0);
  // The same instances: with one trial; with trial 0 repeated three times (trials that agree);
  // and the sweep's three trials read as if each were an instance of its own.
  await write("one.jsonl", first);
  await write("same.jsonl", [0, 1, 2].flatMap((trial) => first.map((r) => ({ ...r, trial }))));
  await write(
    "pooled.jsonl",
    rows.map((r) => ({ ...r, instanceId: `${r.instanceId}#${r.trial}` })),
  );
  const summary = async (file: string, ...args: string[]) => {
    const r = await run(["--in", `${dir}/${file}`, "--out", `${dir}/${file}.csv`, ...args]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /intervals: cleanUtility /);
    return pl.readCSV(`${dir}/${file}.csv`).sort("attack").toRecords();
  };
  const three = await summary("rows.jsonl");
  const same = await summary("same.jsonl");
  const one = await summary("one.jsonl", "--ci", "bca");
  const pooled = await summary("pooled.jsonl");
  const width = (r: Record<string, unknown>) =>
    (r.cleanUtilityHi as number) - (r.cleanUtilityLo as number);
  assert.equal(three.length, 2);
  for (const [i, r] of three.entries()) {
    assert.equal(r.pairs, 3 * (r.instances as number));
    assert.equal(r.instances, one[i].instances);
    assert.ok(["bca", "wilson-instances"].includes(r.cleanUtilityCiMethod as string));
    // Resampling instances as clusters is never narrower than counting trials as instances.
    assert.ok(width(r) >= width(pooled[i]), `${width(r)} vs pooled ${width(pooled[i])}`);
    // Trials that agree carry one trial's information: the one-trial interval, same method and
    // seed key, so repeating a trial cannot narrow an interval.
    assert.equal(same[i].cleanUtility, one[i].cleanUtility);
    assert.ok(width(same[i]) >= width(one[i]) - 1e-12, `${width(same[i])} vs ${width(one[i])}`);
  }
  await Deno.remove(dir, { recursive: true });
});
