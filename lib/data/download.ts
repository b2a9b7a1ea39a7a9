/** Fetch the official benchmark files into the data directory and check their sha256. */
import { createHash } from "node:crypto";
import type { DataFile } from "./data_files.ts";

/** Outcome for one file. */
export interface DownloadResult {
  path: string;
  status: "present" | "downloaded" | "failed";
  /** sha256 of the file on disk, when there is one. */
  sha256: string | null;
  /** Explanation for failures and unpinned checksums. */
  message: string;
}

/** Options for {@link ensureDataFile}. */
export interface EnsureDataFileOptions {
  /** The file to ensure. */
  file: DataFile;
  /** Data directory. */
  dataDir: string;
  /** Fetch implementation; default global `fetch`. */
  fetch?: typeof fetch;
}

function _sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Make sure `file` is in `dataDir`: a present file is checksum-checked (when a checksum is pinned);
 * a missing one is downloaded, checked and then moved into place. Never throws for network
 * errors: the result says which file is needed and where to get it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ensureDataFile } from "./download.ts";
 * const dataDir = await Deno.makeTempDir();
 * const file = { path: "x/x.json", url: "https://example.org/x.json", sha256: null, license: "MIT", required: true };
 * const result = await ensureDataFile({ file, dataDir, fetch: () => Promise.reject(new Error("offline")) });
 * assert.deepEqual(result.status, "failed");
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export async function ensureDataFile(options: EnsureDataFileOptions): Promise<DownloadResult> {
  const { file } = options;
  const path = options.dataDir.replace(/\/+$/, "") + "/" + file.path;
  const pinned = file.sha256;
  try {
    const bytes = await Deno.readFile(path);
    const sha = _sha256(bytes);
    if (pinned !== null && sha !== pinned) {
      return {
        path,
        status: "failed",
        sha256: sha,
        message: `checksum mismatch: expected ${pinned}, got ${sha}; delete the file and run ` +
          `\`deno task data\` again, or fetch ${file.url}`,
      };
    }
    return {
      path,
      status: "present",
      sha256: sha,
      message: pinned === null ? "no pinned checksum" : "checksum ok",
    };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const missing = `missing ${path}: download ${file.url} and save it there`;
  let bytes: Uint8Array;
  try {
    const response = await (options.fetch ?? fetch)(file.url);
    if (!response.ok) {
      return {
        path,
        status: "failed",
        sha256: null,
        message: `${missing} (HTTP ${response.status})`,
      };
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      path,
      status: "failed",
      sha256: null,
      message: `${missing} (download failed: ${why})`,
    };
  }
  const sha = _sha256(bytes);
  if (pinned !== null && sha !== pinned) {
    return {
      path,
      status: "failed",
      sha256: sha,
      message: `${missing} (downloaded file has sha256 ${sha}, expected ${pinned})`,
    };
  }
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  const tmp = `${path}.tmp`;
  await Deno.writeFile(tmp, bytes, { mode: 0o644 });
  // 0644 whatever the umask (a container's is often 000), as every file the kit writes.
  await Deno.chmod(tmp, 0o644);
  await Deno.rename(tmp, path);
  return {
    path,
    status: "downloaded",
    sha256: sha,
    message: pinned === null
      ? "downloaded (no pinned checksum; sha256 shown)"
      : "downloaded, checksum ok",
  };
}
