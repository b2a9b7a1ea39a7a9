/** The registry of existing memory systems: names the CLI accepts, what each needs, adapters. */
import type { RequestLimiter } from "../models/request_limiter.ts";
import type { ResponseCache } from "../models/response_cache.ts";
import { amemSystem } from "./amem/amem_system.ts";
import { hindsightSystem } from "./hindsight.ts";
import { langmemSystem } from "./langmem/langmem_system.ts";
import { mem0ClassicSystem } from "./mem0/mem0_classic_system.ts";
import { mem0System } from "./mem0/mem0_system.ts";
import type { MemorySystem } from "./memory_system.ts";
import type { SystemPort } from "./system_port.ts";

/** What a system needs from the user. */
export interface SystemSpec {
  /** `--system` name. */
  name: string;
  /** Display name (the paper's tables). */
  display: string;
  /** Whether the kit calls a chat model and an embedding model for it. */
  needsModels: boolean;
  /** Whether it needs a server the user runs (`--hindsight-url`). */
  needsServer: boolean;
  /** One line for help and the README. */
  summary: string;
}

/** Every system the kit has an adapter for, in the order the paper's tables list them. */
export const SYSTEMS: readonly SystemSpec[] = [
  {
    name: "mem0",
    display: "Mem0",
    needsModels: true,
    needsServer: false,
    summary: "mem0ai 3.3.1 in process, what `npm install mem0ai` gives today",
  },
  {
    name: "mem0-classic",
    display: "Mem0",
    needsModels: true,
    needsServer: false,
    summary: "mem0ai 2.4.6 in process, with the ADD/UPDATE/DELETE decision step",
  },
  {
    name: "hindsight",
    display: "Hindsight",
    needsModels: false,
    needsServer: true,
    summary: "your Hindsight server through @vectorize-io/hindsight-client 0.9.1",
  },
  {
    name: "langmem",
    display: "LangMem",
    needsModels: true,
    needsServer: false,
    summary: "TypeScript port of langmem@b5dbe4a with trustcall@8c7312b",
  },
  {
    name: "amem",
    display: "A-MEM",
    needsModels: true,
    needsServer: false,
    summary: "TypeScript port of WujiangXu/A-mem@0c8039f, the NeurIPS paper's code",
  },
];

/** System names the kit has adapters for. */
export const SYSTEM_NAMES: readonly string[] = SYSTEMS.map((s) => s.name);

/**
 * The spec of a system name; a RangeError naming the option for an unknown one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemSpec } from "./resolve_system.ts";
 * assert.equal(systemSpec("amem").display, "A-MEM");
 * assert.throws(() => systemSpec("zep"), /--system: unknown system "zep"/);
 * ```
 */
export function systemSpec(name: string): SystemSpec {
  const spec = SYSTEMS.find((s) => s.name === name);
  if (!spec) {
    throw new RangeError(
      `--system: unknown system ${JSON.stringify(name)} (expected one of ${
        SYSTEM_NAMES.join(", ")
      })`,
    );
  }
  return spec;
}

/**
 * The adapter for a system name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSystem } from "./resolve_system.ts";
 * import { SystemPort } from "./system_port.ts";
 * const port = new SystemPort({ chat: null, embedder: null });
 * assert.equal(resolveSystem({ name: "langmem", port }).system, "LangMem");
 * assert.throws(() => resolveSystem({ name: "zep", port }), /--system: unknown system "zep"/);
 * ```
 */
export function resolveSystem(options: {
  /** One of {@link SYSTEM_NAMES}. */
  name: string;
  /** The system's chat model and embedder (all but Hindsight). */
  port: SystemPort;
  /** Hindsight server base URL; required for "hindsight". */
  hindsightUrl?: string;
  /** Hindsight API key; default none. */
  hindsightApiKey?: string;
  /** First poll interval while Hindsight consolidates, in ms; default the adapter's (50). */
  hindsightPollMs?: number;
  /** The kit's response cache (Hindsight keeps finished sessions there); default none. */
  cache?: ResponseCache;
  /** The kit's request limiter (Hindsight's requests go through it); default a private one. */
  limiter?: RequestLimiter;
  /**
   * A plugin system's own options by key (`--system-option KEY=VALUE`, checked by
   * `systemOptions` against the ones it declares); the built-ins take none. Default none.
   */
  systemOptions?: Readonly<Record<string, string>>;
}): MemorySystem {
  return _MAKERS[systemSpec(options.name).name](options);
}

/** Options of {@link resolveSystem}. */
type _ResolveOptions = Parameters<typeof resolveSystem>[0];

/** One maker per built-in adapter, by name: a name not listed here is never made. */
const _MAKERS: Readonly<Record<string, (options: _ResolveOptions) => MemorySystem>> = {
  mem0: ({ port }) => mem0System({ port }),
  "mem0-classic": ({ port }) => mem0ClassicSystem({ port }),
  langmem: ({ port }) => langmemSystem({ port }),
  amem: ({ port }) => amemSystem({ port }),
  hindsight: (options) => {
    if (!options.hindsightUrl) {
      throw new TypeError(
        "--system hindsight needs --hindsight-url URL (the Hindsight server you run)",
      );
    }
    return hindsightSystem({
      baseUrl: options.hindsightUrl,
      apiKey: options.hindsightApiKey,
      cache: options.cache,
      limiter: options.limiter,
      pollMs: options.hindsightPollMs,
    });
  },
};
