/** The fake server in a worker thread, so the bench measures the client, not a shared event loop. */
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const self = globalThis as unknown as {
  onmessage: (e: MessageEvent) => void;
  postMessage: (m: unknown) => void;
};
let server: ReturnType<typeof startFakeOpenAIServer> | undefined;
self.onmessage = async (e: MessageEvent) => {
  if (e.data.start) {
    server = startFakeOpenAIServer({ latencyMs: e.data.latencyMs, reply: () => "The value is 1." });
    self.postMessage({ baseUrl: server.baseUrl });
  } else if (e.data.stop) {
    const requests = server!.requests;
    await server!.close();
    self.postMessage({ requests });
  }
};
