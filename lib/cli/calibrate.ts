/** CLI: the offline reference agent beside the paper, factor by factor (`deno task calibrate`). */
import {
  calibrationLoss,
  calibrationTable,
  formatCalibration,
} from "../experiments/calibration.ts";
import { SIMULATOR_FIT } from "../agents/personas.ts";
import { SIMULATOR_CAVEAT } from "../agents/simulator_caveat.ts";
import { defineCommand, execute, opt, type Parsed, runCommand } from "./command.ts";
import { SWEEP_OPTIONS } from "./sweep_args.ts";

/** `deno task calibrate`. */
export const calibrateCommand = defineCommand({
  name: "calibrate",
  summary: "the offline reference agent beside the paper, factor by factor, with each shape " +
    "checked (writing, rankers, trace load, memory size, management, K, fill, exposure)",
  description: "Runs the experiment behind each factor with every reference persona (the " +
    "simulator, calibrated to the paper's medians on the demo set by " +
    "tests/bench/fit_simulator.ts) and prints the paper's value or direction, the median across " +
    "personas and whether the paper's shape holds. Exits 1 when a shape the dataset can show " +
    "fails. A simulation: it shows mechanisms, not results about models.",
  options: {
    dataset: SWEEP_OPTIONS.dataset,
    n: opt.integer({
      description: "Use the first N instances (0: all).",
      example: "20",
      default: 0,
    }),
  },
  examples: [
    "deno task calibrate",
    "MEMGAUGE_DATA=/path/to/data deno task calibrate --dataset longmemeval",
  ],
});

async function _calibrate(parsed: Parsed<typeof calibrateCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const dataset = v.dataset ?? "demo";
  const rows = await calibrationTable({
    dataset,
    ...(v.n > 0 ? { n: v.n } : {}),
    status: (message) => console.error(message),
  });
  console.log(`== ${dataset}: reference agent (simulator; every persona) beside the paper`);
  console.log(formatCalibration(rows));
  const failing = rows.filter((r) => r.holds === false).map((r) => r.factor);
  console.log(
    `fit: ${
      JSON.stringify(Object.fromEntries(
        Object.entries(SIMULATOR_FIT).filter(([k]) => k !== "report" && k !== "$comment"),
      ))
    } (${JSON.stringify(SIMULATOR_FIT.report)}); loss here ${calibrationLoss(rows).toFixed(3)}`,
  );
  console.log(SIMULATOR_CAVEAT);
  if (failing.length > 0) {
    console.error(`memgauge calibrate: the paper's shape fails for ${failing.join(", ")}`);
    return 1;
  }
  return 0;
}

/**
 * Run the CLI on `args`; returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./calibrate.ts";
 * assert.equal(await main(["--n", "x"]), 2);
 * ```
 */
export function main(args: string[]): Promise<number> {
  return execute({ command: calibrateCommand, argv: args, main: _calibrate });
}

if (import.meta.main) await runCommand(calibrateCommand, _calibrate);
