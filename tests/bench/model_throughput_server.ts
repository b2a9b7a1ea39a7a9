/**
 * The throughput bench's provider, in its own process so the bench process's CPU time is the
 * client's alone: the fake server at a fixed latency, with 429s (Retry-After) and 500s decided
 * by a hash of the request's index, so runs are comparable. Started with its settings as JSON in
 * the first argument; prints its base URL; when stdin closes, prints the requests it answered
 * and exits.
 */
import {
  type ChatBody,
  type Fault,
  scriptedJson,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";

/** What the bench asks of the server. */
export interface ServerSettings {
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

// Answers differ by prompt, so every agent answer gets its own judge request.
function _reply(body: ChatBody): string {
  if (body.response_format !== undefined) return scriptedJson(body);
  const text = JSON.stringify(body.messages);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return `The value is ${(h >>> 0).toString(16)}.`;
}

if (import.meta.main) {
  const settings = JSON.parse(Deno.args[0]) as ServerSettings;
  const rate429 = settings.rate429 ?? 0, rate500 = settings.rate500 ?? 0;
  const server = startFakeOpenAIServer({
    latencyMs: settings.latencyMs,
    reply: _reply,
    retryAfterSeconds: settings.retryAfterSeconds ?? 1,
    faultFor: (n): Fault | null => {
      const u = _uniform(n);
      return u < rate429 ? "429" : u < rate429 + rate500 ? "500" : null;
    },
  });
  console.log(server.baseUrl);
  // Wait for the bench to close stdin.
  for await (const _ of Deno.stdin.readable) { /* nothing is sent */ }
  console.log(String(server.requests));
  await server.close();
}
