import assert from "node:assert/strict";
import { parseReferenceSpec, referenceAgentId } from "../../lib/agents/agent_spec.ts";
import { ALL_MECHANISMS_ON, MECHANISMS } from "../../lib/agents/mechanisms.ts";
import { PERSONAS } from "../../lib/agents/personas.ts";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";

Deno.test("parseReferenceSpec() reads personas and switched-off mechanisms", () => {
  assert.deepEqual(parseReferenceSpec("reference"), {
    personas: Object.keys(PERSONAS),
    mechanisms: ALL_MECHANISMS_ON,
  });
  const spec = parseReferenceSpec("reference:skimmer?attention=off&distractors=off&guess=on");
  assert.deepEqual(spec.personas, ["skimmer"]);
  assert.deepEqual(spec.mechanisms, {
    ...ALL_MECHANISMS_ON,
    attention: false,
    distractors: false,
  });
  assert.equal(parseReferenceSpec("reference?guess=off").personas.length, 5);
});

Deno.test("every mechanism can be switched off by name and the agent id says so", () => {
  for (const mechanism of Object.keys(MECHANISMS)) {
    const [agent] = resolveAgents({ specs: [`reference:careful?${mechanism}=off`] });
    assert.equal(agent.id, `reference:careful?${mechanism}=off`);
    assert.equal(agent.simulated, true);
  }
  // The id lists mechanisms in registry order whatever order the spec gave.
  const [agent] = resolveAgents({ specs: ["reference:careful?guess=off&attention=off"] });
  assert.equal(agent.id, "reference:careful?attention=off&guess=off");
  assert.equal(
    referenceAgentId({ persona: "careful", mechanisms: ALL_MECHANISMS_ON }),
    "reference:careful",
  );
});

const BAD: [string, RegExp][] = [
  [
    "reference:bold",
    /unknown reference persona "bold" in "reference:bold" \(expected one of careful/,
  ],
  ["reference:toString", /unknown reference persona "toString"/],
  ["reference:careful?memory=off", /unknown mechanism "memory" in .* \(expected one of attention/],
  ["reference:careful?attention=maybe", /mechanism attention must be on or off, got "maybe"/],
  ["reference:careful?attention", /mechanism attention must be on or off, got ""/],
  ["reference:careful?guess=off&guess=on", /mechanism guess given twice/],
];

for (const [spec, message] of BAD) {
  Deno.test(`resolveAgents() rejects ${spec} naming what is wrong`, () => {
    assert.throws(() => resolveAgents({ specs: [spec] }), (e: unknown) => {
      assert.ok(e instanceof RangeError);
      assert.match(e.message, message);
      assert.equal(e.message.split("\n").length, 1);
      return true;
    });
  });
}

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

for (
  const [spec, message] of [
    ["reference:bold", /unknown reference persona "bold"/],
    ["reference:careful?corroboraton=off", /unknown mechanism "corroboraton"/],
  ] as const
) {
  Deno.test(`sweep CLI rejects --agent ${spec} with one line and exit code 2`, async () => {
    const dir = await Deno.makeTempDir();
    const out = `${dir}/rows.jsonl`;
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SWEEP, "--stage", "writing", "--agent", spec, "--out", out],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(stderr);
    assert.equal(code, 2);
    assert.match(text, message);
    assert.equal(text.trim().split("\n").length, 1, text);
    await assert.rejects(Deno.stat(out));
    await Deno.remove(dir, { recursive: true });
  });
}
