/** A server-side DOM for Plot: Deno has no `document`, so figures draw into linkedom's. */
import { parseHTML } from "linkedom";

/**
 * A fresh, empty HTML document that Plot can draw into (`Plot.plot({ document })`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createDocument } from "./dom.ts";
 * assert.equal(createDocument().createElement("figure").tagName.toLowerCase(), "figure");
 * ```
 */
export function createDocument(): Document {
  return parseHTML("<!doctype html><html><head></head><body></body></html>")
    .document as unknown as Document;
}
