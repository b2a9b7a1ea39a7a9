/** Test fixture: demo instances whose banks also hold near-miss records (invented text). */
import { questionKind } from "../../lib/agents/mechanisms/distractors.ts";
import { contentWords } from "../../lib/agents/reading/topic.ts";
import type { Instance } from "../../lib/schema/instance.ts";

/**
 * A demo instance whose bank also holds ten invented look-alike records: on the question's topic
 * and stating a value of the kind it asks for, but about someone else.
 */
export function withLookAlikes(instance: Instance): Instance {
  const kind = questionKind(instance.query);
  const topic = [...contentWords(instance.query)].join(" ");
  const lookAlikes = Array.from({ length: 10 }, (_, i) => ({
    id: `${instance.id}/look-alike/${i}`,
    text: `A friend mentioned their own ${topic}: ${
      kind === "date" ? `June ${i + 2}, 2024` : kind === "number" ? `${i + 20}` : `the green one`
    }.`,
    role: "background" as const,
    sourceUnitIds: [],
    provenance: {
      session: `look-alike-${i}`,
      channels: ["user" as const],
      trusted: true,
      verified: false,
      writtenAt: 0,
    },
    numbers: [],
    asserts: null,
  }));
  return { ...instance, background: [...lookAlikes, ...instance.background] };
}
