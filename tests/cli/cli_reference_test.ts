/** docs/cli.md is what the declarations generate: a changed option without a regenerated file fails. */
import assert from "node:assert/strict";
import { CLI_REFERENCE, cliReference } from "../../lib/cli/cli_reference.ts";

Deno.test("docs/cli.md is current with the commands' declarations (deno task docs:cli)", async () => {
  const path = new URL(`../../${CLI_REFERENCE}`, import.meta.url);
  const kept = await Deno.readTextFile(path).catch(() => "");
  const generated = cliReference();
  if (kept === generated) return;
  const a = kept.split("\n"), b = generated.split("\n");
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(
    `${CLI_REFERENCE} is stale (first difference at line ${line + 1}: ${
      JSON.stringify(a[line] ?? "")
    } there, ${JSON.stringify(b[line] ?? "")} generated); run deno task docs:cli and commit it`,
  );
});
