/** PQ, provenance-aware quarantine: records written from untrusted sources are quarantined. */
import { quarantineWhere } from "./policy.ts";

/**
 * PQ quarantines exactly the records with an untrusted source unit (`provenance.trusted` false).
 * User-channel content counts as trusted, which is why PQ barely helps against user-side
 * (MINJA-style) injection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { provenanceQuarantine } from "./provenance_quarantine.ts";
 * const record = (id: string, trusted: boolean) => ({ id, text: id, role: "background" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "s", channels: [trusted ? "user" as const : "tool" as const], trusted, verified: false, writtenAt: 0 } });
 * const { quarantined } = provenanceQuarantine.apply({ records: [record("user", true), record("web page", false)] });
 * assert.deepEqual(quarantined.map((r) => r.id), ["web page"]);
 * ```
 */
export const provenanceQuarantine = quarantineWhere({
  id: "PQ",
  description: "Provenance-aware quarantine: records from untrusted sources are excluded.",
  quarantine: (record) => !record.provenance.trusted,
});
