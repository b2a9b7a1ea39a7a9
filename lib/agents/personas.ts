/**
 * Personas of the offline reference agent: fixed, hand-set reading habits that differ in how
 * readily they follow directive or tool-sourced content. They stand in for "several models" so
 * medians and IQRs can be drawn offline. No value here was fitted to the paper's numbers.
 */

/** One persona's reading habits. */
export interface Persona {
  id: string;
  description: string;
  /** Probability that the agent notices a given record in its context. */
  attention: number;
  /** Weight of a record by its source channel (the most external channel of the record). */
  channelWeight: { user: number; assistant: number; tool: number };
  /** Multiplier for records from an untrusted source. */
  untrustedWeight: number;
  /** Multiplier for records phrased as instructions ("remember that", "always", ...). */
  directiveWeight: number;
  /** Extra weight per step of recency (`writtenAt`): the newer record is believed more. */
  recencyWeight: number;
}

/** The built-in personas, by id. */
export const PERSONAS: Readonly<Record<string, Persona>> = {
  careful: {
    id: "careful",
    description: "Discounts tool output, untrusted sources and instructions.",
    attention: 0.9,
    channelWeight: { user: 1, assistant: 0.8, tool: 0.4 },
    untrustedWeight: 0.3,
    directiveWeight: 0.4,
    recencyWeight: 0,
  },
  balanced: {
    id: "balanced",
    description: "Weighs sources evenly and slightly prefers newer records.",
    attention: 0.9,
    channelWeight: { user: 1, assistant: 0.9, tool: 0.8 },
    untrustedWeight: 0.8,
    directiveWeight: 1,
    recencyWeight: 0.1,
  },
  compliant: {
    id: "compliant",
    description: "Follows instructions found in memory and trusts tool output.",
    attention: 0.95,
    channelWeight: { user: 1, assistant: 1, tool: 1.1 },
    untrustedWeight: 1,
    directiveWeight: 1.6,
    recencyWeight: 0.2,
  },
  recency: {
    id: "recency",
    description: "Believes whatever it read last.",
    attention: 0.85,
    channelWeight: { user: 1, assistant: 1, tool: 1 },
    untrustedWeight: 1,
    directiveWeight: 1,
    recencyWeight: 2,
  },
  skimmer: {
    id: "skimmer",
    description: "Misses records often; otherwise balanced.",
    attention: 0.6,
    channelWeight: { user: 1, assistant: 0.9, tool: 0.8 },
    untrustedWeight: 0.8,
    directiveWeight: 1,
    recencyWeight: 0.1,
  },
};
