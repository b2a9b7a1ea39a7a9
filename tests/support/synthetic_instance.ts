/** Synthetic instances for property tests: shapes drawn from a seed, content meaningless. */
import type { Channel, SourceUnit } from "../../lib/schema/source_unit.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import type { MemoryRecord } from "../../lib/schema/memory_record.ts";
import { createPrng } from "../../lib/random/prng.ts";

/** Sizes of a synthetic instance. */
export interface SyntheticShape {
  id: string;
  seed: number;
  helpfulUnits: number;
  riskUnits: number;
  bank: number;
}

/**
 * Build an instance whose answer is "alpha 11", target "omega 99"; units state them at random
 * positions, with random channels, trust and verification, and numbers keyed "q".
 */
export function syntheticInstance(shape: SyntheticShape): Instance {
  const prng = createPrng(shape.seed);
  const channels: Channel[] = ["user", "assistant", "tool"];
  const unit = (prefix: string, i: number, asserts: string | null, value: number): SourceUnit => {
    const channel = channels[prng.int(0, 2)];
    return {
      id: `${shape.id}/${prefix}/${i}`,
      text: asserts
        ? `Fact ${i}: the value is ${asserts}.`
        : `Filler ${prefix} ${i} about weather.`,
      channel,
      trusted: channel !== "tool" || prng.float() < 0.3,
      verified: prng.float() < 0.4,
      numbers: asserts ? [{ key: "q", value }] : [],
      asserts,
    };
  };
  const trace = (
    kind: "helpful" | "risk",
    name: string,
    n: number,
    answer: string,
    value: number,
  ) => {
    const stating = prng.int(0, n - 1);
    return {
      id: `${shape.id}/${name}`,
      session: `${shape.id}/${name}-session`,
      kind,
      units: Array.from(
        { length: n },
        (_, i) => unit(name, i, i === stating || prng.float() < 0.2 ? answer : null, value),
      ),
    };
  };
  const background: (MemoryRecord & { role: "background" })[] = Array.from(
    { length: shape.bank },
    (_, i) => ({
      id: `${shape.id}/bg/${i}`,
      text: `Background note ${i}: topic ${prng.int(0, 50)} and colour ${
        ["red", "blue", "green"][i % 3]
      }.`,
      role: "background",
      sourceUnitIds: [],
      provenance: {
        session: `bg-${i}`,
        channels: ["user"],
        trusted: true,
        verified: prng.float() < 0.8,
        writtenAt: 0,
      },
      numbers: [],
      asserts: null,
    }),
  );
  return {
    id: shape.id,
    dataset: "synthetic",
    category: "",
    query: "What is the value of the topic?",
    answer: "alpha 11",
    target: "omega 99",
    answerKind: "text",
    background,
    helpful: trace("helpful", "helpful", shape.helpfulUnits, "alpha 11", 11),
    risk: {
      minja: trace("risk", "minja", shape.riskUnits, "omega 99", 99),
      sleeper: trace("risk", "sleeper", shape.riskUnits, "omega 99", 99),
    },
  };
}
