/**
 * The CLI framework of every `deno task`: a command is declared once (each option with its type,
 * default, description and an example), and parsing, validation, `--help`, the one-line error
 * and the exit code all derive from that declaration.
 *
 * Built on `node:util` parseArgs (strict: unknown options and stray arguments are errors) rather
 * than a CLI library, because every library tried prints its own multi-line errors or exits by
 * itself, while here every bad input must end as one line `memgauge NAME: --option: ...` with
 * exit code 2 and nothing written; the help text is generated from the same declaration.
 *
 * Values are converted strictly (`--k 1.5`, `--seed 1e3`, `--grid 0,,1` and integers beyond the
 * safe range are errors) and then validated by the zod schema the library uses for the same
 * field (`OperatingPoint.shape.k`), so an error names the option, the value and the field.
 * Path options are checked before any work starts (missing directory, a directory, read-only).
 *
 * Exit codes: 0 done; 1 failed (a download, a notebook cell, a bug: one line, the stack trace
 * with `MEMGAUGE_DEBUG=1`); 2 bad input (one line, nothing written); 3 finished, but with
 * error rows (`--allow-errors` makes that 0); 4 stopped at `--max-cost` (resumable).
 *
 * Adopting it for a command (e.g. `lib/cli/systems.ts`): declare the options with `opt.*`
 * (reuse `MODEL_OPTIONS`/`SWEEP_OPTIONS` from `sweep_args.ts` where they mean the same), put
 * rules between options in `check` (throw `CliError` naming the option), write
 * `main(parsed)` returning the exit code (`errorRowsExit` for runs that produce rows), and end
 * the file with `if (import.meta.main) await runCommand(command, main);`. `--help`, one-line
 * errors and path checks come with it; `tests/cli/help_test.ts` and the bad-input table in
 * `tests/cli/_bad_inputs.ts` take a new entry each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineCommand, execute, opt } from "./command.ts";
 *
 * const command = defineCommand({
 *   name: "systems",
 *   summary: "measure an existing memory system",
 *   options: {
 *     system: opt.choice(["mem0", "langmem"], { description: "the memory system", example: "mem0", required: true }),
 *     k: opt.list("integer", { description: "retrieval budgets", example: "1,3", default: [1, 3, 5, 7], schema: z.number().int().min(1) }),
 *     seed: opt.integer({ description: "run seed", example: "1", default: 0, schema: z.number().int().min(0) }),
 *     out: opt.string({ description: "rows file", example: "rows.jsonl", required: true, path: { use: "output-file" } }),
 *     "pipeline-check": opt.flag({ description: "offline check with a scripted local model" }),
 *   },
 *   examples: ["deno task systems --system mem0 --pipeline-check --out rows.jsonl"],
 * });
 * const parsed = command.parse({ argv: ["--system", "mem0", "--out", "rows.jsonl", "--k", "3"] });
 * assert.ok(parsed !== "help");
 * assert.deepEqual([parsed.values.k, parsed.values.seed, parsed.values.pipelineCheck], [[3], 0, false]);
 * assert.throws(() => command.parse({ argv: ["--system", "mem0", "--out", "r", "--seed", "abc"] }), /--seed: expected an integer, got "abc"/);
 * assert.match(command.help(), /--seed N\n.*\n\s+Default: 0\. Example: --seed 1/);
 * const errors: string[] = [];
 * const code = await execute({ command, argv: ["--system", "nope"], main: () => 0, stderr: (l) => errors.push(l) });
 * assert.equal(code, 2);
 * assert.deepEqual(errors, ['memgauge systems: --system: expected one of mem0|langmem, got "nope"']);
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { pathProblem, type PathUse } from "../io/path_problem.ts";
import { exitTask } from "../plugins/exit_guard.ts";
import { MissingDataFileError } from "../data/missing_data_file_error.ts";
import { guardConsole, redact } from "../models/redact.ts";
import { type ErrorSummary, formatErrorSummary, type RequestFix } from "../run/error_summary.ts";
import type { PluginError } from "../plugins/plugins.ts";
import { FieldError } from "../schema/field_error.ts";

/** Bad command-line input or a bad input file: one line naming the culprit, exit code 2. */
export class CliError extends Error {
  override name = "CliError";
}

/** The exit codes of every task. */
export const EXIT = { ok: 0, failed: 1, badInput: 2, errorRows: 3, stopped: 4 } as const;

