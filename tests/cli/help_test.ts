/** Every task answers --help with exit 0, listing every declared option, its default and an example. */
import assert from "node:assert/strict";
import { exportCommand, importCommand } from "../../lib/cli/batch.ts";
import type { Command, OptionSpec } from "../../lib/cli/command.ts";
import { dataCommand } from "../../lib/cli/data.ts";
import { checkCommand } from "../../lib/cli/models.ts";
import { notebooksCommand } from "../../lib/cli/notebooks.ts";
import { planCommand } from "../../lib/cli/plan.ts";
import { reproduceCommand } from "../../lib/cli/reproduce.ts";
import { summarizeCommand } from "../../lib/cli/summarize.ts";
import { sweepCommand } from "../../lib/cli/sweep_args.ts";
import { systemsCommand } from "../../lib/cli/systems.ts";
import { full } from "../support/tiers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
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

const CASES: [string, string[], Command<Record<string, OptionSpec>>][] = [
  ["sweep", ["lib/cli/sweep.ts"], sweepCommand as never],
  ["batch export", ["lib/cli/batch.ts", "export"], exportCommand as never],
  ["batch import", ["lib/cli/batch.ts", "import"], importCommand as never],
  ["reproduce", ["lib/cli/reproduce.ts"], reproduceCommand as never],
  ["data", ["lib/cli/data.ts"], dataCommand as never],
  ["notebooks", ["lib/cli/notebooks.ts"], notebooksCommand as never],
  ["summarize", ["lib/cli/summarize.ts"], summarizeCommand as never],
  ["systems", ["lib/cli/systems.ts"], systemsCommand as never],
  ["models check", ["lib/cli/models.ts", "check"], checkCommand as never],
  ["plan", ["lib/cli/plan.ts"], planCommand as never],
];

for (const [name, script, command] of CASES) {
  full.test(`deno task ${name} --help exits 0 and lists every option with its default and an example`, async () => {
    const { code, stdout, stderr } = await run(["run", "-A", ...script, "--help"]);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.match(stdout, new RegExp(`^deno task ${name}: `));
    assert.match(stdout, /\nUsage: /);
    assert.match(stdout, /\nExamples:\n {2}deno task /);
    for (const [option, spec] of Object.entries(command.spec.options)) {
      // The option's block: its header line, the description, then "Default|Required. Example".
      const block = new RegExp(
        `\\n  --${option}(?: [^\\n]+)?\\n(?:      [^\\n]*\\n)*?      (?:Default: [^\\n]*|Required)\\. Example: --${option}\\b`,
      );
      assert.match(stdout, block, `--${option} of ${name}`);
      if (spec.env) assert.match(stdout, new RegExp(`Environment: \\$${spec.env}\\.`));
    }
    // -h is the same, and --help wins over anything else on the line.
    const short = await run(["run", "-A", ...script, "--nosuch", "-h"]);
    assert.equal(short.code, 0, short.stderr);
    assert.equal(short.stdout, stdout);
  });
}

full.test("deno task sweep --help (through deno task) exits 0 and shows defaults", async () => {
  const { code, stdout } = await run(["task", "-q", "sweep", "--help"]);
  assert.equal(code, 0);
  assert.match(stdout, /--k N\n.*\n {6}Default: 5\. Example: --k 3/);
  assert.match(stdout, /--stage writing\|management\|retrieval\n.*\n(.*\n)? {6}Required\./);
});

full.test("deno task batch --help lists its subcommands; batch with none exits 2", async () => {
  const help = await run(["run", "-A", "lib/cli/batch.ts", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /export .*\n.*batch export --help/);
  assert.match(help.stdout, /import .*\n.*batch import --help/);
  const none = await run(["run", "-A", "lib/cli/batch.ts"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /expected export or import/);
});
