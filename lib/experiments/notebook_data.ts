/**
 * Notebook cells (solutions, mostly) that need a benchmark's files: run them, and when the files
 * are missing say so instead of failing, since the demo set is all a notebook can count on.
 */
import { MissingDataFileError } from "../data/missing_data_file_error.ts";

/**
 * Run `fn`; when it fails for want of a benchmark file, return the reason (how to get the file)
 * instead. Any other error is thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MissingDataFileError } from "../data/missing_data_file_error.ts";
 * import { unlessDataMissing } from "./notebook_data.ts";
 * assert.deepEqual(await unlessDataMissing(() => Promise.resolve(3)), { value: 3 });
 * const missing = await unlessDataMissing(() => {
 *   throw new MissingDataFileError({ path: "data/raw/x.json", url: "https://example.org/x.json" });
 * });
 * assert.ok("missing" in missing && /data\/raw\/x\.json/.test(missing.missing));
 * ```
 */
export async function unlessDataMissing<T>(
  fn: () => Promise<T>,
): Promise<{ value: T } | { missing: string }> {
  try {
    return { value: await fn() };
  } catch (error) {
    if (error instanceof MissingDataFileError) return { missing: error.message };
    throw error;
  }
}
