/**
 * The scripted stand-ins of a pipeline check: a local server answering the systems' prompts
 * with `pipelineCheckReply` and deterministic embeddings, and a local Hindsight stand-in that
 * consolidates asynchronously. Rows from these endpoints are pipeline checks, never
 * measurements of the systems. The same script answers a dry run in process, without a server.
 */
import type { CacheMiss, ChatResult } from "../models/model_client.ts";
import { pipelineCheckReply } from "./pipeline_check_reply.ts";

/** Running pipeline-check endpoints; `close()` stops them. */
export interface PipelineCheck {
  /** OpenAI-compatible base URL (chat completions and embeddings), ending in `/v1`. */
  baseUrl: string;
  /** Base URL of the Hindsight stand-in. */
  hindsightUrl: string;
  /** Chat and embedding requests the stand-in has answered so far. */
  requests(): number;
  /** Requests the Hindsight stand-in has answered so far. */
  hindsightRequests(): number;
  close(): Promise<void>;
}

/** The banner every pipeline-check run prints. */
export const PIPELINE_CHECK_BANNER =
  "PIPELINE CHECK: the systems' model, embedder and Hindsight server are scripted local " +
  "stand-ins. These rows check the pipeline; they are not measurements of the systems.";

/** Embedding dimensions of the stand-in. */
const _DIMS = 64;

/**
 * Start the stand-ins on 127.0.0.1 at ephemeral ports.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startPipelineCheck } from "./pipeline_check.ts";
 * const check = await startPipelineCheck({});
 * try { assert.match(check.baseUrl, /^http:\/\/127\.0\.0\.1:/); } finally { await check.close(); }
 * ```
 */
export async function startPipelineCheck(options: {
  /** The Hindsight stand-in's consolidation delay in ms; default 5. */
  consolidationDelayMs?: number;
}): Promise<PipelineCheck> {
  // The scripted servers are only loaded when a pipeline check runs.
  const { startFakeOpenAIServer, majorityReply } = await import(
    "../testing/fake_openai_server.ts"
  );
  const { startFakeHindsight } = await import("../testing/fake_hindsight_server.ts");
  const server = startFakeOpenAIServer({
    reply: (body) => pipelineCheckReply(body) ?? majorityReply(body),
    embeddingDims: _DIMS,
  });
  const hindsight = startFakeHindsight({
    consolidationDelayMs: options.consolidationDelayMs ?? 5,
  });
  return {
    baseUrl: server.baseUrl,
    hindsightUrl: hindsight.baseUrl,
    requests: () => server.requests,
    hindsightRequests: () => hindsight.calls.length,
    close: async () => {
      await server.close();
      await hindsight.close();
    },
  };
}

/**
 * What a dry run answers instead of the endpoint: the pipeline-check script for chat requests
 * (with the stand-in's token counts) and the stand-in's embeddings, computed in process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dryRunAnswers } from "./pipeline_check.ts";
 * const answers = await dryRunAnswers();
 * assert.equal((await answers.embed(["a b"]))[0].length, 64);
 * ```
 */
export async function dryRunAnswers(): Promise<{
  chat: (miss: CacheMiss) => Promise<ChatResult>;
  embed: (texts: string[]) => Promise<number[][]>;
}> {
  const { majorityReply, fakeEmbedding } = await import("../testing/fake_openai_server.ts");
  // A run caches every answer: a request asked twice is sent once.
  const answered = new Set<string>();
  return {
    chat: (miss) => {
      const body = miss.body as unknown as Parameters<typeof majorityReply>[0];
      const content = pipelineCheckReply(body) ?? majorityReply(body);
      const cacheHit = answered.has(miss.key);
      answered.add(miss.key);
      // The stand-in's token estimate, so a dry run's tokens match a pipeline check's.
      return Promise.resolve({
        content,
        reasoning: null,
        toolCalls: [],
        stopReason: "stop",
        cacheHit,
        promptTokens: JSON.stringify(body.messages ?? []).length >> 2,
        completionTokens: content.length >> 2,
      });
    },
    embed: (texts) => Promise.resolve(texts.map((t) => fakeEmbedding(t, _DIMS))),
  };
}
