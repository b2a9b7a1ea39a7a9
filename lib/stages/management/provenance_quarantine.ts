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
 * assert.equal(provenanceQuarantine.id, "PQ");
 * ```
 */
export const provenanceQuarantine = quarantineWhere({
  id: "PQ",
  description: "Provenance-aware quarantine: records from untrusted sources are excluded.",
  quarantine: (record) => !record.provenance.trusted,
});
