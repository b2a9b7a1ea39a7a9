/**
 * `deno task models check [--model ID ...]`: ask each model's endpoint one minimal request per
 * parameter and reply format, print what it accepts, and the catalog change to make.
 */
import { parseArgs } from "node:util";
import { checkEndpoint, type EndpointCheck, type ProbeResult } from "../models/check_endpoint.ts";
import { MODEL_CATALOG, resolveModelEndpoint } from "../models/model_catalog.ts";
import { parseModelOptions } from "../run/model_setup.ts";
import { CliError, runCli } from "./cli_error.ts";

const USAGE = "usage: deno task models check [--model ID ...] [--base-url URL] " +
  "[--api-key-env NAME] [--model-option ID.key=value ...] [--timeout MS]";

const COLUMNS = [
  ["temperature", "temperature"],
  ["seed", "seed"],
  ["max_tokens", "max_tokens"],
  ["max_completion_tokens", "max_completion_tokens"],
  ["json_object", "json_object"],
  ["json_schema", "json_schema"],
  ["reasoning_effort", "reasoning_effort"],
] as const;

function _cell(p: ProbeResult | null | undefined): string {
  return p ? p.status : "-";
}

function _table(checks: EndpointCheck[]): string {
  const header = ["model", "name", "request", ...COLUMNS.map(([, h]) => h), "reasoning", "usage"];
  const rows = checks.map((c) => [
    c.id,
    c.modelConfirmed === null ? "-" : c.modelConfirmed ? "confirmed" : "unconfirmed",
    c.request.status,
    ...COLUMNS.map(([k]) => _cell(c.probes?.[k])),
    c.reasoning ?? "-",
    c.usage === null ? "-" : c.usage ? "yes" : "no",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

/** Run the models CLI with the given arguments. */
export async function modelsMain(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== "check") {
    throw new CliError(`expected check, got ${JSON.stringify(command ?? "")}; ${USAGE}`);
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        model: { type: "string", multiple: true },
        "base-url": { type: "string" },
        "api-key-env": { type: "string" },
        "model-option": { type: "string", multiple: true },
        timeout: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new CliError(`${(e as Error).message}; ${USAGE}`);
  }
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined && (!URL.canParse(baseUrl) || !/^https?:/.test(baseUrl))) {
    throw new CliError(`--base-url: expected an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  const timeout = values.timeout ?? "60000";
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
    throw new CliError(`--timeout: expected an integer >= 1, got ${JSON.stringify(timeout)}`);
  }
  const ids = (values.model ?? []).flatMap((m) => m.split(",")).map((m) => m.trim());
  if (ids.length === 0 && baseUrl !== undefined) {
    throw new CliError("--model: required with --base-url (the model names to check)");
  }
  const overrides = parseModelOptions({
    specs: values["model-option"] ?? [],
    baseUrl: baseUrl !== undefined,
  });
  // Resolve every id first: an unknown id or a bad override stops before any request.
  const targets = (ids.length > 0 ? ids : MODEL_CATALOG.map((m) => m.id)).map((id) => {
    try {
      return {
        id,
        endpoint: resolveModelEndpoint({
          id,
          baseUrl,
          apiKeyEnv: values["api-key-env"],
          overrides: overrides.get(id),
        }),
      };
    } catch (e) {
      // A missing key skips that model when checking the whole catalog; otherwise it is an error.
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
    checks.push(await checkEndpoint({ endpoint: t.endpoint, timeoutMs: Number(timeout) }));
  }
  if (checks.length > 0) console.log(_table(checks));
  console.log(
    "\nok: accepted; wrapped: JSON came fenced or after prose (the kit reads it); ignored: " +
      "accepted, no JSON; refused: HTTP 400/422; error: see below.",
  );
  const failed = checks.filter((c) => c.request.status !== "ok");
  const changed = checks.filter((c) => Object.keys(c.changes).length > 0);
  if (changed.length > 0) {
    console.log("\nCatalog changes to make in data/models.json (or, for one run, the flags):");
    for (const c of changed) {
      const fields = Object.entries(c.changes).map(([k, v]) => `"${k}": ${JSON.stringify(v)}`);
      const flags = Object.entries(c.changes).map(([k, v]) => `--model-option ${c.id}.${k}=${v}`);
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
      `\nAnswered under the catalog's unconfirmed names: ${
        unconfirmed.map((c) => c.id).join(", ")
      } (the endpoint accepts the name; set "modelConfirmed": true once you have checked it is the model the paper means).`,
    );
  }
  if (failed.length > 0) {
    console.log("\nCould not check:");
    for (const c of failed) console.log(`  ${c.id} (${c.model}): ${c.request.detail}`);
  }
  if (skipped.length > 0) console.log(`\nSkipped (no key): ${skipped.join("; ")}.`);
  if (failed.length > 0) Deno.exit(3);
}

if (import.meta.main) await runCli("models", () => modelsMain(Deno.args));
