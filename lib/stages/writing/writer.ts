/** The writer interface `W`: turn one source unit into memory-record text. */
import type { SourceUnit } from "../../schema/source_unit.ts";
import type { Trace } from "../../schema/trace.ts";

/** A writer; the kit calls it at most once per unit (see `WriteOnceCache`). */
export interface Writer {
  id: string;
  write(unit: SourceUnit, options: { trace: Trace }): Promise<string>;
}
