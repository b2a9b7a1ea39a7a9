/**
 * A local stand-in for a Hindsight server with the endpoints the kit's adapter uses (create,
 * update and delete a bank, retain, list memories, recall, list operations), on 127.0.0.1 at an
 * ephemeral port. Retain keeps sentences of six or more words as `world` facts (document id as
 * given). With observations on, consolidation runs like Hindsight's: as a background operation
 * after the retain returns (after `consolidationDelayMs`), deduplicated per bank; each new fact
 * joins the observation it overlaps most (token Jaccard >= 0.3; the observation takes the
 * fact's text and adds it to `source_memory_ids`) or starts a new one; facts get
 * `consolidated_at`.
 */
import { tokenJaccard, tokenWords } from "../text/token_jaccard.ts";

/** A running fake Hindsight server. */
export interface FakeHindsight {
  /** Base URL (without `/v1`). */
  baseUrl: string;
  /** Requests received, as "METHOD route". */
  calls: string[];
  close(): Promise<void>;
}

interface _Memory {
  id: string;
  text: string;
  type: "world" | "observation";
  documentId: string | null;
  sources: string[];
  consolidatedAt: string | null;
}

interface _Operation {
  id: string;
  task_type: "consolidation";
  status: "pending" | "processing" | "completed";
  created_at: string;
}

interface _Bank {
  observations: boolean;
  memories: _Memory[];
  operations: _Operation[];
}

/**
 * Start the fake; close it in a `finally`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startFakeHindsight } from "./fake_hindsight_server.ts";
 * const server = startFakeHindsight({});
 * try { assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/); } finally { await server.close(); }
 * ```
 */
export function startFakeHindsight(options: {
  /** Time between a retain and its consolidation, in ms; default 20. */
  consolidationDelayMs?: number;
} = {}): FakeHindsight {
  const delay = options.consolidationDelayMs ?? 20;
  const banks = new Map<string, _Bank>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let next = 0;
  const calls: string[] = [];
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json" },
    });
  const now = () => new Date(Date.UTC(2025, 0, 1) + next * 1000).toISOString();

  const consolidate = (bank: _Bank, op: _Operation) => {
    op.status = "processing";
    for (const fact of bank.memories.filter((m) => m.type === "world" && !m.consolidatedAt)) {
      const best = bank.memories.filter((x) => x.type === "observation")
        .map((o) => ({ o, s: tokenJaccard(o.text, fact.text) })).sort((a, b) => b.s - a.s)[0];
      if (best && best.s >= 0.3) {
        best.o.text = fact.text;
        best.o.sources.push(fact.id);
      } else {
        bank.memories.push({
          id: `o${next++}`,
          text: fact.text,
          type: "observation",
          documentId: null,
          sources: [fact.id],
          consolidatedAt: null,
        });
      }
      fact.consolidatedAt = now();
    }
    op.status = "completed";
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const m = /^\/v1\/default\/banks\/([^/]+)(\/memories(\/list|\/recall)?|\/operations)?$/
      .exec(url.pathname);
    if (!m) return json({ detail: "not found" }, 404);
    const bankId = decodeURIComponent(m[1]);
    const body = req.method === "GET" || req.method === "DELETE"
      ? {}
      : await req.json().catch(() => ({}));
    const route = `${req.method} ${m[2] ?? ""}`;
    calls.push(route);
    if (route === "PUT " || route === "PATCH ") {
      const bank = banks.get(bankId) ?? { observations: false, memories: [], operations: [] };
      if (typeof body.enable_observations === "boolean") {
        bank.observations = body.enable_observations;
      }
      banks.set(bankId, bank);
      return json({ bank_id: bankId, name: bankId, enable_observations: bank.observations });
    }
    if (route === "DELETE ") {
      if (!banks.delete(bankId)) return json({ detail: `bank ${bankId} not found` }, 404);
      return json({ success: true });
    }
    const bank = banks.get(bankId);
    if (!bank) return json({ detail: `bank ${bankId} not found` }, 404);
    if (route === "POST /memories") {
      for (const item of body.items ?? []) {
        for (const sentence of String(item.content).split(/(?<=[.!?])\s+/)) {
          if (tokenWords(sentence).length < 6) continue;
          bank.memories.push({
            id: `f${next++}`,
            text: sentence,
            type: "world",
            documentId: item.document_id ?? null,
            sources: [],
            consolidatedAt: null,
          });
        }
      }
      if (bank.observations) {
        // Hindsight deduplicates consolidation per bank: a pending one takes the new facts too.
        let op = bank.operations.find((o) => o.status === "pending");
        if (!op) {
          op = {
            id: `op${next++}`,
            task_type: "consolidation",
            status: "pending",
            created_at: now(),
          };
          bank.operations.push(op);
          const pending = op;
          const timer = setTimeout(() => {
            timers.delete(timer);
            consolidate(bank, pending);
          }, delay);
          timers.add(timer);
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
      const items = bank.memories.slice(offset, offset + limit).map((x) => ({
        id: x.id,
        text: x.text,
        fact_type: x.type,
        document_id: x.documentId,
        source_memory_ids: x.sources,
        consolidated_at: x.consolidatedAt,
        consolidation_failed_at: null,
      }));
      return json({ items, total: bank.memories.length, limit, offset });
    }
    if (route === "POST /memories/recall") {
      const types: string[] | null = Array.isArray(body.types) ? body.types : null;
      const results = bank.memories.filter((x) => !types || types.includes(x.type))
        .map((x) => ({ x, s: tokenJaccard(x.text, String(body.query)) }))
        .sort((a, b) => b.s - a.s).slice(0, 20)
        .map(({ x }) => ({ id: x.id, text: x.text, type: x.type, document_id: x.documentId }));
      return json({ results });
    }
    if (route === "GET /operations") {
      const type = url.searchParams.get("type");
      const status = url.searchParams.get("status");
      const operations = bank.operations.filter((o) =>
        (!type || o.task_type === type) && (!status || o.status === status)
      ).reverse().map((o) => ({ ...o, items_count: 0, error_message: null }));
      return json({ bank_id: bankId, total: operations.length, limit: 100, offset: 0, operations });
    }
    return json({ detail: `unsupported ${route}` }, 404);
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    calls,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await server.shutdown();
    },
  };
}
