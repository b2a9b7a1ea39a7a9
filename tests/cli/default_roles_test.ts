/**
 * One rule for the default judge, ranker and writer (`defaultRoles`): every command that runs
 * agents asks it, so the same agents get the same roles (or the same refusal) everywhere.
 */
import assert from "node:assert/strict";
import { reproduceCommand } from "../../lib/cli/reproduce.ts";
import { sweepCommand } from "../../lib/cli/sweep_args.ts";
import { systemsCommand } from "../../lib/cli/systems.ts";
import { agentKinds, defaultRoles } from "../../lib/run/default_roles.ts";

const parse = (command: { parse: (o: { argv: string[] }) => unknown }, argv: string[]) => {
  try {
    return { parsed: command.parse({ argv }) };
  } catch (e) {
    return { error: (e as Error).message };
  }
};

const MIX = "reference:careful,llm:gpt-5.4-mini";

Deno.test("sweep and reproduce refuse a mix of offline and model agents in the same words", () => {
  const sweep = parse(sweepCommand, ["--stage", "writing", "--agent", MIX, "--out", "r"]);
  const reproduce = parse(reproduceCommand, ["--agent", MIX]);
  assert.match(sweep.error ?? "", /^--judge: required when the agents mix/);
  // Before: reproduce judged the mix with the deterministic matcher, built every instance,
  // then failed on a --ranker it did not have.
  assert.equal(reproduce.error, sweep.error);
});

Deno.test("with the judge named, both ask for the ranker; with both named, both accept", () => {
  const judge = ["--judge", "deterministic"];
  const sweep = parse(sweepCommand, ["--stage", "writing", "--agent", MIX, ...judge, "--out", "r"]);
  const reproduce = parse(reproduceCommand, ["--agent", MIX, ...judge]);
  assert.match(sweep.error ?? "", /^--ranker: required when the agents mix/);
  assert.equal(reproduce.error, sweep.error);
  const both = [...judge, "--ranker", "usefulness"];
  assert.equal(
    parse(sweepCommand, ["--stage", "writing", "--agent", MIX, ...both, "--out", "r"]).error,
    undefined,
  );
  assert.equal(parse(reproduceCommand, ["--agent", MIX, ...both]).error, undefined);
});

Deno.test("every command's defaults for one kind of agent are defaultRoles'", () => {
  for (const agent of ["reference:careful", "llm:gpt-5.4-mini"]) {
    const expected = defaultRoles({ agents: agentKinds([agent]) });
    assert.equal(
      expected.judge,
      agent.startsWith("llm:") ? "llm:self" : "deterministic",
    );
    for (
      const [command, argv] of [
        [sweepCommand, ["--stage", "writing", "--agent", agent, "--out", "r"]],
        [reproduceCommand, ["--agent", agent]],
        [systemsCommand, ["--system", "mem0", "--agent", agent, "--dry-run", "--out", "r"]],
      ] as const
    ) {
      const { error } = parse(command as never, [...argv]);
      assert.equal(error, undefined, `${command.spec.name} ${agent}: ${error}`);
    }
  }
});
