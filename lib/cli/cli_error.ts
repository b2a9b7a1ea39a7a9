/**
 * The older entry point for CLIs not yet declared through `command.ts` (only `systems.ts`):
 * the same one-line error and exit codes as every declared command.
 */
import { guardConsole } from "../models/redact.ts";
import { reportError } from "./command.ts";
import { exitTask } from "../plugins/exit_guard.ts";

export { CliError } from "./command.ts";

/**
 * Run a CLI main function: bad input (a CliError, a RangeError/TypeError from validation, a
 * missing data file) prints one line `memgauge NAME: message` and exits 2; any other error
 * prints one line and exits 1 (`MEMGAUGE_DEBUG=1` adds the stack trace).
 */
export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  // Every line the CLI prints passes the redaction layer.
  guardConsole();
  try {
    await main();
  } catch (error) {
    exitTask(reportError({ name, error }));
  }
}
