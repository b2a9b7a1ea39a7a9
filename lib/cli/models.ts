/**
 * `deno task models check [--model ID ...]`: ask each model's endpoint one minimal request per
 * parameter and reply format, print what it accepts, and the catalog change to make.
 */
import { checkEndpoint, type EndpointCheck, type ProbeResult } from "../models/check_endpoint.ts";
import { MODEL_CATALOG, resolveModelEndpoint } from "../models/model_catalog.ts";
import { parseModelOptions } from "../models/model_options.ts";
import {
  CliError,
  type CommandGroup,
  defineCommand,
  executeGroup,
  EXIT,
  opt,
  type Parsed,
  runGroup,
} from "./command.ts";
import { MODEL_OPTIONS } from "./sweep_args.ts";

const COLUMNS = [
  "temperature",
  "seed",
  "max_tokens",
  "max_completion_tokens",
  "json_object",
  "json_schema",
  "reasoning_effort",
] as const;

/** `deno task models check`. */
export const checkCommand = defineCommand({
  name: "models check",
  summary: "ask each model's endpoint what it accepts, before a paid run",
  description: "Sends one minimal request per parameter and reply format (temperature, seed, " +
    "max_tokens, max_completion_tokens, json_object, json_schema, reasoning_effort) and prints " +
    "a table of what each endpoint accepts, whether its replies carry reasoning and usage, and " +
    "the data/models.json change to make (with the --model-option flags that make it for one " +
    "run). Exit code 3 when a model could not be reached.",
  options: {
    model: opt.repeated({
      description: "Model to check (repeatable, or comma-separated): a data/models.json id, or " +
        "with --base-url any model name.",
      placeholder: "ID",
      example: "gpt-5.4",
      defaultText: "every catalog model whose key is set",
    }),
    "base-url": MODEL_OPTIONS["base-url"],
    "api-key-env": MODEL_OPTIONS["api-key-env"],
    "model-option": MODEL_OPTIONS["model-option"],
    timeout: MODEL_OPTIONS.timeout,
  },
  examples: [
    "deno task models check --model gpt-5.4 --model deepseek-v4-flash",
    "deno task models check --model qwen2.5-7b-instruct --base-url http://localhost:8000/v1",
  ],
  check(v, { given }) {
    const ids = v.model.flatMap((m) => m.split(",")).map((m) => m.trim());
    if (ids.some((id) => id === "")) throw new CliError("--model: an empty model id");
    if (given("base-url") && ids.length === 0) {
      throw new CliError("--model: required with --base-url (the model names to check)");
    }
    if (given("api-key-env") && !given("base-url")) {
      throw new CliError("--api-key-env: applies with --base-url only");
    }
    if (!given("base-url")) {
      for (const id of ids) {
        if (!MODEL_CATALOG.some((m) => m.id === id)) {
          throw new CliError(
            `--model: unknown model ${JSON.stringify(id)} (expected one of ${
              MODEL_CATALOG.map((m) => m.id).join(", ")
            }, or pass --base-url for any other endpoint)`,
          );
        }
      }
    }
    parseModelOptions({ specs: v.modelOption, baseUrl: v.baseUrl !== undefined });
  },
});

function _cell(p: ProbeResult | null | undefined): string {
  return p ? p.status : "-";
}

