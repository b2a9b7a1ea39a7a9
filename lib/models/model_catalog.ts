/**
 * The model catalog (data/models.json): each model's endpoint and what that endpoint accepts,
 * and how a `--model`/`--base-url`/`--model-option` combination becomes an endpoint.
 */
import { z } from "zod";
import catalogJson from "../../data/models.json" with { type: "json" };

/** The strongest structured output an endpoint takes; below `json_schema` the schema is prompted. */
export const ResponseFormatSupport = z.enum(["json_schema", "json_object", "none"]);
/** The strongest structured output an endpoint takes. */
export type ResponseFormatSupport = z.infer<typeof ResponseFormatSupport>;

/** Name of the output-limit parameter (OpenAI's reasoning models take only the second). */
export const MaxTokensParam = z.enum(["max_tokens", "max_completion_tokens"]);
/** Name of the output-limit parameter. */
export type MaxTokensParam = z.infer<typeof MaxTokensParam>;

/** List prices in USD per 1M tokens, with the date they were written down. */
export const ModelPrices = z.object({
  inputPer1M: z.number().nonnegative(),
  outputPer1M: z.number().nonnegative(),
  /** Share taken off for the Batch API (0.5 = half price); null when no batch price is known. */
  batchDiscount: z.number().min(0).max(1).nullable(),
  currency: z.literal("USD").default("USD"),
  /** Date the prices were written down (YYYY-MM-DD). */
  read: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** False when they were not read from the provider's price page: check them. */
  verified: z.boolean(),
  /** Where the figures come from. */
  basis: z.string().default(""),
});
/** List prices in USD per 1M tokens. */
export type ModelPrices = z.infer<typeof ModelPrices>;

/** What an endpoint accepts: decides the body the client sends. */
export const ModelCapabilities = z.object({
  /** Temperature sent with every request; null: none is sent (the provider's default applies). */
  temperature: z.number().min(0).max(2).nullable(),
  /** Whether a seed is sent. */
  seed: z.boolean(),
  responseFormat: ResponseFormatSupport,
  maxTokensParam: MaxTokensParam,
  /** Output limit sent with every request (reasoning plus answer). */
  maxTokens: z.number().int().positive(),
  /** Sent as `reasoning_effort` when not null. */
  reasoningEffort: z.string().min(1).nullable(),
});
/** What an endpoint accepts. */
export type ModelCapabilities = z.infer<typeof ModelCapabilities>;

/** Capabilities of an endpoint that is not in the catalog (any OpenAI-compatible server). */
export const DEFAULT_CAPABILITIES: Readonly<ModelCapabilities> = {
  temperature: 0,
  seed: true,
  responseFormat: "json_schema",
  maxTokensParam: "max_tokens",
  maxTokens: 4096,
  reasoningEffort: null,
};

/** One catalog entry. */
export const ModelSpec = z.object({
  /** The id `--model` and `llm:ID` use. */
  id: z.string().min(1),
  /** The paper's name for the model. */
  label: z.string().min(1),
  provider: z.string().min(1),
  /** The model name the provider's API expects. */
  model: z.string().min(1),
  /** Whether `model` was checked against the provider's model list. */
  modelConfirmed: z.boolean(),
  /** Caveats about the entry. */
  note: z.string().default(""),
  baseUrl: z.string().url(),
  /** Name of the environment variable holding the key (never the key itself). */
  apiKeyEnv: z.string().min(1),
  ...ModelCapabilities.shape,
  prices: ModelPrices.nullable(),
  /** Further request parameters sent as they are; default none. */
  extra: z.record(z.string(), z.unknown()).default({}),
});
/** One catalog entry. */
export type ModelSpec = z.infer<typeof ModelSpec>;

/** The catalog file. */
export const ModelCatalog = z.object({ description: z.string(), models: z.array(ModelSpec) });

/** The shipped catalog, validated. */
export const MODEL_CATALOG: readonly ModelSpec[] = ModelCatalog.parse(catalogJson).models;

/**
 * A resolved endpoint: everything a client needs; `apiKey` is held here and nowhere else.
 * Capabilities left out take {@link DEFAULT_CAPABILITIES}.
 */
export interface ModelEndpoint extends Partial<ModelCapabilities> {
  /** Row label, e.g. `gpt-5.4` or the raw model name for an uncatalogued endpoint. */
  id: string;
  model: string;
  /** The base URL; with replicas, the first of `baseUrls` (the one cache keys name). */
  baseUrl: string;
  /**
   * Replicas serving the same model (vLLM, SGLang): requests are spread over them, each with
   * its own limiter, and a failing one is skipped; default `[baseUrl]`. Cache keys name
   * `baseUrl` only, whichever replica answered.
   */
  baseUrls?: string[];
  apiKey: string;
  /** Whether to send a seed. */
  seed: boolean;
  extra: Record<string, unknown>;
  /** List prices; null or absent when unknown. */
  prices?: ModelPrices | null;
}

