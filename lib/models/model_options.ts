/** Per-model overrides of the catalog, written `ID.key=value`, parsed and typed. */
import { FieldError } from "../schema/field_error.ts";
import {
  MODEL_CATALOG,
  MODEL_OPTION_KEYS,
  type ModelOptionKey,
  type ModelOverrides,
} from "./model_catalog.ts";

/**
 * Parse per-model overrides written `ID.key=value` into overrides by model id. `ID` is a catalog
 * id or, with a base URL for every model, any model name (ids may contain dots: the key is the
 * known suffix); `value` is typed by the key (`null` where a key allows it, numbers,
 * `true`/`false`, names). A bad one is a FieldError of `modelOptions`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseModelOptions } from "./model_options.ts";
 * const o = parseModelOptions({ specs: ["gpt-5.4.temperature=null", "gpt-5.4.maxTokens=2048"] });
 * assert.deepEqual(o.get("gpt-5.4"), { temperature: null, maxTokens: 2048 });
 * assert.throws(() => parseModelOptions({ specs: ["gpt-5.4.temp=0"] }), /modelOptions "gpt-5.4.temp=0": unknown key/);
 * ```
 */
export function parseModelOptions(options: {
  /** The overrides as written, `ID.key=value`. */
  specs: readonly string[];
  /** Whether a base URL serves every model (then any id is accepted); default false. */
  baseUrl?: boolean;
}): Map<string, ModelOverrides> {
  const keys = Object.keys(MODEL_OPTION_KEYS) as ModelOptionKey[];
  const out = new Map<string, ModelOverrides>();
  for (const spec of options.specs) {
    const bad = (detail: string): never => {
      throw new FieldError({ field: "modelOptions", value: JSON.stringify(spec), detail });
    };
    const eq = spec.indexOf("=");
    if (eq === -1) bad("expected ID.key=value");
    const lhs = spec.slice(0, eq), raw = spec.slice(eq + 1).trim();
    const key = keys.filter((k) => lhs.endsWith(`.${k}`)).sort((a, b) => b.length - a.length)[0];
    if (key === undefined) {
      bad(`unknown key (expected ID.KEY with KEY one of ${keys.join(", ")})`);
    }
    const id = lhs.slice(0, lhs.length - key.length - 1);
    if (id === "") bad("expected ID.key=value with a model id");
    if (!options.baseUrl && !MODEL_CATALOG.some((m) => m.id === id)) {
      bad(`unknown model ${JSON.stringify(id)} (expected a catalog id, or give a base URL)`);
    }
    let value: unknown = raw;
    if (raw === "null") value = null;
    else if (raw === "true" || raw === "false") value = raw === "true";
    else if (raw !== "" && Number.isFinite(Number(raw))) value = Number(raw);
    // A name that reads as a number (`model=1`) stays a name.
    if (key === "model" || key === "reasoningEffort") value = raw === "null" ? null : raw;
    const checked = MODEL_OPTION_KEYS[key].safeParse(value);
    if (!checked.success) bad(checked.error.issues[0].message);
    out.set(id, { ...out.get(id), [key]: checked.data });
  }
  return out;
}
