/** The model catalog (data/models.json) and how a `--model`/`--base-url` pair becomes an endpoint. */
import { z } from "zod";
import catalogJson from "../../data/models.json" with { type: "json" };

/** One catalog entry. */
export const ModelSpec = z.object({
  /** The id `--model` and `llm:ID` use. */
  id: z.string().min(1),
  /** The paper's name for the model. */
  label: z.string().min(1),
  provider: z.string().min(1),
  /** The model name the provider's API expects. */
  model: z.string().min(1),
  baseUrl: z.string().url(),
  /** Name of the environment variable holding the key (never the key itself). */
  apiKeyEnv: z.string().min(1),
  /** Whether the provider accepts a `seed` parameter. */
  seed: z.boolean(),
  /** Extra request parameters (e.g. a reasoning effort). */
  extra: z.record(z.string(), z.unknown()).default({}),
});
/** One catalog entry. */
export type ModelSpec = z.infer<typeof ModelSpec>;

/** The catalog file. */
export const ModelCatalog = z.object({ description: z.string(), models: z.array(ModelSpec) });

/** The shipped catalog, validated. */
export const MODEL_CATALOG: readonly ModelSpec[] = ModelCatalog.parse(catalogJson).models;

/** A resolved endpoint: everything a client needs; `apiKey` is held here and nowhere else. */
export interface ModelEndpoint {
  /** Row label, e.g. `gpt-5.4` or the raw model name for an uncatalogued endpoint. */
  id: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  /** Whether to send a seed. */
  seed: boolean;
  extra: Record<string, unknown>;
}

/**
 * Resolve a model id to an endpoint. A catalog id takes its base URL and key variable from the
 * catalog; `baseUrl` overrides the URL (and then any name not in the catalog is accepted as the
 * provider's model name, keyed by `apiKeyEnv`, default `OPENAI_API_KEY`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveModelEndpoint } from "./model_catalog.ts";
 * const e = resolveModelEndpoint({ id: "my-model", baseUrl: "http://127.0.0.1:1/v1", env: { OPENAI_API_KEY: "k" } });
 * assert.equal(e.model, "my-model");
 * assert.throws(() => resolveModelEndpoint({ id: "nope", env: {} }), /--model: unknown model "nope"/);
 * ```
 */
export function resolveModelEndpoint(options: {
  /** Catalog id or, with `baseUrl`, any model name. */
  id: string;
  /** Base URL override; default the catalog's. */
  baseUrl?: string;
  /** Key variable for uncatalogued models; default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** Environment to read the key from; default `Deno.env.toObject()`. */
  env?: Readonly<Record<string, string | undefined>>;
}): ModelEndpoint {
  const env = options.env ?? Deno.env.toObject();
  const spec = MODEL_CATALOG.find((m) => m.id === options.id);
  if (!spec && options.baseUrl === undefined) {
    throw new RangeError(
      `--model: unknown model ${JSON.stringify(options.id)} (expected one of ${
        MODEL_CATALOG.map((m) => m.id).join(", ")
      }, or pass --base-url for any other endpoint)`,
    );
  }
  const keyEnv = options.apiKeyEnv ?? spec?.apiKeyEnv ?? "OPENAI_API_KEY";
  const apiKey = env[keyEnv];
  if (apiKey === undefined || apiKey === "") {
    throw new RangeError(
      `--model ${options.id}: environment variable ${keyEnv} is not set (it must hold the API key)`,
    );
  }
  return {
    id: options.id,
    model: spec?.model ?? options.id,
    baseUrl: options.baseUrl ?? spec!.baseUrl,
    apiKey,
    seed: spec?.seed ?? true,
    extra: spec?.extra ?? {},
  };
}
