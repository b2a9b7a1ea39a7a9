import assert from "node:assert/strict";
import amemPrompts from "../../lib/systems/amem/upstream_prompts.json" with { type: "json" };
import langmemPrompts from "../../lib/systems/langmem/upstream_prompts.json" with { type: "json" };
import type { ManagementMode, SystemSession } from "../../lib/systems/memory_system.ts";
import { pipelineCheckReply } from "../../lib/systems/pipeline_check_reply.ts";
import { systemSetup } from "../../lib/systems/system_setup.ts";
import type { SystemRow } from "../../lib/schema/system_row.ts";
import { demoInstances, pipelineRun } from "./_setup.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { full } from "../support/tiers.ts";

async function _open(
  name: string,
  reply: (body: ChatBody) => string,
  modes: ManagementMode[] = ["M0", "M1"],
) {
  const bodies: ChatBody[] = [];
  const server = startFakeOpenAIServer({
    reply: (body) => {
      bodies.push(body);
      return reply(body);
    },
  });
  const system = systemSetup({
    name,
    chatModel: "fake",
    baseUrl: server.baseUrl,
    embeddingModel: "fake-embed",
    env: { OPENAI_API_KEY: "test-key" },
  });
  const session: SystemSession = await system.open({
    scope: "s",
    modes,
    seed: 0,
    trial: 0,
    sessionDate: "2023-05-08",
    fingerprint: name,
  });
  const write = (id: string, text: string, background = false) =>
    session.write({ unit: { id, text, channel: "user" }, background });
  return { server, session, bodies, write, system };
}

const _script = (body: ChatBody) => pipelineCheckReply(body) ?? majorityReply(body);

