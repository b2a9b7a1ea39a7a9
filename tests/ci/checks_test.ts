import assert from "node:assert/strict";
import { join } from "node:path";
import { full } from "../support/tiers.ts";

const root = new URL("../../", import.meta.url).pathname;

async function _checks(dir: string) {
  const out = await new Deno.Command("bash", {
    args: [join(dir, ".ci/checks")],
    stdout: "null",
    stderr: "piped",
  })
    .output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

full.test(".ci/checks fails on an unformatted file and passes once it is formatted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, ".ci"));
    await Deno.copyFile(join(root, ".ci/checks"), join(dir, ".ci/checks"));
    await Deno.mkdir(join(dir, "lib"));
    await Deno.mkdir(join(dir, "tests"));
    await Deno.writeTextFile(join(dir, "deno.json"), '{ "fmt": { "lineWidth": 100 } }\n');
    await Deno.writeTextFile(join(dir, "lib/a.ts"), "export const a   =  1\n");
    await Deno.writeTextFile(
      join(dir, "tests/a_test.ts"),
      'import { a } from "../lib/a.ts";\nexport const b = a;\n',
    );
    const bad = await _checks(dir);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Found 1 not formatted file/);
    await Deno.writeTextFile(join(dir, "lib/a.ts"), "export const a = 1;\n");
    const good = await _checks(dir);
    assert.equal(good.code, 0, good.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(".ci/run runs the checks before the README's test command", async () => {
  const run = await Deno.readTextFile(join(root, ".ci/run"));
  const checks = run.indexOf("bash .ci/checks");
  assert.ok(checks > 0, ".ci/run does not run .ci/checks");
  assert.ok(checks < run.indexOf("deno task test"), ".ci/checks must run before the tests");
});
