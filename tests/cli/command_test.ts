/** The CLI framework and the sweep declaration, in process. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { CliError, commandLine, defineCommand, execute, opt } from "../../lib/cli/command.ts";
import { parseSweep, sweepCommand } from "../../lib/cli/sweep_args.ts";
import { sweepOptionsFrom } from "../../lib/cli/sweep_options.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";

const command = defineCommand({
  name: "demo",
  summary: "a test command",
  options: {
    count: opt.integer({
      description: "a count",
      example: "3",
      default: 1,
      schema: z.number().int().min(1),
    }),
    ratio: opt.number({
      description: "a ratio",
      example: "0.5",
      schema: z.number().min(0).max(1),
      field: "Thing.ratio",
    }),
    names: opt.list("string", { description: "names", example: "a,b", default: ["x"] }),
    file: opt.repeated({ description: "files", example: "f.txt" }),
    level: opt.choice(["low", "high"], { description: "a level", example: "high", default: "low" }),
    size: opt.integer({ description: "from the environment", example: "2", env: "DEMO_SIZE" }),
    loud: opt.flag({ description: "a switch" }),
  },
  examples: ["deno task demo --count 2"],
});

const parse = (argv: string[], env: Record<string, string> = {}) => {
  const parsed = command.parse({ argv, env });
  assert.notEqual(parsed, "help");
  return parsed as Exclude<typeof parsed, "help">;
};

Deno.test("parse() converts strictly, applies defaults and reads variables", () => {
  const p = parse(["--count", "4", "--names", " a , b ", "--file", "x", "--file", "y", "--loud"], {
    DEMO_SIZE: "7",
  });
  assert.deepEqual(p.values, {
    count: 4,
    ratio: undefined,
    names: ["a", "b"],
    file: ["x", "y"],
    level: "low",
    size: 7,
    loud: true,
  });
  assert.equal(p.source("size"), "env");
  assert.equal(p.source("count"), "argv");
  assert.equal(p.source("level"), "default");
  assert.ok(p.given("size") && !p.given("ratio"));
});

Deno.test("parse() rejects each bad value with one line naming the option and the value", () => {
  const cases: [string[], RegExp][] = [
    [["--count", "1.5"], /^--count: expected an integer, got "1\.5"$/],
    [["--count", "1e3"], /^--count: expected an integer, got "1e3"$/],
    [["--count", "0"], /^--count: "0" is invalid \(too small/],
    [["--count", "99999999999999999999"], /^--count: expected an integer within ±9007199254740991/],
    [["--count", ""], /^--count: expected a value, got an empty string$/],
    [["--ratio", "2"], /^--ratio: "2" is not a valid Thing\.ratio \(too big/],
    [["--ratio", "1e400"], /^--ratio: expected a finite number, got "1e400"$/],
    [["--ratio", "0x1"], /^--ratio: expected a number, got "0x1"$/],
    [["--names", "a,,b"], /^--names: expected a comma-separated list without gaps/],
    [["--level", "mid"], /^--level: expected one of low\|high, got "mid"$/],
    [["--count", "2", "--count", "3"], /^--count: given 2 times \("2", "3"\); give it once$/],
    [["--nope"], /^--nope: unknown option \(see deno task demo --help\)$/],
    [["--count"], /^--count: expected a value after it$/],
    [["--loud=yes"], /^--loud: is a switch and takes no value$/],
    [["stray"], /^unexpected argument "stray"/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => parse(argv), (e: Error) => {
      assert.ok(e instanceof CliError, `${argv}: ${e}`);
      assert.match(e.message, message, argv.join(" "));
      return true;
    });
  }
  assert.throws(
    () => parse([], { DEMO_SIZE: "x" }),
    /^CliError: \$DEMO_SIZE \(--size\): expected an integer/,
  );
});

Deno.test("help() lists every option with its default and an example; --help wins", () => {
  const help = command.help();
  for (
    const line of [
      "  --count N\n      a count\n      Default: 1. Example: --count 3",
      "  --ratio X\n      a ratio (Thing.ratio)\n      Default: none. Example: --ratio 0.5",
      "  --names LIST\n      names\n      Default: x. Example: --names a,b",
      "      Default: none. Example: --file f.txt Repeatable.",
      "  --level low|high\n      a level\n      Default: low. Example: --level high",
      "      Default: none. Example: --size 2 Environment: $DEMO_SIZE.",
      "  --loud\n      a switch\n      Default: off. Example: --loud",
    ]
  ) assert.ok(help.includes(line), line);
  assert.equal(command.parse({ argv: ["--nope", "--help"] }), "help");
});

Deno.test("execute() prints one line and returns 2 for bad input, 1 for a failure, main's code otherwise", async () => {
  const lines: string[] = [];
  const stderr = (l: string) => lines.push(l);
  assert.equal(await execute({ command, argv: ["--count", "x"], main: () => 0, stderr }), 2);
  assert.equal(await execute({ command, argv: [], main: () => 3, stderr }), 3);
  assert.equal(
    await execute({
      command,
      argv: [],
      main: () => {
        throw new Error("disk on fire");
      },
      stderr,
      env: {},
    }),
    1,
  );
  assert.deepEqual(lines, [
    'memgauge demo: --count: expected an integer, got "x"',
    "memgauge demo: failed: Error: disk on fire (MEMGAUGE_DEBUG=1 prints the stack trace)",
  ]);
});

Deno.test("commandLine() quotes what a shell would split", () => {
  assert.equal(
    commandLine({
      name: "sweep",
      argv: ["--out", "a b.jsonl", "--judge", "llm:x", "--resume"],
      drop: ["resume"],
    }),
    "deno task sweep --out 'a b.jsonl' --judge llm:x",
  );
  assert.equal(commandLine({ name: "x", argv: ["it's"] }), `deno task x 'it'\\''s'`);
});

Deno.test("parseSweep() takes every unit value and names the option for every other number", () => {
  fc.assert(fc.property(
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 }),
    (grid) => {
      const { values } = parseSweep(["--stage", "writing", "--grid", grid.join(","), "--out", "r"]);
      assert.deepEqual(values.grid, grid.map((g) => Number(String(g))));
    },
  ));
  fc.assert(fc.property(
    fc.double({ noNaN: true }).filter((x) => x < 0 || x > 1),
    (x) => {
      assert.throws(
        () => parseSweep(["--stage", "writing", "--grid", String(x), "--out", "r"]),
        /^CliError: --grid: /,
      );
    },
  ));
});

Deno.test("parseSweep() holds the stage rules: what does not apply is an error", async () => {
  const ok = (argv: string[]) => parseSweep([...argv, "--out", "r"]).values;
  // The held-fixed stages enter the plan only when given: the defaults are the library's.
  const base = async (argv: string[]) => {
    const models = modelSetup({ cachePath: ":memory:" });
    try {
      const parsed = parseSweep([...argv, "--limit", "1", "--out", "r"]);
      return (await sweepOptionsFrom({ parsed, models })).base;
    } finally {
      models.close();
    }
  };
  assert.equal(
    (await base(["--stage", "retrieval", "--theta-r-risk", "0.2", "--theta-r", "0.6"]))?.thetaR,
    0.6,
  );
  assert.equal((await base(["--stage", "writing", "--policy", "PQ"]))?.policy, "PQ");
  assert.equal((await base(["--stage", "writing"]))?.policy, undefined);
  const bad: [string[], RegExp][] = [
    [["--stage", "management", "--grid", "0"], /--grid: does not apply/],
    [["--stage", "writing", "--policies", "UM"], /--policies: applies only/],
    [["--stage", "writing", "--theta-w", "0.5"], /--theta-w: does not apply/],
    [["--stage", "retrieval", "--theta-r", "0.5"], /--theta-r: does not apply/],
    [["--stage", "retrieval", "--k", "101"], /--k: 101 is larger than the memory/],
    [["--stage", "retrieval", "--k", "60", "--bank-size", "50"], /--k: 60 is larger/],
    [["--stage", "writing", "--ranker", "llm:self"], /--ranker llm:self: .*reference/],
    [["--stage", "writing", "--base-url", "http://x/v1"], /--base-url: no model is used/],
    [["--stage", "writing", "--model", "m", "--agent", "reference"], /--model: .*not both/],
    [["--stage", "writing", "--resume", "--retry-errors"], /pick one/],
    [["--stage", "writing", "--judge", "llm:nope"], /--judge: unknown model "nope"/],
    [["--stage", "writing", "--agent", "llm:nope"], /--agent: unknown model "nope"/],
  ];
  for (const [argv, message] of bad) assert.throws(() => ok(argv), message, argv.join(" "));
  assert.equal(
    ok(["--stage", "writing", "--model", "gpt-5.4", "--ranker", "llm:self"]).ranker,
    "llm:self",
  );
  assert.equal(
    ok(["--stage", "writing", "--judge", "llm:j", "--base-url", "http://x/v1"]).baseUrl,
    "http://x/v1",
  );
});

Deno.test("the sweep declaration documents every option it parses", () => {
  const help = sweepCommand.help();
  for (const name of Object.keys(sweepCommand.spec.options)) {
    assert.match(help, new RegExp(`\\n  --${name}\\b`), name);
  }
});
