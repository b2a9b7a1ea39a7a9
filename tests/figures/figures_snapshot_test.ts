/** One named SVG snapshot per figure, fed small hand-made frames (independent of the pipeline). */
import { figure3Stages } from "../../lib/figures/figure3_stages.ts";
import { midFigure } from "../../lib/figures/mid_figure.ts";
import { loadPaperValues } from "../../lib/figures/paper_values.ts";
import { stageFigure } from "../../lib/figures/stage_figure.ts";
import { topKFigure } from "../../lib/figures/top_k_figure.ts";
import { assertSnapshot, fixtureRows } from "./_snapshot.ts";

const grid = [0, 0.25, 0.5, 0.75, 1];
const policies = ["UM", "PQ", "NC", "SC"];
const paper = await loadPaperValues({});

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

Deno.test("stageFigure() matches its snapshot for Figure 4 (trace load)", async () => {
  const rows = [0.75, 1, 1.25].flatMap((traceLoad) =>
    fixtureRows("thetaW", grid, { traceLoad }).filter((r) => r.attack === "minja")
  );
  await assertSnapshot(
    "figure4_trace_load",
    stageFigure({
      summary: rows,
      x: "thetaW",
      xLabel: "writing coverage θw →",
      fx: "traceLoad",
      title: "Figure 4",
      paper: paper.figures.filter((p) => p.figure === "figure4"),
    }),
  );
});

Deno.test("stageFigure() matches its snapshot for Figure 5 (rankers)", async () => {
  const rows = ["self", "external", "random", "chronological"].flatMap((ranker) =>
    fixtureRows("thetaW", grid, { ranker }).filter((r) => r.attack === "minja")
  );
  await assertSnapshot(
    "figure5_rankers",
    stageFigure({
      summary: rows,
      x: "thetaW",
      xLabel: "writing coverage θw →",
      fx: "ranker",
      fxDomain: ["self", "external", "random", "chronological"],
      fxFormat: (v) => `${v} ranker`,
      title: "Figure 5",
      paper: paper.figures.filter((p) => p.figure === "figure5"),
    }),
  );
});

Deno.test("stageFigure() matches its snapshot for Figure 6 (K x fill)", async () => {
  const rows = [3, 5, 7].flatMap((k) =>
    ["random", "similarity"].flatMap((fill) =>
      fixtureRows("thetaR", grid, { k, fill }).filter((r) => r.attack === "minja")
    )
  );
  await assertSnapshot(
    "figure6_k_fill",
    stageFigure({
      summary: rows,
      x: "thetaR",
      xLabel: "retrieval exposure θr →",
      fx: "k",
      fxFormat: (v) => `K = ${v}`,
      fy: "fill",
      fyFormat: (v) => `${v} fill`,
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

Deno.test("stageFigure() matches its snapshot for Figure 7 (memory size x policy)", async () => {
  const rows = [50, 100].flatMap((bankSize) =>
    fixtureRows("policy", policies, { bankSize }).filter((r) => r.attack === "minja")
  );
  await assertSnapshot(
    "figure7_memory_size",
    stageFigure({
      summary: rows,
      x: "policy",
      xLabel: "management policy",
      categories: policies,
      fx: "bankSize",
      fxFormat: (v) => `|B| = ${v}`,
      connect: false,
      paper: paper.figures.filter((p) => p.figure === "figure7"),
      paperOnlyPanels: true,
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
