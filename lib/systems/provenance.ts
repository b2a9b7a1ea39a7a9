/** Kit-side provenance of system records: which source units each live record came from. */

/** A record as a store lists it: its own id and its text. */
export interface StoreRecord {
  id: string;
  text: string;
}

/** What one write changed, as the ledger saw it. */
export interface LedgerChange {
  added: string[];
  updated: string[];
  deleted: string[];
}

/**
 * Provenance kept by the kit, never by the system. After each write call the ledger compares
 * the system's records with what it knew: a new id traces to the call's input units (ADD); a
 * known id whose text changed, or that the system reported touching, traces to its old units
 * plus the input units (UPDATE); a known id that is gone is dropped (DELETE).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProvenanceLedger } from "./provenance.ts";
 * const ledger = new ProvenanceLedger();
 * ledger.apply({ inputUnitIds: ["u1"], after: [{ id: "r", text: "a" }], touched: [] });
 * ledger.apply({ inputUnitIds: ["u2"], after: [{ id: "r", text: "b" }], touched: [] });
 * assert.deepEqual(ledger.unitsOf("r"), ["u1", "u2"]);
 * ledger.apply({ inputUnitIds: ["u3"], after: [], touched: [] });
 * assert.deepEqual(ledger.retained({ unitIds: ["u1", "u2", "u3"] }), []);
 * ```
 */
export class ProvenanceLedger {
  #units = new Map<string, Set<string>>();
  #text = new Map<string, string>();

  /** Record one write call: its input units, the records after it, ids the system reported. */
  apply(options: {
    /** Source unit ids of the call's input. */
    inputUnitIds: readonly string[];
    /** Every live record after the call (`MemorySystem.list()`). */
    after: readonly StoreRecord[];
    /** Ids the system reported changing; default none. */
    touched?: readonly string[];
  }): LedgerChange {
    const change: LedgerChange = { added: [], updated: [], deleted: [] };
    const touched = new Set(options.touched ?? []);
    const live = new Set<string>();
    for (const record of options.after) {
      live.add(record.id);
      const known = this.#units.get(record.id);
      if (!known) {
        this.#units.set(record.id, new Set(options.inputUnitIds));
        change.added.push(record.id);
      } else if (this.#text.get(record.id) !== record.text || touched.has(record.id)) {
        // UPDATE: the record now carries both its old units' and this input's information.
        for (const u of options.inputUnitIds) known.add(u);
        change.updated.push(record.id);
      }
      this.#text.set(record.id, record.text);
    }
    for (const id of [...this.#units.keys()]) {
      if (!live.has(id)) {
        this.#units.delete(id);
        this.#text.delete(id);
        change.deleted.push(id);
      }
    }
    return change;
  }

  /** Source unit ids a live record traces to, in first-seen order; [] for an unknown id. */
  unitsOf(recordId: string): string[] {
    return [...(this.#units.get(recordId) ?? [])];
  }

  /** The given units that some live record traces back to, in the given order. */
  retained(options: {
    /** Unit ids to check. */
    unitIds: readonly string[];
  }): string[] {
    const traced = new Set<string>();
    for (const units of this.#units.values()) for (const u of units) traced.add(u);
    return options.unitIds.filter((u) => traced.has(u));
  }
}
