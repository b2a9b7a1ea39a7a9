/** A small in-memory vector index for the ported systems: id, text, vector; cosine top-K. */
import { cosine, type Embedder } from "./embeddings.ts";

/**
 * Insert, replace, remove and search by cosine similarity; ties keep insertion order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { VectorIndex } from "./vector_index.ts";
 * const index = new VectorIndex({ embedder: { model: "m", embed: (t) => Promise.resolve(t.map((s) => [s.length, 1])) } });
 * await index.put({ id: "a", text: "aa" });
 * assert.deepEqual((await index.search({ query: "aa", k: 1 })).map((r) => r.id), ["a"]);
 * ```
 */
export class VectorIndex {
  #embedder: Embedder;
  #rows = new Map<string, { text: string; vector: number[] }>();
  constructor(options: {
    /** Embedder for texts and queries. */
    embedder: Embedder;
  }) {
    this.#embedder = options.embedder;
  }
  /** Insert or replace a row; `embedText` (default `text`) is what gets embedded. */
  async put(options: { id: string; text: string; embedText?: string }): Promise<void> {
    const [vector] = await this.#embedder.embed([options.embedText ?? options.text]);
    this.#rows.set(options.id, { text: options.text, vector });
  }
  /** Remove a row (no-op for an unknown id). */
  remove(id: string): void {
    this.#rows.delete(id);
  }
  /** Every row, in insertion order. */
  list(): { id: string; text: string }[] {
    return [...this.#rows.entries()].map(([id, r]) => ({ id, text: r.text }));
  }
  /** Top-K rows by cosine similarity to the query, with scores. */
  async search(options: { query: string; k: number }): Promise<
    { id: string; text: string; score: number }[]
  > {
    const [q] = await this.#embedder.embed([options.query]);
    return [...this.#rows.entries()]
      .map(([id, r]) => ({ id, text: r.text, score: cosine(q, r.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.k);
  }
}