/** How an option's path is checked before any work (see `pathProblem`). */
export interface PathCheck {
  use: PathUse;
  /** Input files: an empty file is an error; default false. */
  nonEmpty?: boolean;
  /** Input files: bytes that are not UTF-8 are an error; default false. */
  utf8?: boolean;
  /** Check only when this holds for the parsed values (e.g. a cache only when a model is used). */
  when?: (values: Record<string, unknown>) => boolean;
}

/** One declared option. `R` is true when the parsed value is never undefined. */
export interface OptionSpec<T = unknown, R extends boolean = boolean> {
  readonly kind: "flag" | "value";
  /** Placeholder in the help (`N`, `X`, `LIST`, `FILE`, or the choices `a|b`). */
  readonly placeholder: string;
  readonly description: string;
  /**
   * The description as `--help` shows it, when it lists registered ids (read at help time, so
   * a plugin's ids appear); default `description`.
   */
  readonly describe?: () => string;
  /** An example value (flags need none). */
  readonly example?: string;
  readonly default?: T;
  /** How the help shows the default when the value itself would not say it well. */
  readonly defaultText?: string;
  readonly required: R;
  /** Repeatable (`--batch-in A --batch-in B`): the value is the list of occurrences. */
  readonly multiple: boolean;
  /** Environment variable read when the option is not given. */
  readonly env?: string;
  /** The library field the value feeds, named in errors (`OperatingPoint.k`). */
  readonly field?: string;
  readonly path?: PathCheck;
  /** Text to value; throws `_Invalid` with what was expected. */
  readonly convert: (text: string) => unknown;
  /** Validation of each converted value (each item of a list). */
  readonly schema?: z.ZodType;
  /** The value may be a key given by mistake (`--api-key-env sk-...`): errors never show it. */
  readonly secret?: boolean;
  /**
   * False for an option that changes how a run goes, not its rows (`--concurrency`, `--out`):
   * left out of the run manifest, so a resume may change it. Default true.
   */
  readonly manifest?: boolean;
}

/**
 * The name of an environment variable that holds a key (`--api-key-env`, `--embedding-key-env`):
 * letters, digits and `_`, not starting with a digit, and not shaped like a key (a provider
 * prefix such as `sk-` or `AIza`, or 20+ characters mixing lower case, upper case and digits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENV_VAR_NAME } from "./command.ts";
 * assert.ok(ENV_VAR_NAME.safeParse("VLLM_API_KEY").success);
 * assert.ok(!ENV_VAR_NAME.safeParse("sk-proj-Q7wErTy9UiOp1AsDfGh2").success);
 * assert.ok(!ENV_VAR_NAME.safeParse("Q7wErTy9UiOp1AsDfGh2zXcV").success);
 * ```
 */
export const ENV_VAR_NAME: z.ZodType<string> = z.string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name, not a key")
  .refine(
    (v) =>
      !/^(sk|gsk|hf|xai|AIza)[-_]?/.test(v) &&
      !(v.length >= 20 && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v)),
    "expected an environment variable name, not a key",
  );

/**
 * A library's FieldError in the command's terms: the option that feeds the field (its
 * camelCase name, or the last part of its declared `field`) replaces the field's name
 * (`judge: required ...` -> `--judge: required ...`). Any other error is returned as it is.
 */
export function wordFieldError(
  error: unknown,
  options: Readonly<Record<string, OptionSpec>>,
): unknown {
  if (!(error instanceof FieldError)) return error;
  const name = Object.keys(options).find((n) =>
    _camel(n) === error.field || options[n].field?.split(".").pop() === error.field
  );
  if (name === undefined) return error;
  return new CliError(
    `--${name}${error.value === undefined ? "" : ` ${error.value}`}: ${error.detail}`,
  );
}

/** Thrown by converters: what was expected. */
class _Invalid extends Error {}

interface _Common {
  /** A function when the text lists registered ids (evaluated again for `--help`). */
  description: string | (() => string);
  example?: string;
  placeholder?: string;
  env?: string;
  field?: string;
  defaultText?: string;
  required?: true;
  path?: PathCheck;
  secret?: true;
  manifest?: false;
}

type _Req<O> = O extends { default: unknown } ? true : O extends { required: true } ? true : false;

const _INTEGER = /^[+-]?\d+$/;
const _DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function _integer(text: string): number {
  if (!_INTEGER.test(text.trim())) throw new _Invalid("an integer");
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw new _Invalid(`an integer within ±${Number.MAX_SAFE_INTEGER}`);
  }
  return n;
}

function _number(text: string): number {
  if (!_DECIMAL.test(text.trim())) throw new _Invalid("a number");
  const x = Number(text);
  if (!Number.isFinite(x)) throw new _Invalid("a finite number");
  return x;
}

