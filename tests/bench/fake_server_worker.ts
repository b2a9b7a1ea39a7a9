/** The fake server in a worker thread, so the bench measures the client, not a shared event loop. */
import { type Fault, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const self = globalThis as unknown as {
  onmessage: (e: MessageEvent) => void;
  postMessage: (m: unknown) => void;
};

/** What the bench asks of the worker's server. */
export interface WorkerStart {
  start: true;
  latencyMs: number;
  /** Share of requests answered 429 (with Retry-After) and 500; default 0. */
  rate429?: number;
  rate500?: number;
  /** Retry-After of a 429 in seconds; default 1. */
  retryAfterSeconds?: number;
}

// A request's fault is a fixed function of its index (a hash), so runs are comparable.
function _uniform(n: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

let server: ReturnType<typeof startFakeOpenAIServer> | undefined;
self.onmessage = async (e: MessageEvent) => {
  if (e.data.start) {
    const start = e.data as WorkerStart;
    const rate429 = start.rate429 ?? 0, rate500 = start.rate500 ?? 0;
    server = startFakeOpenAIServer({
      latencyMs: start.latencyMs,
      reply: () => "The value is 1.",
      retryAfterSeconds: start.retryAfterSeconds ?? 1,
      faultFor: (n): Fault | null => {
        const u = _uniform(n);
        return u < rate429 ? "429" : u < rate429 + rate500 ? "500" : null;
      },
    });
    self.postMessage({ baseUrl: server.baseUrl });
  } else if (e.data.stop) {
    const requests = server!.requests;
    await server!.close();
    self.postMessage({ requests });
  }
};