/** The table of what each endpoint accepted. */
export function checkTable(checks: readonly EndpointCheck[]): string {
  const header = ["model", "name", "request", ...COLUMNS, "reasoning", "usage"];
  const rows = checks.map((c) => [
    c.id,
    c.modelConfirmed === null ? "-" : c.modelConfirmed ? "confirmed" : "unconfirmed",
    c.request.status,
    ...COLUMNS.map((k) => _cell(c.probes?.[k])),
    c.reasoning ?? "-",
    c.usage === null ? "-" : c.usage ? "yes" : "no",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

async function _check(parsed: Parsed<typeof checkCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const ids = v.model.flatMap((m) => m.split(",")).map((m) => m.trim());
  const overrides = parseModelOptions({ specs: v.modelOption, baseUrl: v.baseUrl !== undefined });
  // Resolve every id first: a missing key stops before any request, unless the whole catalog
  // is checked (then that model is skipped and listed).
  const targets = (ids.length > 0 ? ids : MODEL_CATALOG.map((m) => m.id)).map((id) => {
    try {
      return {
        id,
        endpoint: resolveModelEndpoint({
          id,
          baseUrl: v.baseUrl,
          apiKeyEnv: v.apiKeyEnv,
          overrides: overrides.get(id),
        }),
      };
    } catch (e) {
      if (ids.length === 0 && /is not set/.test((e as Error).message)) {
        return { id, skipped: (e as Error).message.replace(/^--model \S+: /, "") };
      }
      throw e;
    }
  });
  const checks: EndpointCheck[] = [];
  const skipped: string[] = [];
  for (const t of targets) {
    if ("skipped" in t) {
      skipped.push(`${t.id} (${t.skipped})`);
      continue;
    }
    console.error(`checking ${t.id} (${t.endpoint.model} at ${t.endpoint.baseUrl}) ...`);
    checks.push(await checkEndpoint({ endpoint: t.endpoint, timeoutMs: v.timeout }));
  }
  if (checks.length > 0) {
    console.log(checkTable(checks));
    console.log(
      "\nok: accepted; wrapped: JSON came fenced or after prose (the kit reads it); ignored: " +
        "accepted, no JSON; refused: HTTP 400/422; error: see below.",
    );
  }
  const changed = checks.filter((c) => Object.keys(c.changes).length > 0);
  if (changed.length > 0) {
    console.log("\nCatalog changes to make in data/models.json (or, for one run, the flags):");
    for (const c of changed) {
      const fields = Object.entries(c.changes).map(([k, x]) => `"${k}": ${JSON.stringify(x)}`);
      const flags = Object.entries(c.changes).map(([k, x]) => `--model-option ${c.id}.${k}=${x}`);
      console.log(`  ${c.id}: ${fields.join(", ")}\n    ${flags.join(" ")}`);
    }
  }
  const fine = checks.filter((c) =>
    c.request.status === "ok" && Object.keys(c.changes).length === 0
  );
  if (fine.length > 0) console.log(`\nNo change needed: ${fine.map((c) => c.id).join(", ")}.`);
  for (const c of checks.filter((c) => c.stopReason === "length")) {
    console.log(`\n${c.id}: the plain reply was cut at its output limit; raise maxTokens.`);
  }
  const unconfirmed = checks.filter((c) => c.modelConfirmed === false && c.request.status === "ok");
  if (unconfirmed.length > 0) {
    console.log(
      `\nAnswered under names the catalog marks unconfirmed: ${
        unconfirmed.map((c) => c.id).join(", ")
      } (the endpoint takes the name; set "modelConfirmed": true once you know it is the model ` +
        "the paper means).",
    );
  }
  const failed = checks.filter((c) => c.request.status !== "ok");
  if (failed.length > 0) {
    console.log("\nCould not check:");
    for (const c of failed) console.log(`  ${c.id} (${c.model}): ${c.request.detail}`);
  }
  if (skipped.length > 0) console.log(`\nSkipped (no key): ${skipped.join("; ")}.`);
  if (checks.length === 0) {
    throw new CliError(
      "--model: no catalog model has its key set; export a key (e.g. OPENAI_API_KEY) or name " +
        "a model with --model",
    );
  }
  return failed.length > 0 ? EXIT.errorRows : EXIT.ok;
}

/** The `deno task models` group. */
export const modelsGroup: CommandGroup = {
  name: "models",
  summary: "what the model endpoints accept",
  commands: { check: { command: checkCommand as never, main: _check as never } },
};

/** Run the models CLI with the given arguments; returns the exit code (errors are printed). */
export async function modelsMain(argv: readonly string[]): Promise<number> {
  return await executeGroup(modelsGroup, argv);
}

if (import.meta.main) await runGroup(modelsGroup);
