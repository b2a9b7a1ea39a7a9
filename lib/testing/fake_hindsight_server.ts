/**
 * A local stand-in for a Hindsight server that implements only the endpoints the kit's adapter
 * uses (create/update bank, retain, list memories, recall), on 127.0.0.1 at an ephemeral port.
 * Extraction keeps sentences of six or more words as facts; with observations on, each fact is
 * consolidated into the observation it overlaps most (token Jaccard >= 0.3), or a new one.
 */
import { tokenJaccard, tokenWords } from "../text/token_jaccard.ts";

/** A running fake Hindsight server. */
export interface FakeHindsight {
  /** Base URL (without `/v1`). */
  baseUrl: string;
  /** Requests received by path pattern. */
  calls: string[];
  close(): Promise<void>;
}

interface _Memory {
  id: string;
  text: string;
  type: "world" | "observation";
}

/**
 * Start the fake; close it in a `finally`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startFakeHindsight } from "./fake_hindsight_server.ts";
 * const server = startFakeHindsight();
 * try { assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/); } finally { await server.close(); }
 * ```
 */
export function startFakeHindsight(): FakeHindsight {
  const banks = new Map<string, { observations: boolean; memories: _Memory[] }>();
  let next = 0;
  const calls: string[] = [];
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json" },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const m = /^\/v1\/default\/banks\/([^/]+)(\/memories(\/list|\/recall)?)?$/.exec(url.pathname);
    if (!m) return json({ detail: "not found" }, 404);
    const bankId = decodeURIComponent(m[1]);
    const body = req.method === "GET" ? {} : await req.json().catch(() => ({}));
    const route = `${req.method} ${m[2] ?? ""}`;
    calls.push(route);
    if (route === "PUT ") {
      const bank = banks.get(bankId) ?? { observations: false, memories: [] };
      if (typeof body.enable_observations === "boolean") {
        bank.observations = body.enable_observations;
      }
      banks.set(bankId, bank);
      return json({ bank_id: bankId, name: bankId, enable_observations: bank.observations });
    }
    const bank = banks.get(bankId);
    if (!bank) return json({ detail: `bank ${bankId} not found` }, 404);
    if (route === "POST /memories") {
      for (const item of body.items ?? []) {
        for (const sentence of String(item.content).split(/(?<=[.!?])\s+/)) {
          if (tokenWords(sentence).length < 6) continue;
          bank.memories.push({ id: `f${next++}`, text: sentence, type: "world" });
          if (!bank.observations) continue;
          const best = bank.memories.filter((x) => x.type === "observation")
            .map((o) => ({ o, s: tokenJaccard(o.text, sentence) })).sort((a, b) => b.s - a.s)[0];
          if (best && best.s >= 0.3) best.o.text = sentence;
          else bank.memories.push({ id: `o${next++}`, text: sentence, type: "observation" });
        }
      }
      return json({
        success: true,
        bank_id: bankId,
        items_count: body.items?.length ?? 0,
        async: false,
      });
    }
    if (route === "GET /memories/list") {
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const items = bank.memories.slice(offset, offset + limit)
        .map((x) => ({ id: x.id, text: x.text, fact_type: x.type }));
      return json({ items, total: bank.memories.length, limit, offset });
    }
    if (route === "POST /memories/recall") {
      const results = bank.memories.map((x) => ({ x, s: tokenJaccard(x.text, String(body.query)) }))
        .sort((a, b) => b.s - a.s).slice(0, 20)
        .map(({ x }) => ({ id: x.id, text: x.text, type: x.type }));
      return json({ results });
    }
    return json({ detail: `unsupported ${route}` }, 404);
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    calls,
    close: () => server.shutdown(),
  };
}
