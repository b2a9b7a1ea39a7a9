/**
 * Headless Chromium for the explorer's end-to-end test and bench, driven by playwright-core
 * against Debian's `chromium` (no browser download): a fresh profile per launch, no network
 * services, no GPU.
 */
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";

/** Where Debian installs Chromium (`.ci/run` installs it when missing). */
export const CHROMIUM = Deno.env.get("MEMGAUGE_CHROMIUM") ?? "/usr/bin/chromium";

/** True when a Chromium binary is there to drive. */
export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/**
 * Launch headless Chromium with a fresh profile (playwright passes it as `--user-data-dir`);
 * `close` also removes the profile.
 */
export async function launchChromium(options: {
  /** The page size; default 1400 x 1000. */
  viewport?: { width: number; height: number };
} = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await Deno.makeTempDir({ prefix: "memgauge-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: options.viewport ?? { width: 1400, height: 1000 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
