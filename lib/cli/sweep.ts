/**
 * `deno task sweep`: run one stage sweep, write one JSON row per trial, print a summary. The
 * run (`sweep_run.ts`) loads only once the options are parsed, so `--help` and bad input read
 * the declaration alone.
 */
import { execute, type Parsed, runCommand } from "./command.ts";
import { sweepCommand } from "./sweep_args.ts";

const _main = async (parsed: Parsed<typeof sweepCommand.spec.options>) =>
  (await import("./sweep_run.ts")).runSweep(parsed);

/** Run the sweep CLI with the given arguments; returns the exit code (errors are printed). */
export async function sweepMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: sweepCommand, argv, main: _main });
}

if (import.meta.main) await runCommand(sweepCommand, _main);
