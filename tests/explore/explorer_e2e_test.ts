/**
 * The explorer end to end in headless Chromium: a real offline sweep, `deno task explore`, the
 * page opened from file:// and behind a static server; filter to attacked pairs, open one, and
 * the risk record is marked in the poisoned context and absent from the clean one. Screenshots
 * go to tests/explore/artifacts/ (git-ignored). Skipped, saying so, when no Chromium is installed.
 */
import assert from "node:assert/strict";
import { serveDir } from "../support/serve_dir.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ARTIFACTS = new URL("./artifacts/", import.meta.url).pathname;
const ignore = !hasChromium();
if (ignore) {
  console.warn(
    `explorer_e2e_test: SKIPPED, no Chromium at ${CHROMIUM} (install it: apt-get install chromium, or set MEMGAUGE_CHROMIUM)`,
  );
}

async function task(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, out);
  return out;
}

Deno.test({
  name:
    "explorer: filter to attacked pairs, open one: the risk record is marked in the poisoned context only",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const { context, close } = await launchChromium();
    const server = serveDir({ dir });
    try {
      await task([
        "lib/cli/sweep.ts",
        ...["--stage", "retrieval", "--grid", "0.4,1", "--limit", "4", "--counterfactual", "loo"],
        ...["--out", `${dir}/r.jsonl`, "--quiet"],
      ]);
      await task(["lib/cli/explore.ts", "--in", `${dir}/r.jsonl`, "--out", `${dir}/r.html`]);
      const rows = (await Deno.readTextFile(`${dir}/r.jsonl`)).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      const attacked = new Set(
        rows.filter((r) => r.condition === "poisoned" && r.matchesTarget && !r.counterfactualOf)
          .map((r) => `${r.pairId}#${r.trial}`),
      );
      assert.ok(attacked.size > 0, "the sweep has attacked pairs to look at");

      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`file://${dir}/r.html`);
      await page.waitForSelector("body[data-ready=true]");
      await page.screenshot({ path: `${ARTIFACTS}/explorer_table.png` });

      // Filter through the page's own control, as a reader would.
      const option = await page.$eval(
        "#mg-f-outcome",
        (s: HTMLSelectElement) => [...s.options].findIndex((o) => o.text.startsWith("attacked (")),
      );
      await page.selectOption("#mg-f-outcome", { index: option });
      await page.waitForFunction(
        (n: number) => document.getElementById("mg-count")?.textContent?.startsWith(`${n} of`),
        attacked.size,
      );
      assert.match(page.url(), /#outcome=attacked$/);
      await page.click(".mg-row >> nth=0");
      await page.waitForSelector("article.mg-pair");
      const key = await page.getAttribute("article.mg-pair", "data-pair");
      assert.ok(attacked.has(key!), `${key} is an attacked pair`);

      const poisonedRisk = await page.$$('ol[data-condition="poisoned"] li[data-role="risk"]');
      const cleanRisk = await page.$$('ol[data-condition="clean"] li[data-role="risk"]');
      assert.equal(poisonedRisk.length, 1, "the risk record is marked in the poisoned context");
      assert.equal(cleanRisk.length, 0, "and absent from the clean one");
      assert.equal(await poisonedRisk[0].getAttribute("class"), "mg-changed");
      const riskId = await poisonedRisk[0].getAttribute("data-record");
      const row = rows.find((r) => `${r.pairId}#${r.trial}` === key && r.condition === "poisoned");
      assert.ok(row.contextIds.includes(riskId), "the marked record is in the row's context");
      assert.match(await page.textContent(".mg-diff") ?? "", /took the place of background record/);
      await page.screenshot({ path: `${ARTIFACTS}/explorer_pair.png`, fullPage: true });
      assert.deepEqual(errors, []);

      // The same page behind a static server, straight to the pair by its link.
      const served = await context.newPage();
      await served.goto(`${server.url}/r.html#outcome=attacked&pair=${encodeURIComponent(key!)}`);
      await served.waitForSelector("article.mg-pair");
      assert.equal(await served.getAttribute("article.mg-pair", "data-pair"), key);
      assert.equal(
        await served.$$eval('ol[data-condition="clean"] li[data-role="risk"]', (x) => x.length),
        0,
      );
      await served.screenshot({ path: `${ARTIFACTS}/explorer_served.png` });
    } finally {
      await close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
