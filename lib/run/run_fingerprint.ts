/**
 * The fingerprint of a run: everything that shapes its model requests (each model's endpoint,
 * name and options as resolved, the judge, the writer, the ranker, the seed, the prompts). It
 * is stored in the run's manifest; `--resume` and `--retry-errors` compare it and refuse, in one
 * line naming what differs, to add rows of another run to a file.
 */
import { agentPrompts } from "../agents/memory_prompt.ts";
import type { Agent } from "../agents/agent.ts";
import type { Judge } from "../judges/judge.ts";
import { stableId } from "../schema/stable_id.ts";
import type { ModelClient } from "../models/model_client.ts";
import { RANKER_PROMPT, RANKING_FORMAT } from "../stages/writing/rankers/llm.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { WRITER_FORMAT, WRITER_PROMPT } from "../stages/writing/writers/llm.ts";

/** What shapes a run's requests, by part: each part compared (and named) on its own. */
export type RunFingerprint = Record<string, unknown>;

/** What a model client sends, apart from the messages: its endpoint and options, no key. */
function _endpoint(client: ModelClient): Record<string, unknown> {
  const e = client.endpoint;
  return {
    url: e.baseUrl.replace(/\/+$/, ""),
    model: e.model,
    temperature: e.temperature,
    seed: e.seed,
    responseFormat: e.responseFormat,
    maxTokensParam: e.maxTokensParam,
    maxTokens: e.maxTokens,
    reasoningEffort: e.reasoningEffort,
    ...(Object.keys(e.extra).length > 0 && { extra: e.extra }),
  };
}

/**
 * The fingerprint of a run over `client(id)`'s models. Replicas of a model are not part of it
 * (which one answered does not change a request), its first base URL is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelSetup } from "./model_setup.ts";
 * import { runFingerprint } from "./run_fingerprint.ts";
 * const setup = (options: string[]) => modelSetup({ cachePath: ":memory:", baseUrl: "http://127.0.0.1:9/v1", judge: "llm:self", modelOptions: options, env: { OPENAI_API_KEY: "k" } });
 * const print = (options: string[]) => { const m = setup(options); return runFingerprint({ client: m.client, agents: m.agents(["llm:m"]), judge: m.judge, writer: m.writer, ranker: "llm:self", seed: 0 }); };
 * assert.deepEqual(print([]), print([]));
 * assert.notDeepEqual(print([]), print(["m.temperature=0.9"]));
 * ```
 */
export function runFingerprint(options: {
  /** The run's model clients by id (`ModelSetup.client`). */
  client: (id: string) => ModelClient;
  /** The run's agents (model agents carry their client). */
  agents: readonly Agent[];
  judge: Judge;
  writer: Writer;
  /** The writing-stage ranker id (`llm:self`, `llm:MODEL` or an offline one). */
  ranker: string;
  seed: number;
}): RunFingerprint {
  const { agents, judge, writer, ranker } = options;
  const models = new Map<string, ModelClient>();
  const add = (client: ModelClient | undefined) => {
    if (client) models.set(client.endpoint.id, client);
  };
  const agentClients = agents.map((a) => (a as Agent & { client?: ModelClient }).client);
  agentClients.forEach(add);
  const selfJudged = judge.forAgent !== undefined;
  if (judge.model !== undefined && !selfJudged) add(options.client(judge.model));
  if (writer.id.startsWith("llm:")) add(options.client(writer.id.slice(4)));
  if (ranker.startsWith("llm:") && ranker !== "llm:self") add(options.client(ranker.slice(4)));
  const usesModel = models.size > 0;
  return {
    seed: options.seed,
    judge: { id: judge.id, prompts: judge.promptHash ?? null },
    writer: writer.id.startsWith("llm:")
      ? { id: writer.id, prompt: stableId({ WRITER_PROMPT, WRITER_FORMAT }) }
      : writer.id,
    ranker: ranker.startsWith("llm:")
      ? { id: ranker, prompt: stableId({ RANKER_PROMPT, RANKING_FORMAT }) }
      : ranker,
    ...(usesModel && {
      "agent prompt": stableId({
        prompts: agentPrompts(),
        placement: agents.map((a) => a.memoryPlacement ?? null),
      }),
    }),
    ...Object.fromEntries(
      [...models.keys()].sort().map((id) => [`model ${id}`, _endpoint(models.get(id)!)]),
    ),
  };
}

function _show(value: unknown): string {
  if (value === undefined || value === null) return "unset";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * What differs between two fingerprints, one phrase per part (for an object part, its fields
 * that differ), e.g. `model m: model m there, other-m here`. Empty when they are the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprintDifferences } from "./run_fingerprint.ts";
 * const there = { seed: 0, "model m": { model: "m", temperature: 0 } };
 * const here = { seed: 0, "model m": { model: "m", temperature: 0.9 } };
 * assert.deepEqual(fingerprintDifferences({ there, here }), ["model m: temperature 0 there, 0.9 here"]);
 * ```
 */
export function fingerprintDifferences(options: {
  there: RunFingerprint;
  here: RunFingerprint;
}): string[] {
  const { there, here } = options;
  const out: string[] = [];
  for (const part of [...new Set([...Object.keys(there), ...Object.keys(here)])]) {
    const a = there[part], b = here[part];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const objects = a && b && typeof a === "object" && typeof b === "object";
    if (!objects) {
      out.push(`${part}: ${_show(a)} there, ${_show(b)} here`);
      continue;
    }
    const fa = a as Record<string, unknown>, fb = b as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(fa), ...Object.keys(fb)])]
      .filter((f) => JSON.stringify(fa[f]) !== JSON.stringify(fb[f]))
      .map((f) => `${f} ${_show(fa[f])} there, ${_show(fb[f])} here`);
    out.push(`${part}: ${fields.join(", ")}`);
  }
  return out;
}
