/**
 * Hindsight behind the adapter, through `@vectorize-io/hindsight-client` 0.9.1 and a server the
 * user runs (`hindsight-api` 0.9.1 or later). Hindsight extracts facts on `retain`; with
 * observations on, a background job then consolidates facts into observations that name their
 * sources (`source_memory_ids`, which 0.9.1 serves on `GET /memories/{id}`, not in lists).
 */
import { createClient, createConfig, HindsightClient, sdk } from "@vectorize-io/hindsight-client";
import { stableId } from "../schema/stable_id.ts";
import { redact } from "../models/redact.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { cacheKey, type ResponseCache } from "../models/response_cache.ts";
import type {
  ManagementMode,
  MemorySystem,
  OpenSessionOptions,
  SessionDescription,
  SystemSession,
  TracedRecord,
} from "./memory_system.ts";

/** The pinned client version, written into rows. */
export const HINDSIGHT_CLIENT_VERSION = "@vectorize-io/hindsight-client@0.9.1";

/** The oldest server the adapter reads lineage from (vectorize-io/hindsight v0.9.1, e5b49eb). */
export const HINDSIGHT_MIN_SERVER = "0.9.1";

/** What a Hindsight server says about itself. */
export interface HindsightServerInfo {
  /** `api_version` of `GET /version`. */
  apiVersion: string;
}