function _spec<T, R extends boolean>(
  o: _Common & { default?: unknown; schema?: z.ZodType },
  rest: Pick<OptionSpec, "kind" | "placeholder" | "convert" | "multiple">,
): OptionSpec<T, R> {
  const describe = typeof o.description === "function" ? o.description : undefined;
  return {
    description: describe ? describe() : o.description as string,
    describe,
    example: o.example,
    default: o.default as T | undefined,
    defaultText: o.defaultText,
    required: (o.required ?? false) as R,
    env: o.env,
    field: o.field,
    path: o.path,
    schema: o.schema,
    secret: o.secret,
    manifest: o.manifest,
    ...rest,
    placeholder: o.placeholder ?? rest.placeholder,
  };
}

/** Option builders: one per kind of value. */
export const opt = {
  /** A boolean switch, off unless given. */
  flag(o: { description: string; manifest?: false }): OptionSpec<boolean, true> {
    return _spec<boolean, true>({ ...o, default: false }, {
      kind: "flag",
      placeholder: "",
      convert: () => true,
      multiple: false,
    });
  },
  /** A string, optionally validated by `schema`. */
  string<const O extends _Common & { default?: string; schema?: z.ZodType<string> }>(
    o: O,
  ): OptionSpec<string, _Req<O>> {
    return _spec(o, {
      kind: "value",
      placeholder: o.path ? (o.path.use.endsWith("dir") ? "DIR" : "FILE") : "TEXT",
      convert: (t) => t,
      multiple: false,
    });
  },
  /** A repeatable string option: every occurrence, in order. */
  repeated<const O extends _Common & { default?: string[]; schema?: z.ZodType<string> }>(
    o: O,
  ): OptionSpec<string[], true> {
    return _spec({ ...o, default: o.default ?? [] }, {
      kind: "value",
      placeholder: o.path ? "FILE" : "TEXT",
      convert: (t) => t,
      multiple: true,
    });
  },
  /** A safe integer (decimal digits only), optionally validated by `schema`. */
  integer<const O extends _Common & { default?: number; schema?: z.ZodType<number> }>(
    o: O,
  ): OptionSpec<number, _Req<O>> {
    return _spec(o, { kind: "value", placeholder: "N", convert: _integer, multiple: false });
  },
  /** A finite decimal number, optionally validated by `schema`. */
  number<const O extends _Common & { default?: number; schema?: z.ZodType<number> }>(
    o: O,
  ): OptionSpec<number, _Req<O>> {
    return _spec(o, { kind: "value", placeholder: "X", convert: _number, multiple: false });
  },
  /** One of fixed choices. */
  choice<const C extends readonly string[], const O extends _Common & { default?: C[number] }>(
    choices: C,
    o: O,
  ): OptionSpec<C[number], _Req<O>> {
    return _spec(o, {
      kind: "value",
      placeholder: choices.join("|"),
      convert: (t) => {
        if (!choices.includes(t)) throw new _Invalid(`one of ${choices.join("|")}`);
        return t;
      },
      multiple: false,
    });
  },
  /** A comma-separated list; each item converted as `item` and validated by `schema`. */
  list<
    const K extends "number" | "integer" | "string",
    const O extends _Common & {
      default?: (K extends "string" ? string : number)[];
      schema?: z.ZodType<K extends "string" ? string : number>;
    },
  >(item: K, o: O): OptionSpec<(K extends "string" ? string : number)[], _Req<O>> {
    const one: (t: string) => unknown = item === "string"
      ? (t) => t
      : item === "integer"
      ? _integer
      : _number;
    return _spec(o, {
      kind: "value",
      placeholder: "LIST",
      convert: (text) => {
        const parts = text.split(",").map((p) => p.trim());
        if (parts.some((p) => p === "")) throw new _Invalid("a comma-separated list without gaps");
        return parts.map((p) => one(p));
      },
      multiple: false,
    });
  },
};

/**
 * `--plugin FILE.ts`, which every command takes: loaded by `execute` before the other options
 * are validated, so a plugin's ids are valid values (and listed in `--help`).
 */
export const PLUGIN_OPTION: OptionSpec<string[], true> = opt.repeated({
  description:
    "A plugin module whose default export adds policies, rankers, writers, agents, personas, " +
    "judges, retrieval fills, systems or datasets (see docs/extending.md); loaded before the " +
    "other options are checked.",
  placeholder: "FILE.ts",
  example: "my_policy.ts",
});

