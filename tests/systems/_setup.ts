/** Shared set-up for the systems tests: the scripted local server and a tiny demo sweep. */
import {
  type FakeServer,
  majorityReply,
  type Reply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { pipelineCheckReply } from "../../lib/systems/pipeline_check_reply.ts";
import type { SystemEndpoint } from "../../lib/systems/memory_system.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/model/instance.ts";

/** A fake server answering the systems' prompts with the pipeline-check script. */
export function startSystemsServer(options: { reply?: Reply } = {}): FakeServer {
  return startFakeOpenAIServer({
    reply: options.reply ?? ((body) => pipelineCheckReply(body) ?? majorityReply(body)),
  });
}

/** The endpoint of a fake server. */
export function endpointOf(server: FakeServer): SystemEndpoint {
  return {
    baseUrl: server.baseUrl,
    apiKey: "test-key",
    model: "fake",
    embeddingModel: "fake-embed",
  };
}

/** The first `n` demo instances with a bank of `bankSize`. */
export async function demoInstances(n: number, bankSize = 20): Promise<Instance[]> {
  return (await loadDataset({ name: "demo", seed: 0, bankSize, traceLoad: 1 })).slice(0, n);
}