/** Keys `--model-option ID.key=value` can set, with the type of their value. */
export const MODEL_OPTION_KEYS = {
  model: z.string().min(1),
  ...ModelCapabilities.shape,
  "prices.inputPer1M": ModelPrices.shape.inputPer1M,
  "prices.outputPer1M": ModelPrices.shape.outputPer1M,
  "prices.batchDiscount": ModelPrices.shape.batchDiscount,
} as const;
/** A key `--model-option` can set. */
export type ModelOptionKey = keyof typeof MODEL_OPTION_KEYS;
/** Overrides of one model's entry, by key. */
export type ModelOverrides = Partial<Record<ModelOptionKey, unknown>>;

/**
 * Resolve a model id to an endpoint. A catalog id takes its URL, key variable and capabilities
 * from the catalog. With `baseUrl` the URL is replaced, any name not in the catalog is accepted
 * as the provider's model name, and the key is read from `apiKeyEnv` (default `OPENAI_API_KEY`),
 * never from the catalog provider's variable: a local server or proxy does not want that key.
 * `overrides` (from `--model-option`) replace catalog values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveModelEndpoint } from "./model_catalog.ts";
 * const e = resolveModelEndpoint({ id: "my-model", baseUrl: "http://127.0.0.1:1/v1", env: { OPENAI_API_KEY: "k" } });
 * assert.equal(e.model, "my-model");
 * const g = resolveModelEndpoint({ id: "gpt-5.4", env: { OPENAI_API_KEY: "k" }, overrides: { maxTokens: 512 } });
 * assert.equal(g.temperature, null);
 * assert.equal(g.maxTokens, 512);
 * assert.throws(() => resolveModelEndpoint({ id: "nope", env: {} }), /--model: unknown model "nope"/);
 * ```
 */
export function resolveModelEndpoint(options: {
  /** Catalog id or, with `baseUrl`, any model name. */
  id: string;
  /**
   * Base URL override, or several separated by commas (replicas of the model, the first named
   * in cache keys); default the catalog's.
   */
  baseUrl?: string;
  /** Key variable with `baseUrl`; default `OPENAI_API_KEY`. Without `baseUrl`, the catalog's. */
  apiKeyEnv?: string;
  /** Environment to read the key from; default `Deno.env.toObject()`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Values that replace the catalog's (`--model-option`); default none. */
  overrides?: ModelOverrides;
}): ModelEndpoint & ModelCapabilities {
  const env = options.env ?? Deno.env.toObject();
  const spec = MODEL_CATALOG.find((m) => m.id === options.id);
  if (!spec && options.baseUrl === undefined) {
    throw new RangeError(
      `--model: unknown model ${JSON.stringify(options.id)} (expected one of ${
        MODEL_CATALOG.map((m) => m.id).join(", ")
      }, or pass --base-url for any other endpoint)`,
    );
  }
  const keyEnv = options.baseUrl !== undefined
    ? options.apiKeyEnv ?? "OPENAI_API_KEY"
    : options.apiKeyEnv ?? spec!.apiKeyEnv;
  const apiKey = env[keyEnv];
  if (apiKey === undefined || apiKey === "") {
    throw new RangeError(
      `--model ${options.id}: environment variable ${keyEnv} is not set (it must hold the API key${
        options.baseUrl !== undefined
          ? "; with --base-url, pass --api-key-env NAME for another"
          : ""
      })`,
    );
  }
  const o = options.overrides ?? {};
  const capabilities: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_CAPABILITIES) as (keyof ModelCapabilities)[]) {
    capabilities[key] = key in o ? o[key] : spec ? spec[key] : DEFAULT_CAPABILITIES[key];
  }
  const checked = ModelCapabilities.safeParse(capabilities);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new RangeError(
      `--model-option ${options.id}.${issue.path.join(".")}: ${issue.message}`,
    );
  }
  const urls = options.baseUrl?.split(",").map((u) => u.trim()).filter((u) => u !== "");
  return {
    id: options.id,
    model: (o.model as string | undefined) ?? spec?.model ?? options.id,
    baseUrl: urls?.[0] ?? spec!.baseUrl,
    ...(urls && urls.length > 1 && { baseUrls: urls }),
    apiKey,
    ...checked.data,
    prices: _prices(options.id, spec?.prices ?? null, o),
    extra: spec?.extra ?? {},
  };
}

function _prices(id: string, base: ModelPrices | null, o: ModelOverrides): ModelPrices | null {
  const keys = ["inputPer1M", "outputPer1M", "batchDiscount"] as const;
  if (!keys.some((k) => `prices.${k}` in o)) return base;
  const merged = {
    inputPer1M: base?.inputPer1M,
    outputPer1M: base?.outputPer1M,
    batchDiscount: base?.batchDiscount ?? null,
    ...Object.fromEntries(
      keys.filter((k) => `prices.${k}` in o).map((k) => [k, o[`prices.${k}`]]),
    ),
    currency: "USD",
    read: new Date().toISOString().slice(0, 10),
    verified: false,
    basis: "--model-option",
  };
  const parsed = ModelPrices.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RangeError(
      `--model-option ${id}.prices.${issue.path.join(".")}: ${issue.message} (a model without ` +
        "catalog prices needs both prices.inputPer1M and prices.outputPer1M)",
    );
  }
  return parsed.data;
}
