/**
 * The registry of the reference agent's mechanisms: each has a name, one file that implements
 * it, the curve it is responsible for, and can be switched off in an agent spec
 * (`reference:careful?corroboration=off`). Lists in help text and errors derive from here.
 */

/** The mechanisms, in the order the agent applies them. */
export const MECHANISMS = {
  attention: {
    file: "lib/agents/mechanisms/attention.ts",
    summary: "reads fewer records the larger the context and the more of them share the topic",
    curve: "retrieval budget K and fill (Figure 6)",
  },
  provenance: {
    file: "lib/agents/mechanisms/provenance.ts",
    summary: "weighs a statement by channel, trust, verification and recency",
    curve: "management policies and the tool-side attack (Figure 3, management)",
  },
  instructions: {
    file: "lib/agents/mechanisms/instructions.ts",
    summary: "weighs a statement phrased as an order to the reader by the persona's habit",
    curve: "attack success of instruction-bearing traces (Sleeper, MINJA)",
  },
  reasoning: {
    file: "lib/agents/mechanisms/reasoning.ts",
    summary: "works an answer out of evidence that does not state it, the surer the more it holds",
    curve: "clean utility of reasoning questions (temporal, multi-hop, totals) along writing",
  },
  corroboration: {
    file: "lib/agents/mechanisms/corroboration.ts",
    summary: "believes a value more the more distinct statements state it, with saturation",
    curve: "writing coverage (Figure 3, writing)",
  },
  distractors: {
    file: "lib/agents/mechanisms/distractors.ts",
    summary: "can take an on-topic record's value for a related question as the answer",
    curve: "fill order and memory size |B| (Figures 6 and 7)",
  },
  guess: {
    file: "lib/agents/mechanisms/guess.ts",
    summary: "is sometimes right with no memory of the answer",
    curve: "U0, utility with no memory",
  },
} as const;

/** A mechanism name. */
export type Mechanism = keyof typeof MECHANISMS;

/** Which mechanisms are on. */
export type MechanismSwitches = Readonly<Record<Mechanism, boolean>>;

/** Every mechanism on: the default agent. */
export const ALL_MECHANISMS_ON: MechanismSwitches = Object.freeze(
  Object.fromEntries(Object.keys(MECHANISMS).map((m) => [m, true])) as Record<Mechanism, boolean>,
);
