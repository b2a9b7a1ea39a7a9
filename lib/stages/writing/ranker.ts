/** The ranker interface: order a trace's units by estimated usefulness for future decisions. */
import type { Trace } from "../../schema/trace.ts";

/** A ranker returns every unit id of the trace exactly once, most useful first. */
export interface Ranker {
  /** Row label: `usefulness`, `random`, `chronological`, `llm:self`, ... */
  id: string;
  rank(trace: Trace, options: { seed: number }): Promise<string[]>;
}