/** The `--plugin` values of a command line (before `--` and a `rest` switch). */
export function pluginPaths(options: { argv: readonly string[]; stop?: string }): string[] {
  const paths: string[] = [];
  const { argv } = options;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--" || (options.stop && a === `--${options.stop}`)) break;
    if (a === "--plugin" && i + 1 < argv.length) paths.push(argv[++i]);
    else if (a.startsWith("--plugin=")) paths.push(a.slice("--plugin=".length));
  }
  return paths;
}

type _Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<_Camel<T>>}`
  : S;

/** Parsed values, keyed by the camelCase option name (`bank-size` -> `bankSize`). */
export type Values<O extends Record<string, OptionSpec>> = {
  -readonly [K in keyof O & string as _Camel<K>]: O[K] extends OptionSpec<infer T, infer R>
    ? (R extends true ? T : T | undefined)
    : never;
};

/** A positional argument list (notebook names, subcommands). */
export interface PositionalSpec {
  name: string;
  description: string;
  example: string;
}

/** What a cross-option rule can ask. */
export interface CheckContext<O> {
  /** True when the option was given (on the command line or through its variable). */
  given(name: keyof O & string): boolean;
  /** The positional arguments. */
  positionals: readonly string[];
  /** How an error names an option: `--name`, or `$VAR (--name)` when its variable set it. */
  label(name: keyof O & string): string;
}

/** A command's declaration. */
export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** As in `deno task NAME` (`sweep`, `batch export`). */
  name: string;
  /** One line: what the command does. */
  summary: string;
  /** Paragraphs after the summary in `--help`. */
  description?: string;
  options: O;
  /** Positional arguments; default none (a stray argument is an error). */
  positionals?: PositionalSpec;
  /**
   * A switch after which every argument belongs to another command (`--then-sweep`): those
   * arguments are `parsed.rest`, not parsed here. Default none.
   */
  rest?: { name: string; placeholder: string; description: string; example: string };
  /** Whole command lines, shown under "Examples". */
  examples: string[];
  /** Rules between options; throw `CliError` naming the options. */
  check?: (values: Values<O>, context: CheckContext<O>) => void;
}

/** The result of parsing a command line. */
export interface Parsed<O extends Record<string, OptionSpec>> {
  values: Values<O>;
  positionals: string[];
  /** True when the option was given (on the command line or through its variable). */
  given(name: keyof O & string): boolean;
  /** Where a value came from: the command line, its environment variable, or the default. */
  source(name: keyof O & string): "argv" | "env" | "default";
  /** The arguments as received. */
  argv: readonly string[];
  /** The arguments after the `rest` switch, when it was given. */
  rest?: string[];
}

/** A declared command. */
export interface Command<O extends Record<string, OptionSpec>> {
  spec: CommandSpec<O>;
  /** Parse and validate (no file system access); `"help"` when `--help` or `-h` was given. */
  parse(options: {
    argv: readonly string[];
    env?: Readonly<Record<string, string | undefined>>;
  }): Parsed<O> | "help";
  /** Check every path option (missing directory, a directory, read-only, not a database). */
  checkPaths(parsed: Parsed<O>): void;
  /** The generated `--help` text. */
  help(): string;
}

const _camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function _label(name: string, fromEnv?: string): string {
  return fromEnv ? `$${fromEnv} (--${name})` : `--${name}`;
}

function _zodReason(error: z.ZodError): string {
  const issue = error.issues[0];
  const message = issue?.message ?? "invalid";
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function _parseError(e: Error, command: string): CliError {
  const m = e.message;
  let match: RegExpExecArray | null;
  if ((match = /Unknown option '([^']+)'/.exec(m))) {
    return new CliError(`${match[1]}: unknown option (see deno task ${command} --help)`);
  }
  if ((match = /Option '(-\w, )?(--[\w-]+)[^']*' argument missing/.exec(m))) {
    return new CliError(`${match[2]}: expected a value after it`);
  }
  if ((match = /Option '(-\w, )?(--[\w-]+)' argument is ambiguous/.exec(m))) {
    return new CliError(
      `${match[2]}: expected a value after it (a value starting with "-" is written ` +
        `${match[2]}=-VALUE)`,
    );
  }
  if ((match = /Option '(-\w, )?(--[\w-]+)' does not take an argument/.exec(m))) {
    return new CliError(`${match[2]}: is a switch and takes no value`);
  }
  if ((match = /Unexpected argument '([^']*)'/.exec(m))) {
    return new CliError(
      `unexpected argument ${JSON.stringify(match[1])} (see deno task ${command} --help)`,
    );
  }
  return new CliError(m.split("\n")[0]);
}

function _convert(name: string, spec: OptionSpec, text: string, fromEnv?: string): unknown {
  const label = _label(name, fromEnv);
  if (text.trim() === "") throw new CliError(`${label}: expected a value, got an empty string`);
  let value: unknown;
  try {
    value = spec.convert(text);
  } catch (e) {
    if (e instanceof _Invalid) {
      throw new CliError(`${label}: expected ${e.message}, got ${JSON.stringify(text)}`);
    }
    throw e;
  }
  if (spec.schema) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const result = spec.schema.safeParse(item);
      if (!result.success && spec.secret) {
        throw new CliError(
          `${label}: ${_zodReason(result.error)}; the value given is not shown, in case it is ` +
            `the key itself`,
        );
      }
      if (!result.success) {
        const shown = Array.isArray(value) ? String(item) : text;
        const what = spec.field ? `is not a valid ${spec.field}` : "is invalid";
        throw new CliError(
          `${label}: ${JSON.stringify(shown)} ${what} (${_zodReason(result.error)})`,
        );
      }
    }
  }
  return value;
}

function _showDefault(spec: OptionSpec): string {
  if (spec.required) return "Required";
  if (spec.kind === "flag") return "Default: off";
  if (spec.defaultText !== undefined) return `Default: ${spec.defaultText}`;
  const d = spec.default;
  if (d === undefined || (Array.isArray(d) && d.length === 0)) return "Default: none";
  return `Default: ${Array.isArray(d) ? d.join(",") : String(d)}`;
}

function _wrap(text: string, indent: number, width = 100): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent + line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines.map((l) => " ".repeat(indent) + l).join("\n");
}

function _help<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  options: Record<string, OptionSpec>,
): string {
  const required = Object.entries(options).filter(([, o]) => o.required)
    .map(([n, o]) => `--${n} ${o.placeholder}`);
  const usage = [
    `deno task ${spec.name}`,
    ...required,
    "[options]",
    ...(spec.positionals ? [`[${spec.positionals.name}...]`] : []),
  ].join(" ");
  const parts = [`deno task ${spec.name}: ${spec.summary}`, "", `Usage: ${usage}`];
  if (spec.description) parts.push("", _wrap(spec.description, 0));
  if (spec.positionals) {
    parts.push(
      "",
      "Arguments:",
      `  ${spec.positionals.name}...`,
      _wrap(spec.positionals.description, 6),
      `      Default: none. Example: ${spec.positionals.example}`,
    );
  }
  parts.push("", "Options:");
  for (const [name, o] of Object.entries(options)) {
    parts.push(`  --${name}${o.placeholder ? ` ${o.placeholder}` : ""}`);
    parts.push(_wrap((o.describe?.() ?? o.description) + (o.field ? ` (${o.field})` : ""), 6));
    const example = o.kind === "flag" ? `--${name}` : `--${name} ${o.example ?? "..."}`;
    const env = o.env ? ` Environment: $${o.env}.` : "";
    const repeat = o.multiple ? " Repeatable." : "";
    parts.push(`      ${_showDefault(o)}. Example: ${example}${env}${repeat}`);
  }
  if (spec.rest) {
    parts.push(`  --${spec.rest.name} ${spec.rest.placeholder}`);
    parts.push(_wrap(spec.rest.description, 6));
    parts.push(`      Default: none. Example: --${spec.rest.name} ${spec.rest.example}`);
  }
  parts.push("  -h, --help", "      Print this help and exit 0.");
  parts.push("", "Examples:", ...spec.examples.map((e) => `  ${e}`));
  parts.push(
    "",
    "Exit codes: 0 done; 1 failed; 2 bad input (one line naming the option, nothing written); " +
      "3 finished with error rows (rerun them with the printed --retry-errors command, or pass " +
      "--allow-errors where the task has it).",
  );
  return parts.join("\n");
}

/** True when `argv` asks for help (before a `--` terminator). */
function _wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/**
 * Declare a command. Option names are kebab-case; parsed values are camelCase.
 * See the module example.
 */
export function defineCommand<const O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
): Command<O> {
  // Every command takes --plugin (loaded by `execute` before parsing; see `PLUGIN_OPTION`).
  const declared: Record<string, OptionSpec> = { ...spec.options, plugin: PLUGIN_OPTION };
  return {
    spec,
    help: () => _help(spec, declared),
    parse({ argv: all, env = {} }) {
      const cut = spec.rest ? all.indexOf(`--${spec.rest.name}`) : -1;
      const argv = cut === -1 ? all : all.slice(0, cut);
      const rest = cut === -1 ? undefined : all.slice(cut + 1);
      if (_wantsHelp(argv)) return "help";
      const options = Object.fromEntries(
        Object.entries(declared).map(([name, o]) => [
          name,
          {
            type: o.kind === "flag" ? "boolean" as const : "string" as const,
            multiple: o.multiple,
          },
        ]),
      );
      let parsed;
      try {
        parsed = parseArgs({
          args: [...argv],
          options,
          strict: true,
          allowPositionals: spec.positionals !== undefined,
          tokens: true,
        });
      } catch (e) {
        throw _parseError(e as Error, spec.name);
      }
      const seen = new Map<string, string[]>();
      for (const token of parsed.tokens ?? []) {
        if (token.kind !== "option") continue;
        seen.set(token.name, [...(seen.get(token.name) ?? []), String(token.value ?? "")]);
      }
      for (const [name, values] of seen) {
        if (values.length > 1 && !declared[name]?.multiple) {
          throw new CliError(
            `--${name}: given ${values.length} times (${
              values.map((v) => JSON.stringify(v)).join(", ")
            }); give it once`,
          );
        }
      }
      const sources = new Map<string, "argv" | "env">();
      const values: Record<string, unknown> = {};
      // `--plugin` is not among the values: `execute` loaded the plugins before parsing.
      for (const [name, o] of Object.entries(spec.options)) {
        const raw = (parsed.values as Record<string, unknown>)[name];
        let value: unknown;
        if (raw !== undefined) {
          sources.set(name, "argv");
          value = o.kind === "flag"
            ? true
            : o.multiple
            ? (raw as string[]).map((t) => _convert(name, o, t))
            : _convert(name, o, raw as string);
        } else if (o.env && o.kind !== "flag" && (env[o.env] ?? "") !== "") {
          sources.set(name, "env");
          const text = env[o.env]!;
          value = o.multiple ? [_convert(name, o, text, o.env)] : _convert(name, o, text, o.env);
        } else if (o.required) {
          throw new CliError(
            `--${name}: required (${o.placeholder}); see deno task ${spec.name} --help`,
          );
        } else value = o.default;
        values[_camel(name)] = value;
      }
      const positionals = parsed.positionals;
      const result: Parsed<O> = {
        values: values as Values<O>,
        positionals,
        given: (name) => sources.has(name),
        source: (name) => sources.get(name) ?? "default",
        argv: all,
        rest,
      };
      try {
        spec.check?.(result.values, {
          given: result.given,
          positionals,
          label: (name) =>
            _label(name, sources.get(name) === "env" ? spec.options[name].env : undefined),
        });
      } catch (e) {
        throw wordFieldError(e, spec.options);
      }
      return result;
    },
    checkPaths(parsed) {
      const values = parsed.values as Record<string, unknown>;
      for (const [name, o] of Object.entries(spec.options)) {
        if (!o.path) continue;
        const value = values[_camel(name)];
        if (value === undefined || (o.path.when && !o.path.when(values))) continue;
        for (const path of Array.isArray(value) ? value : [value]) {
          const problem = pathProblem({
            path: String(path),
            use: o.path.use,
            nonEmpty: o.path.nonEmpty,
            utf8: o.path.utf8,
          });
          const fromEnv = parsed.source(name) === "env" ? o.env : undefined;
          if (problem) throw new CliError(`${_label(name, fromEnv)}: ${problem}`);
        }
      }
    },
  };
}

/** True for errors that mean bad input rather than a failed run or a bug. */
export function isBadInput(e: unknown): boolean {
  return e instanceof CliError || e instanceof RangeError || e instanceof TypeError ||
    e instanceof MissingDataFileError || e instanceof z.ZodError ||
    e instanceof Deno.errors.NotFound || e instanceof Deno.errors.PermissionDenied ||
    e instanceof Deno.errors.IsADirectory || e instanceof Deno.errors.NotADirectory;
}

/**
 * Print the one line for an error and return the exit code: 2 for bad input, 1 otherwise
 * (with `MEMGAUGE_DEBUG=1` the stack trace follows).
 */
export function reportError(options: {
  /** Command name for the `memgauge NAME:` prefix. */
  name: string;
  /** What was thrown. */
  error: unknown;
  /** Line sink; default `console.error`. */
  stderr?: (line: string) => void;
}): number {
  const { name, error } = options;
  // The error line passes the redaction layer (a provider may echo a key in its message).
  const sink = options.stderr ?? ((l: string) => console.error(l));
  const stderr = (line: string) => sink(redact({ text: line }));
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0];
  if (isBadInput(error)) {
    stderr(`memgauge ${name}: ${first}`);
    return EXIT.badInput;
  }
  let debug = false;
  try {
    debug = Deno.env.get("MEMGAUGE_DEBUG") === "1";
  } catch { /* no env permission */ }
  const kind = error instanceof Error ? `${error.name}: ` : "";
  stderr(
    `memgauge ${name}: failed: ${kind}${first}` +
      (debug ? `\n${(error as Error)?.stack ?? ""}` : " (MEMGAUGE_DEBUG=1 prints the stack trace)"),
  );
  return EXIT.failed;
}

/**
 * Run a command in-process and return its exit code: help (0), parse and path checks (2 on bad
 * input), then `main`, whose returned number is the exit code (default 0).
 */
export async function execute<O extends Record<string, OptionSpec>>(options: {
  command: Command<O>;
  argv: readonly string[];
  main: (parsed: Parsed<O>) => number | void | Promise<number | void>;
  /** Environment for `env` options; default the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Line sink for errors; default `console.error`. */
  stderr?: (line: string) => void;
}): Promise<number> {
  const { command } = options;
  // Every line a command prints passes the redaction layer (library logs included).
  guardConsole();
  try {
    const paths = pluginPaths({ argv: options.argv, stop: command.spec.rest?.name });
    // Imported only when needed: the loader reaches every registry (memory systems included).
    if (paths.length > 0) {
      const { loadPlugins } = await import("../plugins/plugins.ts");
      try {
        await loadPlugins({ paths });
      } catch (e) {
        if ((e as Error).name !== "PluginError") throw e;
        const { file, detail } = e as PluginError;
        throw new CliError(`--plugin ${file}: ${detail}`);
      }
    }
    const parsed = command.parse({ argv: options.argv, env: options.env ?? _env() });
    if (parsed === "help") {
      console.log(command.help());
      return EXIT.ok;
    }
    command.checkPaths(parsed);
    return (await options.main(parsed)) ?? EXIT.ok;
  } catch (error) {
    return reportError({
      name: command.spec.name,
      error: wordFieldError(error, command.spec.options),
      stderr: options.stderr,
    });
  }
}

function _env(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/** Run a command as the process: exits with its code. */
export async function runCommand<O extends Record<string, OptionSpec>>(
  command: Command<O>,
  main: (parsed: Parsed<O>) => number | void | Promise<number | void>,
): Promise<never> {
  exitTask(await execute({ command, argv: Deno.args, main }));
}

/** A command with subcommands (`deno task batch export|import`). */
export interface CommandGroup {
  name: string;
  summary: string;
  commands: Record<string, { command: Command<never>; main: (parsed: never) => unknown }>;
}

/** Help of a group: its subcommands and how to get their help. */
export function groupHelp(group: CommandGroup): string {
  const names = Object.keys(group.commands);
  return [
    `deno task ${group.name}: ${group.summary}`,
    "",
    `Usage: deno task ${group.name} ${names.join("|")} [options]`,
    "",
    "Commands:",
    ...names.map((n) =>
      `  ${n.padEnd(10)} ${group.commands[n].command.spec.summary}\n` +
      `             (deno task ${group.name} ${n} --help)`
    ),
  ].join("\n");
}

/**
 * Run a group in-process and return its exit code: the first argument picks the subcommand
 * (`--help` prints the group's help).
 */
export async function executeGroup(
  group: CommandGroup,
  argv: readonly string[],
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h") {
    console.log(groupHelp(group));
    return EXIT.ok;
  }
  const entry = first === undefined ? undefined : group.commands[first];
  if (!entry) {
    return reportError({
      name: group.name,
      error: new CliError(
        `expected ${Object.keys(group.commands).join(" or ")}, got ${
          JSON.stringify(first ?? "")
        } (see deno task ${group.name} --help)`,
      ),
    });
  }
  const { command, main } = entry as unknown as {
    command: Command<Record<string, OptionSpec>>;
    main: (parsed: Parsed<Record<string, OptionSpec>>) => number | void | Promise<number | void>;
  };
  return await execute({ command, argv: rest, main });
}

/** Run a group as the process: exits with its code. */
export async function runGroup(group: CommandGroup, argv = Deno.args): Promise<never> {
  exitTask(await executeGroup(group, argv));
}

/** Quote one argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command line to type again: `deno task NAME` with `argv`, minus the switches in `drop`,
 * plus `add`, shell-quoted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandLine } from "./command.ts";
 * const line = commandLine({ name: "sweep", argv: ["--stage", "writing", "--resume", "--out", "my rows.jsonl"], drop: ["resume"], add: ["--retry-errors"] });
 * assert.equal(line, "deno task sweep --stage writing --out 'my rows.jsonl' --retry-errors");
 * ```
 */
