import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { pair } from "../stats/_rows.ts";

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

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../lib/cli/summarize.ts", import.meta.url).pathname, ...args],
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

Deno.test("summarize CLI writes CSV and Parquet and prints a table", async () => {
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
  assert.equal(pl.readCSV(`${dir}/s.csv`).getColumn("asr").get(0), 0.5);
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
  await Deno.remove(dir, { recursive: true });
});

Deno.test("summarize CLI rejects bad input with one line naming it and writes nothing", async () => {
  const dir = await fixture([rows[0], { ...rows[1], pairId: undefined }]);
  const out = `${dir}/s.csv`;
  const cases: [string[], RegExp][] = [
    [["--in", `${dir}/rows.jsonl`, "--out", out], /line 2 lacks required column "pairId"/],
  ];
  const good = await fixture(rows);
  cases.push(
    [["--in", `${good}/rows.jsonl`, "--out", out, "--by", "agent,nope"], /--by: column "nope"/],
    [
      ["--in", `${good}/rows.jsonl`, "--out", out, "--resamples", "0"],
      /--resamples: "0" is invalid/,
    ],
  );
  for (const [args, pattern] of cases) {
    const r = await run(args);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    await assert.rejects(() => Deno.stat(out));
  }
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(good, { recursive: true });
});
