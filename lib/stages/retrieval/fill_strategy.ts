/** The fill-strategy interface: the order in which background records fill the context (`Fill`). */
import type { Instance } from "../../schema/instance.ts";
import type { MemoryRecord } from "../../schema/memory_record.ts";

/**
 * A fill strategy orders an instance's background records; `Fill(B, k)` is the first k of the
 * order restricted to the records management kept. The order must depend on the instance and
 * the seed only (never on the condition), so a clean row and its poisoned twin share it.
 */
export interface FillStrategy {
  /** Row label (`fill` column): `random`, `similarity`, ... */
  id: string;
  /** One line: what it puts first. */
  description: string;
  /** The background records in fill order (a subset is allowed: records left out never fill). */
  order(options: {
    /** The instance whose bank is ordered. */
    instance: Pick<Instance, "id" | "query" | "answer" | "target" | "background">;
    /** Run seed. */
    seed: number;
  }): MemoryRecord[];
}