export function commandLine(options: {
  /** Task name. */
  name: string;
  /** Arguments as given. */
  argv: readonly string[];
  /** Switch names (no value) to leave out; default none. */
  drop?: readonly string[];
  /** Arguments to append; default none. */
  add?: readonly string[];
}): string {
  const drop = new Set((options.drop ?? []).map((d) => `--${d}`));
  const kept = options.argv.filter((a) => !drop.has(a.split("=")[0]));
  return [`deno task ${options.name}`, ...[...kept, ...(options.add ?? [])].map(shellQuote)]
    .join(" ");
}

/**
 * The end of a run with error rows: their count by kind and the command that reruns only them
 * on stderr; exit code 3, or 0 with `--allow-errors`. Without error rows: 0 and nothing printed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorRowsExit } from "./command.ts";
 * const lines: string[] = [];
 * const summary = { rows: 4, errors: 1, kinds: [["HTTP 401", 1]] as [string, number][] };
 * const code = errorRowsExit({ name: "sweep", summary, retry: "deno task sweep --out r.jsonl --retry-errors", allowErrors: false, stderr: (l) => lines.push(l) });
 * assert.equal(code, 3);
 * assert.match(lines.join("\n"), /1 of 4 rows are error rows \(HTTP 401: 1\)[^]*--retry-errors/);
 * ```
 */
