/**
 * Bench (not a timed test): a 100,000-pair explorer page in headless Chromium. Measures, per
 * run, opening the page from file:// until its table is ready, filtering it to attacked pairs
 * (the page's own select), and opening a pair; and, side by side in the same run, the simplest
 * page that does the same job: every pair as a row of one plain <table>, filtered by hiding
 * rows. Prints the median of 3 runs each.
 *
 *   deno run -A tests/bench/explorer_100k.ts            # 100,000 pairs
 *   deno run -A tests/bench/explorer_100k.ts 20000      # another size
 */
import { explorePayload, type PairSummary } from "../../lib/explore/explore_data.ts";
import { explorerPage } from "../../lib/explore/explorer_page.ts";
import { pointLabel, settingLabel } from "../../lib/explore/pair_facets.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";

const N = Number(Deno.args[0] ?? 100_000);
const RUNS = 3;

/** Pairs shaped like a sweep's: 5 agents, 2 attacks, 11 points, instances, answers that repeat. */
function syntheticPairs(n: number): PairSummary[] {
  const prng = createPrng(7);
  const agents = ["careful", "balanced", "compliant", "recency", "skimmer"].map((p) =>
    `reference:${p}`
  );
  const answers = ["I don't know.", "From memory: 4.", "From memory: 5.", "Either 4 or 5."];
  const pairs: PairSummary[] = [];
  for (let i = 0; i < n; i++) {
    const point = {
      stage: "writing" as const,
      thetaW: Math.round((i % 11) / 10 * 10) / 10,
      policy: "UM",
      thetaR: 0.8,
      thetaRRisk: 0.8,
      k: 5,
      fill: "random" as const,
      bankSize: 100,
      ranker: "usefulness",
      traceLoad: 1,
    };
    const ids = Array.from({ length: 5 }, (_, s) => `bg-${(i * 7 + s * 13) % 997}`);
    const run = (output: string, poisoned: boolean) => ({
      contextIds: poisoned ? [...ids.slice(0, 4), `inst-${i % 500}:minja@6`] : ids,
      output,
      correct: output.endsWith("4."),
      matchesTarget: output.endsWith("5."),
      hedged: output.startsWith("Either"),
      error: null,
      riskInContext: poisoned,
      helpfulInContext: false,
      judgeModel: null,
      stopReason: null,
    });
    pairs.push({
      key: `pair${i}#0`,
      runId: "bench",
      pairId: `pair${i}`,
      trial: 0,
      instanceId: `inst-${i % 500}`,
      agent: agents[(i / 11 | 0) % 5],
      simulated: true,
      dataset: "synthetic",
      attack: (i / 55 | 0) % 2 ? "sleeper" : "minja",
      stage: point.stage,
      point: pointLabel(point),
      policy: "UM",
      setting: settingLabel(point),
      helpfulExposed: true,
      riskExposed: true,
      clean: run(answers[prng.int(0, 1)], false),
      poisoned: run(answers[prng.int(0, 3)], true),
      ablations: [],
      trajectory: null,
    });
  }
  return pairs;
}

/** The baseline: one plain table row per pair, a select that hides the other rows. */
function plainPage(pairs: readonly PairSummary[]): string {
  const rows = pairs.map((p, i) =>
    `<tr data-attacked="${p.poisoned?.matchesTarget ? 1 : 0}"><td>${
      i + 1
    }</td><td>${p.instanceId}</td><td>${p.attack}</td><td>${p.agent}</td><td>${p.point}</td><td>${p.clean?.output}</td><td>${p.poisoned?.output}</td></tr>`
  ).join("\n");
  return `<!doctype html><html><body><select id="f"><option value="">any</option><option value="1">attacked</option></select><span id="count"></span>
<table><tbody id="t">${rows}</tbody></table>
<script>
const f = document.getElementById("f"), rows = document.getElementById("t").rows;
f.addEventListener("change", () => { let n = 0; for (const r of rows) { const show = !f.value || r.dataset.attacked === f.value; r.style.display = show ? "" : "none"; n += show; } document.getElementById("count").textContent = n + " of " + rows.length; });
document.body.dataset.ready = "true";
</script></body></html>`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!hasChromium()) {
  console.log("explorer_100k: no Chromium (apt-get install chromium); nothing measured.");
  Deno.exit(0);
}
const dir = await Deno.makeTempDir();
const pairs = syntheticPairs(N);
const built = performance.now();
const explorer = await explorerPage({
  payload: explorePayload({ pairs, title: `${N} pairs (bench)`, source: "synthetic rows" }),
});
const buildMs = performance.now() - built;
await Deno.writeTextFile(`${dir}/explorer.html`, explorer);
await Deno.writeTextFile(`${dir}/plain.html`, plainPage(pairs));
const attacked = pairs.filter((p) => p.poisoned?.matchesTarget).length;

const { context, close } = await launchChromium();
const results: Record<string, { open: number[]; filter: number[]; pair: number[] }> = {
  explorer: { open: [], filter: [], pair: [] },
  "plain table": { open: [], filter: [], pair: [] },
};
try {
  for (let run = 0; run < RUNS; run++) {
    for (const [name, file] of [["explorer", "explorer.html"], ["plain table", "plain.html"]]) {
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`file://${dir}/${file}`, { timeout: 120_000 });
      await page.waitForSelector("body[data-ready=true]", { timeout: 120_000 });
      // Two frames: the first screen is painted.
      await page.evaluate(() =>
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      );
      const t1 = performance.now();
      if (name === "explorer") {
        const index = await page.$eval(
          "#mg-f-outcome",
          (s: HTMLSelectElement) =>
            [...s.options].findIndex((o) => o.text.startsWith("attacked (")),
        );
        await page.selectOption("#mg-f-outcome", { index });
        await page.waitForFunction(
          (n: number) =>
            document.getElementById("mg-count")?.textContent?.startsWith(n.toLocaleString("en")),
          attacked,
        );
      } else {
        await page.selectOption("#f", "1");
        await page.waitForFunction(
          (n: number) => document.getElementById("count")?.textContent?.startsWith(`${n} of`),
          attacked,
        );
      }
      await page.evaluate(() =>
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      );
      const t2 = performance.now();
      if (name === "explorer") {
        await page.click(".mg-row >> nth=0");
        await page.waitForSelector("article.mg-pair");
        results[name].pair.push(performance.now() - t2);
      }
      results[name].open.push(t1 - t0);
      results[name].filter.push(t2 - t1);
      await page.close();
    }
  }
} finally {
  await close();
}
const mb = (s: string) => (new TextEncoder().encode(s).length / 1e6).toFixed(1);
console.log(
  `${N.toLocaleString("en")} pairs (${attacked.toLocaleString("en")} attacked); explorer page ${
    mb(explorer)
  } MB, built in ${
    (buildMs / 1000).toFixed(1)
  } s; median of ${RUNS} runs, headless Chromium, ${navigator.hardwareConcurrency} cores:`,
);
for (const [name, r] of Object.entries(results)) {
  const s = (xs: number[]) => (xs.length ? `${(median(xs) / 1000).toFixed(2)} s` : "-");
  console.log(
    `  ${name.padEnd(12)} open ${s(r.open)}  filter ${s(r.filter)}  open+filter ${
      s(r.open.map((x, i) => x + r.filter[i]))
    }  open a pair ${s(r.pair)}`,
  );
}
await Deno.remove(dir, { recursive: true });