function _older(version: string, than: string): boolean {
  const parts = (v: string) => v.split(/[.+-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
  const [a, b] = [parts(version), parts(than)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/**
 * Ask a Hindsight server for its version (`GET /version`). A RangeError naming
 * `--hindsight-url` when the server is older than {@link HINDSIGHT_MIN_SERVER} or answers no
 * version; an Error when it cannot be reached.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hindsightServerInfo } from "./hindsight.ts";
 * import { startFakeHindsight } from "../testing/fake_hindsight_server.ts";
 * const server = startFakeHindsight({ version: "0.8.6" });
 * try {
 *   await assert.rejects(hindsightServerInfo({ baseUrl: server.baseUrl }),
 *     /--hindsight-url .*: the server runs hindsight-api 0\.8\.6; the adapter needs 0\.9\.1 or later/);
 * } finally { await server.close(); }
 * ```
 */
export async function hindsightServerInfo(options: {
  /** The server's base URL. */
  baseUrl: string;
  /** API key, when the server wants one; default none. */
  apiKey?: string;
}): Promise<HindsightServerInfo> {
  const raw = createClient(createConfig({
    baseUrl: options.baseUrl,
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
  }));
  const res = await sdk.getVersion({ client: raw });
  const where = `--hindsight-url ${redact({ text: options.baseUrl })}`;
  const version = (res.data as { api_version?: unknown } | undefined)?.api_version;
  if (typeof version !== "string") {
    throw new RangeError(
      `${where}: GET /version answered no api_version (HTTP ${res.response?.status ?? "error"}); ` +
        `the adapter needs hindsight-api ${HINDSIGHT_MIN_SERVER} or later`,
    );
  }
  if (_older(version, HINDSIGHT_MIN_SERVER)) {
    throw new RangeError(
      `${where}: the server runs hindsight-api ${version}; the adapter needs ` +
        `${HINDSIGHT_MIN_SERVER} or later (pip install hindsight-api==${HINDSIGHT_MIN_SERVER})`,
    );
  }
  return { apiVersion: version };
}

/** Requests a Hindsight system sent to its server, by kind. */
export interface HindsightStats {
  retain: number;
  recall: number;
  list: number;
  /** `GET /memories/{id}` of observations, for their `source_memory_ids`. */
  memory: number;
  operations: number;
  bank: number;
  /** `GET /version` and the bank's LLM request traces (the server's models). */
  info: number;
  /** Sessions answered from the kit's cache without a request. */
  replayed: number;
  /** Extraction tokens the server reported for synchronous retains. */
  serverTokens: number;
}

/** Options of {@link hindsightSystem}. */
export interface HindsightSystemOptions {
  /** The Hindsight server's base URL (without `/v1`). */
  baseUrl: string;
  /** API key, when the server wants one; default none. */
  apiKey?: string;
  /** The kit's response cache: a finished session is kept there and a rerun sends nothing. */
  cache?: ResponseCache;
  /** Shared limiter for the server's requests; default a private one with concurrency 8. */
  limiter?: RequestLimiter;
  /** Longest wait for consolidation after one retain, in ms; default 600000. */
  consolidationTimeoutMs?: number;
  /** First poll interval in ms (doubles up to 2 s); default 50. */
  pollMs?: number;
}

interface _Item {
  id: string;
  text: string;
  factType: string;
  documentId: string | null;
  /** Sources of an observation, from `GET /memories/{id}`; [] for facts. */
  sources: string[];
  /** Observations: text and proof count, so lineage is fetched again only when they change. */
  lineageKey: string;
  consolidated: boolean;
}

const _FACTS = ["world", "experience"];
const _ALL_TYPES = ["world", "experience", "observation"];

/** A finished session's answers, in call order per mode (calls of two modes may interleave). */
interface _Transcript {
  records: Record<string, TracedRecord[][]>;
  searches: Record<string, TracedRecord[][]>;
  received: Record<string, Record<string, string>>;
  described?: SessionDescription;
}

/**
 * A Hindsight system: one bank per session, observations on when M1 is measured. Every unit is
 * one synchronous `retain` with the unit's id as document id; after each retain the adapter
 * waits until the bank's consolidation operations are done and every fact is consolidated
 * (bounded; a timeout is an error). Both modes read the same bank, so they share its extracted
 * facts by construction: M1 = recall over every type (facts and observations), M0 = recall over
 * facts only (`world`, `experience`), which is what a bank with observations off returns (the
 * consolidator writes observation rows only); both pass `types`, since 0.9.1's recall without
 * them returns facts only. Provenance comes from Hindsight itself: a fact traces to its document
 * (the unit), an observation to the facts in its `source_memory_ids`, read from
 * `GET /memories/{id}` (0.9.1's lists do not carry it) whenever its text or proof count changed.
 * Rows record the server's version (`GET /version`) and the models its LLM request traces name
 * (`GET /llm-requests`; null when tracing is off); 0.9.1 does not say its embedding model.
 * A finished session is kept in the kit's cache under its fingerprint, so a rerun sends no
 * request; an unfinished one starts over on a fresh bank.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hindsightSystem } from "./hindsight.ts";
 * assert.equal(hindsightSystem({ baseUrl: "http://127.0.0.1:9" }).system, "Hindsight");
 * ```
 */
export function hindsightSystem(
  options: HindsightSystemOptions,
): MemorySystem & { stats: HindsightStats } {
  const headers: Record<string, string> = options.apiKey
    ? { Authorization: `Bearer ${options.apiKey}` }
    : {};
  const client = new HindsightClient({
    baseUrl: options.baseUrl,
    ...options.apiKey && { apiKey: options.apiKey },
  });
  const raw = createClient(createConfig({ baseUrl: options.baseUrl, headers }));
  const limiter = options.limiter ?? new RequestLimiter({});
  const stats: HindsightStats = {
    retain: 0,
    recall: 0,
    list: 0,
    memory: 0,
    operations: 0,
    bank: 0,
    info: 0,
    replayed: 0,
    serverTokens: 0,
  };
  const send = <T>(kind: keyof HindsightStats, fn: () => Promise<T>) => {
    stats[kind]++;
    return limiter.run(fn);
  };
  // The server's version, asked once per system (a server too old is refused here too).
  let info: Promise<HindsightServerInfo> | null = null;
  const serverInfo = () =>
    info ??= send(
      "info",
      () => hindsightServerInfo({ baseUrl: options.baseUrl, apiKey: options.apiKey }),
    ).catch((e) => {
      info = null;
      throw e;
    });
  return {
    name: "hindsight",
    system: "Hindsight",
    version: HINDSIGHT_CLIENT_VERSION,
    chatModel: null,
    embeddingModel: null,
    stats,
    open: (open) => _session(open, { options, client, raw, send, stats, serverInfo }),
  };
}

async function _session(
  open: OpenSessionOptions,
  ctx: {
    options: HindsightSystemOptions;
    client: HindsightClient;
    raw: ReturnType<typeof createClient>;
    send: <T>(kind: keyof HindsightStats, fn: () => Promise<T>) => Promise<T>;
    stats: HindsightStats;
    serverInfo: () => Promise<HindsightServerInfo>;
  },
): Promise<SystemSession> {
  const { options, client, raw, send } = ctx;
  const observations = open.modes.includes("M1");
  const key = cacheKey({
    baseUrl: options.baseUrl,
    model: HINDSIGHT_CLIENT_VERSION,
    body: { fingerprint: open.fingerprint, modes: [...open.modes].sort(), observations },
    trial: open.trial,
  });
  // The cache holds chat replies: a session is kept as one, its JSON as `content`.
  let recorded: _Transcript | undefined;
  try {
    const hit = options.cache?.get(key);
    recorded = hit ? JSON.parse(hit.content) : undefined;
  } catch {
    recorded = undefined;
  }
  if (recorded?.records && recorded.searches && recorded.received && recorded.described) {
    ctx.stats.replayed++;
    return _replay(recorded);
  }
  const server = await ctx.serverInfo();
  const bank = `memgauge-${stableId([open.scope, open.fingerprint, open.trial])}`;
  // A bank left by an interrupted run holds a partial session: start over.
  await send("bank", () => client.deleteBank(bank)).catch(() => {});
  await send("bank", () => client.createBank(bank, { enableObservations: observations }));
  const transcript: _Transcript = { records: {}, searches: {}, received: {} };
  const keep = (
    into: Record<string, TracedRecord[][]>,
    mode: ManagementMode,
    out: TracedRecord[],
  ) => (into[mode] ??= []).push(out);
  let failed = false;
  let written = 0;
  let items: _Item[] = [];

  // Lineage by observation id: what `GET /memories/{id}` said, and for which text and count.
  const lineage = new Map<string, { key: string; sources: string[] }>();
  const listAll = async (): Promise<_Item[]> => {
    const out: _Item[] = [];
    for (let offset = 0;; offset += 500) {
      const page = await send("list", () => client.listMemories(bank, { limit: 500, offset }));
      for (const m of page.items) {
        const factType = String(m.fact_type ?? "world");
        out.push({
          id: String(m.id),
          text: String(m.text ?? ""),
          factType,
          documentId: m.document_id ? String(m.document_id) : null,
          sources: [],
          lineageKey: JSON.stringify([m.text ?? "", m.proof_count ?? null]),
          consolidated: m.consolidated_at != null || m.consolidation_failed_at != null,
        });
      }
      if (page.items.length < 500) return out;
    }
  };

  // Each observation's sources, asked only for an observation that is new or has changed.
  const withLineage = async (list: _Item[]): Promise<_Item[]> => {
    for (const item of list.filter((i) => i.factType === "observation")) {
      const known = lineage.get(item.id);
      if (known?.key !== item.lineageKey) {
        const res = await send(
          "memory",
          () => sdk.getMemory({ client: raw, path: { bank_id: bank, memory_id: item.id } }),
        );
        const data = res.data as { source_memory_ids?: unknown } | undefined;
        if (!data) {
          throw new Error(
            `Hindsight getMemory ${item.id} failed: HTTP ${res.response?.status ?? "error"}`,
          );
        }
        const sources = Array.isArray(data.source_memory_ids)
          ? data.source_memory_ids.map(String)
          : [];
        lineage.set(item.id, { key: item.lineageKey, sources });
      }
      item.sources = lineage.get(item.id)!.sources;
    }
    return list;
  };

  // The models the server's LLM request traces name for this bank, by operation.
  const models = async (): Promise<string | null> => {
    const byOperation = new Map<string, Set<string>>();
    for (let offset = 0;; offset += 500) {
      const res = await send("info", () =>
        sdk.listLlmRequests({
          client: raw,
          path: { bank_id: bank },
          query: { limit: 500, offset },
        }));
      const items = (res.data as { items?: Record<string, unknown>[] } | undefined)?.items;
      if (!items) return null; // tracing off (HINDSIGHT_API_LLM_TRACE_ENABLED=false)
      for (const t of items) {
        if (!t.model) continue;
        const model = [t.provider, t.model].filter(Boolean).join("/");
        const op = String(t.operation ?? "other");
        byOperation.set(op, (byOperation.get(op) ?? new Set()).add(model));
      }
      if (items.length < 500) break;
    }
    const all = new Set([...byOperation.values()].flatMap((m) => [...m]));
    if (all.size === 0) return null;
    if (all.size === 1) return [...all][0];
    return [...byOperation.keys()].sort().map((op) =>
      `${op}: ${[...byOperation.get(op)!].sort().join(", ")}`
    ).join("; ");
  };

  const consolidationBusy = async (): Promise<boolean> => {
    const res = await send("operations", () =>
      sdk.listOperations({
        client: raw,
        path: { bank_id: bank },
        query: { type: "consolidation", limit: 100 },
      }));
    if (!res.data) {
      throw new Error(`Hindsight listOperations failed: ${JSON.stringify(res.error ?? null)}`);
    }
    return res.data.operations.some((op) => op.status === "pending" || op.status === "processing");
  };

  // After a retain: consolidation must have finished, every fact must say so.
  const settle = async () => {
    const deadline = Date.now() + (options.consolidationTimeoutMs ?? 600_000);
    for (let wait = options.pollMs ?? 50;; wait = Math.min(wait * 2, 2000)) {
      if (!await consolidationBusy()) {
        items = await listAll();
        if (items.every((i) => !_FACTS.includes(i.factType) || i.consolidated)) return;
      }
      if (Date.now() >= deadline) {
        throw new Error(
          `Hindsight: consolidation of bank ${bank} did not finish within ${
            options.consolidationTimeoutMs ?? 600_000
          } ms`,
        );
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  };

  const trace = (list: _Item[]) => {
    const byId = new Map(list.map((i) => [i.id, i]));
    return (item: _Item): string[] => {
      if (item.factType === "observation") {
        return [
          ...new Set(item.sources.flatMap((s) => byId.get(s)?.documentId ?? [])),
        ];
      }
      return item.documentId ? [item.documentId] : [];
    };
  };
  const visible = (mode: ManagementMode, i: _Item) => mode === "M1" || _FACTS.includes(i.factType);

  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      failed = true;
      throw e;
    }
  };

  return {
    write: ({ unit, background }) =>
      guard(async () => {
        const res = await send("retain", () =>
          client.retain(bank, unit.text, {
            context: background ? "background" : `${unit.channel} message`,
            // Logical time keeps the order of writes for recall's temporal arm.
            timestamp: new Date(Date.UTC(2025, 0, 1) + 60_000 * written++).toISOString(),
            documentId: unit.id,
            async: false,
          }));
        ctx.stats.serverTokens += (res.usage as { total_tokens?: number } | null | undefined)
          ?.total_tokens ?? 0;
        if (observations) await settle();
        else items = await listAll();
        items = await withLineage(items);
      }),
    records: ({ mode }) =>
      guard(() => {
        const t = trace(items);
        const out = items.filter((i) => visible(mode, i)).map((i): TracedRecord => ({
          storeId: i.id,
          text: i.text,
          unitIds: t(i),
        }));
        keep(transcript.records, mode, out);
        return Promise.resolve(out);
      }),
    search: ({ mode, query, k }) =>
      guard(async () => {
        const res = await send("recall", () =>
          ctx.client.recall(bank, query, {
            budget: "mid",
            // 0.9.1's recall without `types` returns facts only, so M1 names observations too.
            types: mode === "M0" ? _FACTS : _ALL_TYPES,
          }));
        const t = trace(items);
        const byId = new Map(items.map((i) => [i.id, i]));
        const out = res.results.slice(0, k).map((r): TracedRecord => {
          const item = byId.get(r.id);
          return {
            storeId: r.id,
            text: r.text,
            unitIds: item ? t(item) : r.document_id ? [r.document_id] : [],
          };
        });
        keep(transcript.searches, mode, out);
        return out;
      }),
    received({ mode }) {
      // The facts each unit's retain produced, as the mode reads them.
      const out = new Map<string, string>();
      const byUnit = new Map<string, string[]>();
      for (const i of items) {
        if (!_FACTS.includes(i.factType) || !i.documentId || !visible(mode, i)) continue;
        byUnit.set(i.documentId, [...(byUnit.get(i.documentId) ?? []), i.text]);
      }
      for (const [unit, texts] of byUnit) out.set(unit, JSON.stringify(texts.sort()));
      transcript.received[mode] = Object.fromEntries(out);
      return out;
    },
    describe: () =>
      guard(async () => {
        transcript.described = {
          systemVersion: `${HINDSIGHT_CLIENT_VERSION} + hindsight-api@${server.apiVersion}`,
          systemModel: await models(),
          embeddingModel: null,
        };
        return transcript.described;
      }),
    close() {
      // Only a session that ran to the end is kept: a rerun replays it without a request.
      if (!failed && Object.keys(transcript.searches).length > 0 && transcript.described) {
        options.cache?.set(key, { content: JSON.stringify(transcript) });
      }
      return Promise.resolve();
    },
  };
}

function _replay(t: _Transcript): SystemSession {
  const at = new Map<string, number>();
  const next = (from: Record<string, TracedRecord[][]>, mode: ManagementMode, what: string) => {
    const i = at.get(what + mode) ?? 0;
    at.set(what + mode, i + 1);
    const list = from[mode] ?? [];
    if (i >= list.length) {
      throw new Error(
        `Hindsight replay: the recorded session has no ${what} call ${i + 1} (${mode})`,
      );
    }
    return Promise.resolve(list[i]);
  };
  return {
    write: () => Promise.resolve(),
    records: ({ mode }) => next(t.records, mode, "records"),
    search: ({ mode }) => next(t.searches, mode, "search"),
    received: ({ mode }) => new Map(Object.entries(t.received[mode] ?? {})),
    describe: () => Promise.resolve(t.described!),
    close: () => Promise.resolve(),
  };
}
