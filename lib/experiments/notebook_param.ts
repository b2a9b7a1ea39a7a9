/**
 * One knob of a notebook's parameters cell: its default, overridden by `MEMGAUGE_<NAME>` from the
 * environment (so `deno task notebooks` and CI can set it), parsed by the type of the default.
 */

/** Values a knob can take. */
export type ParamValue = string | number | boolean | readonly number[] | readonly string[];

type _Widen<T> = T extends string ? string
  : T extends number ? number
  : T extends boolean ? boolean
  : T extends readonly number[] ? number[]
  : T extends readonly string[] ? string[]
  : never;

function _number(name: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value)) {
    throw new TypeError(`MEMGAUGE_${name}: expected a number, got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * The knob `name`: `MEMGAUGE_<NAME>` when it is set and not empty, else `fallback`. The text is
 * read as the fallback's type: a number, `true`/`false`, a comma-separated list of numbers or of
 * strings, or a string. A value that does not parse is an error naming the variable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { param } from "./notebook_param.ts";
 * const env = { MEMGAUGE_GRID: "0,0.5,1", MEMGAUGE_N: "6" };
 * assert.deepEqual(param("GRID", [0, 0.25, 1], { env }), [0, 0.5, 1]);
 * assert.equal(param("N", 28, { env }), 6);
 * assert.equal(param("DATASET", "demo", { env }), "demo");
 * assert.throws(() => param("N", 28, { env: { MEMGAUGE_N: "many" } }), /MEMGAUGE_N: expected a number/);
 * ```
 */
export function param<T extends ParamValue>(
  name: string,
  fallback: T,
  options: {
    /** Environment; default the process environment (nothing without env permission). */
    env?: Readonly<Record<string, string | undefined>>;
    /** Allowed values (strings, or each item of a string list); default any. */
    choices?: readonly string[];
    /** Item type of a list whose fallback is empty; default the fallback's first item's type. */
    of?: "number" | "string";
  } = {},
): _Widen<T> {
  let text: string | undefined;
  try {
    text = options.env ? options.env[`MEMGAUGE_${name}`] : Deno.env.get(`MEMGAUGE_${name}`);
  } catch {
    text = undefined;
  }
  const check = (value: string) => {
    if (options.choices && !options.choices.includes(value)) {
      throw new RangeError(
        `MEMGAUGE_${name}: expected one of ${options.choices.join(", ")}, got ${
          JSON.stringify(value)
        }`,
      );
    }
    return value;
  };
  if (text === undefined || text.trim() === "") {
    if (typeof fallback === "string" && fallback !== "") check(fallback);
    return (Array.isArray(fallback) ? [...fallback] : fallback) as _Widen<T>;
  }
  if (typeof fallback === "number") return _number(name, text) as _Widen<T>;
  if (typeof fallback === "boolean") {
    if (!/^(true|false|1|0)$/i.test(text.trim())) {
      throw new TypeError(`MEMGAUGE_${name}: expected true or false, got ${JSON.stringify(text)}`);
    }
    return /^(true|1)$/i.test(text.trim()) as _Widen<T>;
  }
  if (Array.isArray(fallback)) {
    const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
    const numeric = options.of
      ? options.of === "number"
      : fallback.length > 0 && typeof fallback[0] === "number";
    return (numeric ? items.map((s) => _number(name, s)) : items.map(check)) as _Widen<T>;
  }
  return check(text.trim()) as _Widen<T>;
}