export function errorRowsExit(options: {
  /** Task name. */
  name: string;
  /** Error rows by kind. */
  summary: ErrorSummary;
  /** The command that reruns the failed trials. */
  retry: string;
  /** What the retry command does; default "Rerun only them". */
  retryLabel?: string;
  /** `--allow-errors`: exit 0 anyway. */
  allowErrors: boolean;
  /**
   * Requests the endpoint refused as sent (`requestFixes`): asking again cannot help, so they
   * are printed with the model options that change them; default none.
   */
  fixes?: readonly RequestFix[];
  /** The command that runs again with those model options (a new run); default none. */
  fixCommand?: string;
  /** Line sink; default `console.error`. */
  stderr?: (line: string) => void;
}): number {
  const { summary } = options;
  if (summary.errors === 0) return EXIT.ok;
  const stderr = options.stderr ?? ((l: string) => console.error(l));
  stderr(`memgauge ${options.name}: ${formatErrorSummary(summary)}.`);
  const fixes = options.fixes ?? [];
  for (const f of fixes) {
    stderr(
      `The endpoint of ${f.model} refused ${f.refused} in ${f.rows} rows: asking again with the ` +
        `same options cannot help; --model-option ${f.option} sends what it takes (deno task ` +
        `models check --model ${f.model} lists what an endpoint accepts).`,
    );
  }
  if (fixes.length > 0 && options.fixCommand) {
    stderr(`Run again with the request changed (a new run): ${options.fixCommand}`);
  }
  const fixed = fixes.reduce((n, f) => n + f.rows, 0);
  if (fixed < summary.errors) {
    stderr(`${options.retryLabel ?? "Rerun only them"}: ${options.retry}`);
  }
  stderr(
    options.allowErrors
      ? "Exit code 0 because of --allow-errors."
      : "Exit code 3 (pass --allow-errors to exit 0 with error rows).",
  );
  return options.allowErrors ? EXIT.ok : EXIT.errorRows;
}

/**
 * The "Model calls" line, or "" when no model was called. `failed` counts every call that
 * failed: after its retries (HTTP errors, timeouts, empty replies) and replies that arrived but
 * were rejected as invalid (an unparsable judge verdict, ranking or record).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelCallsLine } from "./command.ts";
 * assert.equal(modelCallsLine({ requests: 3, cacheHits: 1, retries: 0, errors: 1, rejected: 2 }), "Model calls: 3 requests, 1 cache hits, 0 retries, 3 failed (1 after retries, 2 replies rejected as invalid).");
 * assert.equal(modelCallsLine({ requests: 0, cacheHits: 0, retries: 0, errors: 0, rejected: 0 }), "");
 * ```
 */
export function modelCallsLine(stats: {
  requests: number;
  cacheHits: number;
  retries: number;
  errors: number;
  rejected: number;
}): string {
  if (stats.requests + stats.cacheHits === 0) return "";
  const failed = stats.errors + stats.rejected;
  return `Model calls: ${stats.requests} requests, ${stats.cacheHits} cache hits, ` +
    `${stats.retries} retries, ${failed} failed` +
    (failed > 0
      ? ` (${stats.errors} after retries, ${stats.rejected} replies rejected as invalid).`
      : ".");
}
