/**
 * Mechanism `attention`: the agent does not read every record it is given. The chance of reading
 * a record falls with the size of the rest of the context, counted both in records (each is one
 * more item to attend to) and in words (a long context is read less closely), and with the number
 * of other records in it on the question's topic (similar records compete for the same
 * question). Switched off, every record is read. The draw that decides is keyed by record, not by context, so a record read in a
 * larger context is also read in a smaller one (the chance only moves the threshold).
 */
import type { Persona } from "../personas.ts";

/**
 * The chance that the persona reads one record:
 * `base / ((1 + perRecord * (contextSize - 1) + perKiloword * otherWords / 1000) *
 * (1 + perSimilar * similarOthers))`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { readChance } from "./attention.ts";
 * const p = PERSONAS.balanced;
 * assert.equal(readChance({ persona: p, contextSize: 1, otherWords: 0, similarOthers: 0 }), p.attention.base);
 * assert.ok(readChance({ persona: p, contextSize: 7, otherWords: 0, similarOthers: 0 }) < readChance({ persona: p, contextSize: 3, otherWords: 0, similarOthers: 0 }));
 * assert.ok(readChance({ persona: p, contextSize: 3, otherWords: 900, similarOthers: 0 }) < readChance({ persona: p, contextSize: 3, otherWords: 90, similarOthers: 0 }));
 * assert.ok(readChance({ persona: p, contextSize: 5, otherWords: 0, similarOthers: 3 }) < readChance({ persona: p, contextSize: 5, otherWords: 0, similarOthers: 0 }));
 * ```
 */
export function readChance(options: {
  /** The reading persona. */
  persona: Persona;
  /** Records in the context (K, or fewer when memory is smaller). */
  contextSize: number;
  /** Words in the other records of the context. */
  otherWords: number;
  /** Other records in the context on the question's topic. */
  similarOthers: number;
}): number {
  const { base, perRecord, perKiloword, perSimilar } = options.persona.attention;
  const crowd = 1 + perRecord * Math.max(0, options.contextSize - 1) +
    perKiloword * Math.max(0, options.otherWords) / 1000;
  const interference = 1 + perSimilar * Math.max(0, options.similarOthers);
  return base / (crowd * interference);
}
