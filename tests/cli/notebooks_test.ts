/** Executes every notebook through Jupyter when it is installed; says so visibly when not. */
import assert from "node:assert/strict";
import { jupyterAvailable } from "../../lib/cli/notebooks.ts";

const available = await jupyterAvailable();
if (!available) {
  console.log(
    "SKIPPED: Jupyter not installed (apt-get install -y jupyter-nbconvert python3-nbclient python3-ipykernel); notebooks not executed",
  );
}

Deno.test({
  name: "deno task notebooks runs every notebook without a cell error",
  ignore: !available,
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "notebooks"],
      env: { MEMGAUGE_N: "6" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    assert.match(text, /All 7 notebooks ran/);
  },
});
