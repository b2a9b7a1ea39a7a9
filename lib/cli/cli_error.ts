/** A user-facing CLI error: printed as one line, exit code 2, no stack trace. */
import { MissingDataFileError } from "../data/missing_data_file_error.ts";
import { guardConsole, redact, redactError } from "../models/redact.ts";

/** Thrown for bad command-line input or bad input files; the message names the culprit. */
export class CliError extends Error {
  override name = "CliError";
}

/**
 * Run a CLI main function: a CliError, a RangeError/TypeError from validation or a missing data
 * file prints one line `memgauge NAME: message` and exits 2; anything else is a bug and keeps
 * its stack.
 */
export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  // Every line a CLI prints, and every error it ends with, passes the redaction layer.
  guardConsole();
  try {
    await main();
  } catch (e) {
    if (
      e instanceof CliError || e instanceof RangeError || e instanceof TypeError ||
      e instanceof MissingDataFileError
    ) {
      console.error(`memgauge ${name}: ${redact({ text: e.message.split("\n")[0] })}`);
      Deno.exit(2);
    }
    throw redactError({ error: e });
  }
}
