/**
 * What the kit writes is safe to open (issue 22): a CSV cell a spreadsheet would run as a formula
 * is escaped, and every file the tasks create is 0644 whatever the umask. Before: an instance id
 * starting with `=` reached summarize CSVs as a formula, and under umask 000 (a container's
 * default) rows, summaries, batch request files and `CACHE.batch-exports.jsonl` were 0666.
 */
import assert from "node:assert/strict";
import { pair } from "../stats/_rows.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

full.test("summarize escapes CSV cells a spreadsheet would evaluate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mg-csv-" });
  try {
    const formula = '=HYPERLINK("http://example.org","x")';
    const rows = [
      ...pair({ agent: "a", thetaW: 0.5, instanceId: formula, pairId: "p1" }, [true, false], [
        false,
        true,
      ]),
      ...pair({ agent: "@SUM(A1)", thetaW: 0.5, instanceId: "2", pairId: "p2" }, [true, false], [
        true,
        false,
      ]),
    ];
    await Deno.writeTextFile(`${dir}/rows.jsonl`, rows.map((r) => JSON.stringify(r)).join("\n"));
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}lib/cli/summarize.ts`,
        ...["--in", `${dir}/rows.jsonl`, "--out", `${dir}/s.csv`, "--by", "agent,instanceId"],
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const csv = await Deno.readTextFile(`${dir}/s.csv`);
    const cells = csv.split("\n").flatMap((l) => l.split(","));
    assert.ok(csv.includes(`'=HYPERLINK(`), csv);
    assert.ok(csv.includes("'@SUM(A1)"), csv);
    // No cell of the file starts a formula (quotes of a CSV field aside).
    assert.deepEqual(cells.filter((c) => /^"?[=+@]/.test(c)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("files the tasks create are 0644 under umask 000", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mg-modes-" });
  try {
    const run = (cli: string, args: string) =>
      `deno run -A ${ROOT}lib/cli/${cli}.ts ${args} >/dev/null 2>&1`;
    const script = [
      "umask 000",
      run("sweep", `--stage writing --limit 2 --out ${dir}/rows.jsonl --quiet`),
      run("summarize", `--in ${dir}/rows.jsonl --out ${dir}/s.csv`),
      run(
        "batch",
        `export --stage writing --limit 2 --model gpt-5.4-mini --cache ${dir}/c.sqlite ` +
          `--batch-out ${dir}/req.jsonl`,
      ),
      run("systems", `--system amem --pipeline-check --limit 1 --bank-size 5 --out ${dir}/s.jsonl`),
    ].join("; ");
    const out = await new Deno.Command("sh", {
      args: ["-c", script],
      env: { OPENAI_API_KEY: "sk-Md4Xq8Lz1Pw7", PATH: Deno.env.get("PATH") ?? "" },
    }).output();
    assert.ok(out.success);
    const modes: string[] = [];
    for await (const e of Deno.readDir(dir)) {
      const mode = (await Deno.stat(`${dir}/${e.name}`)).mode! & 0o777;
      modes.push(`${e.name} ${mode.toString(8)}`);
    }
    for (const name of ["rows.jsonl", "s.csv", "req.jsonl", "c.sqlite.batch-exports.jsonl"]) {
      assert.ok(modes.some((m) => m.startsWith(`${name} `)), `${name} missing: ${modes}`);
    }
    assert.deepEqual(modes.filter((m) => !/ (644|600)$/.test(m)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
