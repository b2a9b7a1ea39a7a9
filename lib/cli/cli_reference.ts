/**
 * `deno task docs:cli`: write docs/cli.md, the CLI reference, from the commands' declarations
 * (each command's `--help`, generated from its options). `tests/cli/cli_reference_test.ts`
 * fails when the file is not what this writes, so the reference cannot go stale.
 */
import { exportCommand, importCommand } from "./batch.ts";
import type { Command, OptionSpec } from "./command.ts";
import { calibrateCommand } from "./calibrate.ts";
import { dataCommand } from "./data.ts";
import { exploreCommand } from "./explore.ts";
import { checkCommand } from "./models.ts";
import { notebooksCommand } from "./notebooks.ts";
import { planCommand } from "./plan.ts";
import { reproduceCommand } from "./reproduce.ts";
import { summarizeCommand } from "./summarize.ts";
import { sweepCommand } from "./sweep_args.ts";
import { systemsCommand } from "./systems.ts";

/** Where the reference is kept, relative to the repository. */
export const CLI_REFERENCE = "docs/cli.md";

/** Every command, in the order the reference lists them. */
const _COMMANDS: readonly Command<Record<string, OptionSpec>>[] = [
  reproduceCommand,
  sweepCommand,
  summarizeCommand,
  planCommand,
  systemsCommand,
  exploreCommand,
  notebooksCommand,
  calibrateCommand,
  exportCommand,
  importCommand,
  dataCommand,
  checkCommand,
] as never;

/**
 * The reference as markdown: a contents list, then each command's `--help` as printed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cliReference } from "./cli_reference.ts";
 * const text = cliReference();
 * assert.match(text, /^# Command-line reference/);
 * assert.match(text, /\n## deno task sweep\n/);
 * assert.match(text, /\n  --stage writing\|management\|retrieval\n/);
 * ```
 */
export function cliReference(): string {
  const anchor = (name: string) => `deno-task-${name.replaceAll(" ", "-")}`;
  return [
    "# Command-line reference",
    "",
    "Generated from the commands' declarations by `deno task docs:cli` (do not edit by hand;",
    "`tests/cli/cli_reference_test.ts` fails when this file is stale). Each section is the",
    "command's `--help`. Options a `--plugin` registers (policies, rankers, judges, agents,",
    "datasets) are listed by `--help` with the plugin loaded.",
    "",
    ..._COMMANDS.map((c) =>
      `- [deno task ${c.spec.name}](#${anchor(c.spec.name)}): ${c.spec.summary}`
    ),
    "",
    ..._COMMANDS.flatMap((
      c,
    ) => [`## deno task ${c.spec.name}`, "", "```text", c.help(), "```", ""]),
  ].join("\n");
}

if (import.meta.main) {
  const root = new URL("../..", import.meta.url).pathname;
  await Deno.mkdir(`${root}docs`, { recursive: true });
  await Deno.writeTextFile(`${root}${CLI_REFERENCE}`, cliReference());
  console.log(`CLI reference -> ${CLI_REFERENCE}`);
}
