/** Hindsight behind the adapter, through `@vectorize-io/hindsight-client` and a server the user runs. */
import { HindsightClient } from "@vectorize-io/hindsight-client";
import type {
  ManagementMode,
  MemorySystem,
  MemorySystemFactory,
  SystemRecord,
} from "./memory_system.ts";

/** The pinned client version, written into rows. */
export const HINDSIGHT_CLIENT_VERSION = "@vectorize-io/hindsight-client@0.9.1";

/**
 * A Hindsight factory: one bank per memory. M1 = the bank's observation consolidation on
 * (`enableObservations: true`), M0 = off. Every write is a synchronous `retain`; `list` pages
 * through `listMemories`; search is `recall` cut to K. Switching management updates the bank.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hindsightSystem } from "./hindsight.ts";
 * import { startPipelineCheck } from "./pipeline_check.ts";
 * const check = await startPipelineCheck(); // a local Hindsight stand-in, not the real server
 * try {
 *   const memory = await hindsightSystem({ baseUrl: check.hindsightUrl })({ scope: "ann", management: "M0" });
 *   await memory.write({ units: [{ id: "u1", text: "Ann's dog is called Rex.", channel: "user" }], background: true });
 *   const found = await memory.search({ query: "Ann's dog", k: 1 });
 *   assert.deepEqual(found.map((r) => r.text), ["Ann's dog is called Rex."]);
 *   await memory.close();
 * } finally { await check.close(); }
 * ```
 */
export function hindsightSystem(options: {
  /** The Hindsight server's base URL (without `/v1`). */
  baseUrl: string;
  /** API key, when the server wants one; default none. */
  apiKey?: string;
}): MemorySystemFactory {
  const client = new HindsightClient({
    baseUrl: options.baseUrl,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
  return async ({ scope, management }) => {
    let mode: ManagementMode = management;
    const bank = `memgauge-${scope}`;
    await client.createBank(bank, { enableObservations: mode === "M1" });
    let written = 0;
    const system: MemorySystem = {
      system: "Hindsight",
      version: HINDSIGHT_CLIENT_VERSION,
      get management() {
        return mode;
      },
      async setManagement(m) {
        mode = m;
        // Takes effect on the server for the following writes.
        await client.createBank(bank, { enableObservations: m === "M1" });
      },
      async write({ units, background }) {
        for (const u of units) {
          await client.retain(bank, u.text, {
            context: background ? "background" : `${u.channel} message`,
            // Logical time: keeps the order of writes for the temporal arm of recall.
            timestamp: new Date(Date.UTC(2025, 0, 1) + 60_000 * written++).toISOString(),
            async: false,
          });
        }
        return { touched: [] };
      },
      async list(): Promise<SystemRecord[]> {
        const out: SystemRecord[] = [];
        for (let offset = 0;; offset += 500) {
          const page = await client.listMemories(bank, { limit: 500, offset });
          out.push(...page.items.map((m) => ({ id: String(m.id), text: String(m.text ?? "") })));
          if (page.items.length < 500) return out;
        }
      },
      async search({ query, k }) {
        const res = await client.recall(bank, query, { budget: "mid" });
        return res.results.slice(0, k).map((r) => ({ id: r.id, text: r.text }));
      },
      close: () => Promise.resolve(),
    };
    return system;
  };
}