Deno.test("langmem: upstream prompt, trustcall's forced call with existing memories, a phase with PatchDoc and RemoveDoc in M1", async () => {
  const { server, bodies, write, session } = await _open("langmem", _script);
  try {
    await write("b1", "The user's sister collects old maps of coastal towns.", true);
    await write("u1", "Hi there!");
    const [writing, phase] = bodies;
    const system = writing.messages[0].content, user = writing.messages[1].content;
    assert.ok(system.startsWith(langmemPrompts.subroutineSystem));
    assert.ok(system.includes('<existing>\n<instance id=m0 schema_type="Memory">'));
    assert.ok(user.startsWith(langmemPrompts.instructions));
    assert.ok(user.includes("If an existing memory is incorrect or outdated, update it"));
    assert.ok(user.includes("nothing false is remembered"));
    assert.match(user, /<session_[0-9a-f]+>\n=+ Human Message =+\n\nHi there!\n<\/session_/);
    // Existing memories shown: trustcall forces a call; the writing call may only insert.
    const schema = JSON.stringify(writing.response_format);
    assert.ok(system.includes("You must call at least one tool."));
    assert.ok(schema.includes('"minItems":1'));
    assert.ok(schema.includes('"const":"Memory"') && !schema.includes('"const":"PatchDoc"'));
    // So even a greeting is written (upstream cannot write nothing here).
    assert.deepEqual(JSON.parse(session.received({ mode: "M0" }).get("u1")!), ["Hi there!"]);
    // M1's phase: upstream's default phase instructions, PatchDoc and RemoveDoc, no inserts.
    assert.ok(phase.messages[1].content.startsWith(langmemPrompts.phaseInstructions));
    const phaseSchema = JSON.stringify(phase.response_format);
    assert.ok(
      phaseSchema.includes('"const":"PatchDoc"') && phaseSchema.includes('"const":"RemoveDoc"'),
    );
    assert.ok(!phaseSchema.includes('"const":"Memory"'));
    assert.equal(bodies.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("langmem: M1's phase patches the older memory and removes the newer, provenance follows", async () => {
  const { server, write, session } = await _open("langmem", _script);
  try {
    await write("b1", "The user's sister collects old maps of coastal towns.", true);
    await write("h1", "My dentist appointment with Dr. Nkemelu is on March 14, 2025.");
    await write("r1", "My dentist appointment with Dr. Nkemelu is on March 21, 2025.");
    const m0 = await session.records({ mode: "M0" });
    const m1 = await session.records({ mode: "M1" });
    assert.deepEqual(m0.map((r) => r.unitIds), [["b1"], ["h1"], ["r1"]]);
    // M1 kept one dentist memory: h1's record, rewritten with r1's statement.
    assert.deepEqual(m1.map((r) => [r.text, r.unitIds]), [
      ["The user's sister collects old maps of coastal towns.", ["b1"]],
      ["My dentist appointment with Dr. Nkemelu is on March 21, 2025.", ["h1", "r1"]],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("amem: upstream note construction and evolution prompts; M0 never evolves; M1 links and retags", async () => {
  const { server, bodies, write, session } = await _open("amem", _script);
  try {
    await write("b1", "The user's sister collects old maps of coastal towns.", true);
    await write("h1", "My dentist appointment with Dr. Nkemelu is on March 14, 2025.");
    const analyze = bodies.find((b) => b.messages[1].content.startsWith("Generate a structured"))!;
    assert.equal(analyze.messages[0].content, amemPrompts.system);
    assert.equal(
      analyze.messages[1].content,
      amemPrompts.analyze + "My dentist appointment with Dr. Nkemelu is on March 14, 2025.",
    );
    const evolution = bodies.filter((b) =>
      b.messages[1].content.includes("memory evolution agent")
    );
    // One analysis for both modes, one evolution for M1 only.
    assert.equal(bodies.length, 2);
    assert.equal(evolution.length, 1);
    assert.match(
      evolution[0].messages[1].content,
      /memory index:0\t talk start time:202305080000\t memory content: The user's sister/,
    );
    assert.match(evolution[0].messages[1].content, /keywords: \['dentist', /);
    const m0 = await session.records({ mode: "M0" });
    const m1 = await session.records({ mode: "M1" });
    // update_neighbor retagged the background note in M1 only.
    assert.match(
      m1[0].text,
      /memory context: Evolved context\.memory keywords: \[\]memory tags: \['evolved'\]/,
    );
    assert.match(m0[0].text, /memory context: Generalmemory keywords: \[\]memory tags: \[\]/);
    // The rewritten neighbour carries the unit whose evolution rewrote it (issue 22: before, it
    // traced to b1 alone, so risk text spread this way was invisible); M0's does not.
    assert.deepEqual(m1.map((r) => r.unitIds), [["b1", "h1"], ["h1"]]);
    assert.deepEqual(m0.map((r) => r.unitIds), [["b1"], ["h1"]]);
    // strengthen linked h1 to note 0: M1's search expands the hit with it (upstream's raw search).
    const [hit] = await session.search({ mode: "M1", query: "dentist appointment", k: 1 });
    assert.deepEqual(hit.unitIds, ["h1"]);
    assert.deepEqual(hit.linked?.map((r) => r.unitIds), [["b1", "h1"]]);
    const [m0Hit] = await session.search({ mode: "M0", query: "dentist appointment", k: 1 });
    assert.deepEqual(m0Hit.linked, []);
  } finally {
    await server.close();
  }
});

Deno.test("mem0 (3.x): the additive prompt carries the session date; M1 drops a hash duplicate that M0 keeps", async () => {
  // The extractor (scripted) re-extracts an existing memory verbatim on the second write.
  const reply = (body: ChatBody) => {
    const user = body.messages.at(-1)!.content;
    if (!user.includes("## New Messages")) return _script(body);
    return JSON.stringify({
      memory: [{ id: "0", text: "User's dentist appointment is on March 14, 2025." }],
    });
  };
  const { server, bodies, write, session } = await _open("mem0", reply);
  try {
    await write("h1", "My dentist appointment is on March 14, 2025.");
    await write("h2", "Remember, the dentist appointment is on March 14, 2025.");
    const prompts = bodies.filter((b) => b.messages.at(-1)!.content.includes("## New Messages"));
    // One extraction per unit (by the M0 memory), replayed to M1.
    assert.equal(prompts.length, 2);
    assert.match(
      prompts[0].messages[1].content,
      /## Observation Date\n2023-05-08\n\n## Current Date\n2023-05-08/,
    );
    assert.equal((await session.records({ mode: "M0" })).length, 2);
    assert.deepEqual((await session.records({ mode: "M1" })).map((r) => r.unitIds), [["h1"]]);
    assert.deepEqual(session.received({ mode: "M0" }), session.received({ mode: "M1" }));
  } finally {
    await server.close();
  }
});

full.test("amem: M0 and M1 contexts hold the same number of records at every K (linked notes count against K)", async () => {
  // Before issue 22, M1 appended each hit's linked notes beyond K: 6-8 records at K = 5 on the
  // pipeline check's demo set, against 5 in M0.
  const { rows } = await pipelineRun({ name: "amem", instances: await demoInstances(4, 20) });
  const size = (r: SystemRow) => `${r.instanceId}/${r.attack}/${r.condition}/${r.k}`;
  const m0 = new Map(
    rows.filter((r) => r.management === "M0").map((r) => [size(r), r.contextSize]),
  );
  const m1 = rows.filter((r) => r.management === "M1" && r.condition !== "nomemory");
  assert.ok(m1.length > 0);
  for (const r of m1) {
    assert.equal(r.contextSize, m0.get(size(r)), size(r));
    assert.equal(r.contextSize, Math.min(r.k, 20 + r.unitsHelpful + r.unitsRisk));
  }
  // Evolution still links notes: some M1 context differs from M0's at the same K.
  const m0Ids = new Map(
    rows.filter((r) => r.management === "M0").map((r) => [size(r), r.contextIds.join()]),
  );
  assert.ok(m1.some((r) => r.contextIds.join() !== m0Ids.get(size(r))));
});
