/**
 * A local stand-in for a Hindsight server, answering as `hindsight-api` 0.9.1 does
 * (vectorize-io/hindsight@e5b49eb, `hindsight_api/api/http.py`, `engine/memories/pg/curation.py`)
 * on the endpoints the kit's adapter uses: `/version`, create, update and delete a bank, retain,
 * list memories, get one memory, recall, list operations and LLM request traces; on 127.0.0.1
 * at an ephemeral port. As 0.9.1 does: list items carry no `source_memory_ids` (only
 * `GET /memories/{id}` of an observation does), lists are most recent first, recall without
 * `types` returns `world` and `experience` facts only, and recall results carry
 * `source_fact_ids` only when `include.source_facts` is asked for. Retain keeps sentences of six
 * or more words as `world` facts (document id as given). With observations on, consolidation
 * runs like Hindsight's: as a background operation after the retain returns (after
 * `consolidationDelayMs`), deduplicated per bank; each new fact joins the observation it
 * overlaps most (token Jaccard >= 0.3; the observation takes the fact's text and adds it to its
 * sources) or starts a new one; facts get `consolidated_at`. Every extraction and consolidation
 * is traced as an LLM request of the configured provider and model.
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
  /** When it was written or last changed (0.9.1 lists most recent first). */
  mentionedAt: string;
}

