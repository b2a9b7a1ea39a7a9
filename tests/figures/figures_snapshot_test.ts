/** One named SVG snapshot per figure, fed small hand-made frames (independent of the pipeline). */
import { conditionFigure } from "../../lib/figures/condition_figure.ts";
import { figure3Stages } from "../../lib/figures/figure3_stages.ts";
import { midFigure } from "../../lib/figures/mid_figure.ts";
import { loadPaperValues } from "../../lib/figures/paper_values.ts";
import { stageFigure } from "../../lib/figures/stage_figure.ts";
import { topKFigure } from "../../lib/figures/top_k_figure.ts";
import { assertSnapshot, fixtureRows } from "./_snapshot.ts";

const grid = [0, 0.25, 0.5, 0.75, 1];
const policies = ["UM", "PQ", "NC", "SC"];
const paper = await loadPaperValues();

Deno.test("figure3Stages() matches its snapshot", async () => {
  await assertSnapshot(
    "figure3_stages",
    figure3Stages({
      summaries: {
        writing: fixtureRows("thetaW", grid),
        management: fixtureRows("policy", policies),
        retrieval: fixtureRows("thetaR", grid),
      },
      paper: paper.figures,
    }),
  );
});

Deno.test("conditionFigure() matches its snapshot for Figure 4 (trace load)", async () => {
  const rows = [0.75, 1, 1.25].flatMap((traceLoad, i) =>
    fixtureRows("thetaW", grid, { traceLoad }).filter((r) => r.attack === "minja").map((r) => ({
      ...r,
      asr: Number(r.asr) + 0.05 * i,
    }))
  );
  await assertSnapshot(
    "figure4_trace_load",
    conditionFigure({
      summary: rows,
      x: "thetaW",
      xLabel: "writing coverage θw",
      condition: "traceLoad",
      conditionLabel: (v) => `trace load ${v}×`,
      title: "Figure 4",
      paper: paper.figures.filter((p) => p.figure === "figure4"),
    }),
  );
});

Deno.test("conditionFigure() matches its snapshot for Figure 5 (rankers)", async () => {
  const rows = ["self", "external", "random", "chronological"].flatMap((ranker, i) =>
    fixtureRows("thetaW", grid, { ranker }).filter((r) => r.attack === "minja").map((r) => ({
      ...r,
      cleanUtility: Number(r.cleanUtility) - 0.04 * i,
    }))
  );
  await assertSnapshot(
    "figure5_rankers",
    conditionFigure({
      summary: rows,
      x: "thetaW",
      xLabel: "writing coverage θw",
      condition: "ranker",
      conditions: ["self", "external", "random", "chronological"],
      conditionLabel: (v) => `${v} ranker`,
      title: "Figure 5",
      paper: paper.figures.filter((p) => p.figure === "figure5"),
    }),
  );
});

Deno.test("conditionFigure() matches its snapshot for Figure 6 (the paper's four K and fill lines)", async () => {
  const conditions = ["K = 3 · random", "K = 5 · random", "K = 7 · random", "K = 5 · similarity"];
  const rows = conditions.flatMap((condition, i) =>
    fixtureRows("thetaR", grid, { condition }).filter((r) => r.attack === "minja").map((r) => ({
      ...r,
      poisonedUtility: Number(r.poisonedUtility) + 0.03 * i,
    }))
  );
  await assertSnapshot(
    "figure6_k_fill",
    conditionFigure({
      summary: rows,
      x: "thetaR",
      xLabel: "retrieval exposure θr",
      condition: "condition",
      conditions,
      conditionLabel: (v) => v,
      title: "Figure 6",
    }),
  );
});

Deno.test("stageFigure() matches its snapshot for asymmetric exposure", async () => {
  await assertSnapshot(
    "asymmetric_exposure",
    stageFigure({
      summary: fixtureRows("thetaRRisk", [0.2, 0.4, 0.6, 0.8, 1]).filter((r) =>
        r.attack === "minja"
      ),
      x: "thetaRRisk",
      xLabel: "θr- →",
      title: "Asymmetric exposure",
      paper: paper.figures.filter((p) => p.figure === "asymmetric"),
    }),
  );
});

Deno.test("conditionFigure() matches its snapshot for Figure 7 (|B| on the x-axis, a line per policy)", async () => {
  // Sizes 50 and 100 measured; the paper's |B| = 500 shares the axis.
  const rows = [50, 100].flatMap((bankSize) =>
    fixtureRows("policy", policies, { bankSize }).filter((r) => r.attack === "minja")
  );
  await assertSnapshot(
    "figure7_memory_size",
    conditionFigure({
      summary: rows,
      x: "bankSize",
      xLabel: "memory size |B|",
      categories: ["50", "100", "500"],
      condition: "policy",
      conditions: policies,
      conditionLabel: (v) => v,
      paper: paper.figures.filter((p) => p.figure === "figure7"),
      title: "Figure 7",
    }),
  );
});

Deno.test("midFigure() matches its snapshot", async () => {
  const pooled = (x: string, values: readonly (number | string)[]) =>
    fixtureRows(x, values).filter((r) => r.agent === "a");
  await assertSnapshot(
    "mid_intervals",
    midFigure({
      summaries: {
        writing: pooled("thetaW", grid),
        management: pooled("policy", policies),
        retrieval: pooled("thetaR", grid),
      },
    }),
  );
});

Deno.test("topKFigure() matches its snapshot", async () => {
  await assertSnapshot("topk_curves", topKFigure({ paper: paper.table2 }));
});
