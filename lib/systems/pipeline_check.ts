/**
 * Start the local scripted endpoints of a pipeline check: the test server answering the systems'
 * prompts with `pipelineCheckReply` and deterministic embeddings, plus a local Hindsight stand-in.
 * Rows from these endpoints are pipeline checks, never measurements of the systems.
 */
import type { SystemEndpoint } from "./memory_system.ts";
import { pipelineCheckReply } from "./pipeline_check_reply.ts";

/** Running pipeline-check endpoints; `close()` stops them. */
export interface PipelineCheck {
  endpoint: SystemEndpoint;
  hindsightUrl: string;
  close(): Promise<void>;
}

/** The banner every pipeline-check run prints. */
export const PIPELINE_CHECK_BANNER =
  "PIPELINE CHECK: the system's model and embedder are a scripted local server. " +
  "These rows check the pipeline; they are not measurements of the system.";

/**
 * Start the endpoints on 127.0.0.1 at ephemeral ports.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startPipelineCheck } from "./pipeline_check.ts";
 * const check = await startPipelineCheck();
 * try { assert.match(check.endpoint.baseUrl, /^http:\/\/127\.0\.0\.1:/); } finally { await check.close(); }
 * ```
 */
export async function startPipelineCheck(): Promise<PipelineCheck> {
  // The scripted servers are only loaded when a pipeline check runs.
  const { startFakeOpenAIServer, majorityReply } = await import(
    "../testing/fake_openai_server.ts"
  );
  const { startFakeHindsight } = await import("../testing/fake_hindsight_server.ts");
  const server = startFakeOpenAIServer({
    reply: (body) => pipelineCheckReply(body) ?? majorityReply(body),
  });
  const hindsight = startFakeHindsight();
  return {
    endpoint: {
      baseUrl: server.baseUrl,
      apiKey: "pipeline-check",
      model: "pipeline-check",
      embeddingModel: "pipeline-check-embed",
    },
    hindsightUrl: hindsight.baseUrl,
    close: async () => {
      await server.close();
      await hindsight.close();
    },
  };
}