interface _Trace {
  id: string;
  operation: "retain" | "consolidation";
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
  traces: _Trace[];
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
  /** `api_version` of `/version`; default "0.9.1". */
  version?: string;
  /** The LLM the server's traces name; default provider "stand-in", model "fake-hindsight-llm". */
  llm?: { provider: string; model: string };
} = {}): FakeHindsight {
  const delay = options.consolidationDelayMs ?? 20;
  const llm = options.llm ?? { provider: "stand-in", model: "fake-hindsight-llm" };
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
    const facts = bank.memories.filter((m) => m.type === "world" && !m.consolidatedAt);
    if (facts.length > 0) bank.traces.push({ id: `t${next++}`, operation: "consolidation" });
    for (const fact of facts) {
      const best = bank.memories.filter((x) => x.type === "observation")
        .map((o) => ({ o, s: tokenJaccard(o.text, fact.text) })).sort((a, b) => b.s - a.s)[0];
      if (best && best.s >= 0.3) {
        best.o.text = fact.text;
        best.o.sources.push(fact.id);
        best.o.mentionedAt = now();
      } else {
        bank.memories.push({
          id: `o${next++}`,
          text: fact.text,
          type: "observation",
          documentId: null,
          sources: [fact.id],
          consolidatedAt: null,
          mentionedAt: now(),
        });
      }
      fact.consolidatedAt = now();
    }
    op.status = "completed";
  };
  // A memory unit as 0.9.1's list (`list_memory_units`) and get (`get_memory_unit`) return it.
  const listItem = (x: _Memory) => ({
    id: x.id,
    text: x.text,
    context: "",
    date: "",
    fact_type: x.type,
    document_id: x.documentId,
    mentioned_at: x.mentionedAt,
    occurred_start: null,
    occurred_end: null,
    entities: "",
    chunk_id: null,
    proof_count: x.type === "observation" ? x.sources.length : 1,
    tags: [],
    metadata: {},
    consolidated_at: x.consolidatedAt,
    consolidation_failed_at: null,
    state: "valid",
    invalidation_reason: null,
    invalidated_at: null,
    edited_at: null,
  });
  const getItem = (bank: _Bank, x: _Memory) => ({
    id: x.id,
    text: x.text,
    context: "",
    date: "",
    type: x.type,
    mentioned_at: x.mentionedAt,
    occurred_start: null,
    occurred_end: null,
    entities: [],
    document_id: x.documentId,
    chunk_id: null,
    tags: [],
    metadata: {},
    observation_scopes: null,
    state: "valid",
    invalidation_reason: null,
    invalidated_at: null,
    edited_at: null,
    ...(x.type === "observation" && {
      history: [],
      source_memory_ids: [...x.sources],
      source_memories: x.sources.flatMap((id) => {
        const m = bank.memories.find((y) => y.id === id);
        return m ? [{ id, text: m.text, type: m.type, context: "", occurred_start: null }] : [];
      }),
    }),
  });

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/version") {
      calls.push("GET /version");
      return json({
        api_version: options.version ?? "0.9.1",
        features: {
          observations: true,
          mcp: false,
          worker: true,
          bank_config_api: false,
          bank_llm_health: false,
          file_upload_api: false,
          document_export_api: false,
          document_import_api: false,
          audit_log: false,
          llm_trace: true,
          store_document_text: true,
        },
      });
    }
    const m =
      /^\/v1\/default\/banks\/([^/]+)(\/memories(\/list|\/recall|\/[^/]+)?|\/operations|\/llm-requests)?$/
        .exec(url.pathname);
    if (!m) return json({ detail: "not found" }, 404);
    const bankId = decodeURIComponent(m[1]);
    const body = req.method === "GET" || req.method === "DELETE"
      ? {}
      : await req.json().catch(() => ({}));
    const one = m[3] && m[3] !== "/list" && m[3] !== "/recall"
      ? decodeURIComponent(m[3].slice(1))
      : null;
    const route = `${req.method} ${one !== null ? "/memories/{id}" : m[2] ?? ""}`;
    calls.push(route);
    if (route === "PUT " || route === "PATCH ") {
      const bank = banks.get(bankId) ??
        { observations: false, memories: [], operations: [], traces: [] };
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
        bank.traces.push({ id: `t${next++}`, operation: "retain" });
        for (const sentence of String(item.content).split(/(?<=[.!?])\s+/)) {
          if (tokenWords(sentence).length < 6) continue;
          bank.memories.push({
            id: `f${next++}`,
            text: sentence,
            type: "world",
            documentId: item.document_id ?? null,
            sources: [],
            consolidatedAt: null,
            mentionedAt: now(),
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
      // Most recent first (`ORDER BY mentioned_at DESC NULLS LAST, created_at DESC`).
      const ordered = bank.memories.map((x, i) => ({ x, i })).sort((a, b) =>
        a.x.mentionedAt < b.x.mentionedAt ? 1 : a.x.mentionedAt > b.x.mentionedAt ? -1 : b.i - a.i
      ).map(({ x }) => x);
      const items = ordered.slice(offset, offset + limit).map(listItem);
      return json({ items, total: bank.memories.length, limit, offset });
    }
    if (route === "GET /memories/{id}") {
      const x = bank.memories.find((y) => y.id === one);
      if (!x) return json({ detail: `Memory unit '${one}' not found` }, 404);
      return json(getItem(bank, x));
    }
    if (route === "POST /memories/recall") {
      // Without `types`, world and experience facts only (observations excluded).
      const types: string[] = Array.isArray(body.types) && body.types.length > 0
        ? body.types
        : ["world", "experience"];
      const sourceFacts = body.include?.source_facts != null;
      const results = bank.memories.filter((x) => types.includes(x.type))
        .map((x) => ({ x, s: tokenJaccard(x.text, String(body.query)) }))
        .sort((a, b) => b.s - a.s).slice(0, 20)
        .map(({ x }) => ({
          id: x.id,
          text: x.text,
          type: x.type,
          document_id: x.documentId,
          source_fact_ids: sourceFacts && x.type === "observation" ? [...x.sources] : null,
        }));
      return json({ results });
    }
    if (route === "GET /llm-requests") {
      const items = [...bank.traces].reverse().map((t) => ({
        id: t.id,
        bank_id: bankId,
        operation: t.operation,
        scope: null,
        trace_id: t.id,
        span_id: null,
        parent_span_id: null,
        provider: llm.provider,
        model: llm.model,
        status: "success",
        started_at: null,
        ended_at: null,
        duration_ms: 1,
        input_tokens: null,
        output_tokens: null,
        cached_tokens: null,
        total_tokens: null,
        input: null,
        output: null,
        error: null,
        llm_info: {},
        metadata: {},
      }));
      const limit = Number(url.searchParams.get("limit") ?? 50);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      return json({
        bank_id: bankId,
        total: items.length,
        limit,
        offset,
        items: items.slice(offset, offset + limit),
      });
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
