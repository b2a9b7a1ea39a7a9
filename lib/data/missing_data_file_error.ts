/** The error a loader throws when a benchmark file is absent: it says which file and where to get it. */

/**
 * A required benchmark file is missing from the data directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MissingDataFileError } from "./missing_data_file_error.ts";
 * const error = new MissingDataFileError({ path: "data/raw/x.json", url: "https://example.org/x.json" });
 * assert.ok(error.message.includes("https://example.org/x.json"));
 * ```
 */
export class MissingDataFileError extends Error {
  /** Path the loader looked at. */
  readonly path: string;
  /** Where the official file can be downloaded. */
  readonly url: string;

  /** `path`: file looked for; `url`: official download address. */
  constructor(options: { path: string; url: string }) {
    super(
      `Missing benchmark file ${options.path}. Run \`deno task data\` to download it, or fetch ` +
        `${options.url} yourself and save it there (set MEMGAUGE_DATA to use another directory).`,
    );
    this.name = "MissingDataFileError";
    this.path = options.path;
    this.url = options.url;
  }
}
