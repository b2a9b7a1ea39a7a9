/**
 * memgauge: measure how LLM-agent memory trades utility against poisoning risk, one memory
 * stage at a time. This module re-exports the public API; notebooks import it.
 *
 * @module
 */

// Data model (the kit's public contract)
export * from "./model/source_unit.ts";
export * from "./model/trace.ts";
export * from "./model/memory_record.ts";
export * from "./model/instance.ts";
export * from "./model/operating_point.ts";
export * from "./model/trial_row.ts";

// Randomness
export * from "./random/prng.ts";
export * from "./random/derive_seed.ts";
export * from "./random/shuffle.ts";

// Stages
export * from "./stages/writing/ranker.ts";
export * from "./stages/writing/writer.ts";
export * from "./stages/writing/admit.ts";
export * from "./stages/writing/admitted_count.ts";
export * from "./stages/writing/rankers/usefulness.ts";
export * from "./stages/writing/rankers/random.ts";
export * from "./stages/writing/rankers/chronological.ts";
export * from "./stages/writing/writers/verbatim.ts";
export * from "./stages/writing/write_once_cache.ts";
export * from "./stages/writing/write_trace_record.ts";
export * from "./stages/management/policy.ts";
export * from "./stages/management/policies.ts";
export * from "./stages/management/unmanaged.ts";
export * from "./stages/management/provenance_quarantine.ts";
export * from "./stages/management/numeric_conflict.ts";
export * from "./stages/management/strict_conflict.ts";
export * from "./stages/retrieval/exposure_schedule.ts";
export * from "./stages/retrieval/fill_order.ts";
export * from "./stages/retrieval/pair_contexts.ts";

// Agents and judges
export * from "./agents/agent.ts";
export * from "./agents/personas.ts";
export * from "./agents/reference_agent.ts";
export * from "./agents/resolve_agents.ts";
export * from "./judges/judge.ts";
export * from "./judges/normalize.ts";
export * from "./judges/matches.ts";
export * from "./judges/deterministic_judge.ts";

// Data
export * from "./data/dataset.ts";
export * from "./data/datasets.ts";

// Running
export * from "./run/operating_points.ts";
export * from "./run/plan_sweep.ts";
export * from "./run/run_pair.ts";
export * from "./run/run_sweep.ts";
export * from "./run/sweep_resources.ts";
export * from "./run/sweep.ts";
export * from "./run/progress.ts";
export * from "./run/quick_summary.ts";
export * from "./run/jupyter_progress.ts";

// Statistics
export * from "./stats/summarize.ts";
export * from "./stats/across_agents.ts";
export * from "./stats/to_long.ts";

// Experiments and figures
export * from "./experiments/experiment_setup.ts";
export * from "./experiments/stage_experiments.ts";
export * from "./figures/dom.ts";
export * from "./figures/compose_figure.ts";
export * from "./figures/export_figure.ts";
export * from "./figures/paper_values.ts";
export * from "./figures/paper_tables.ts";
export * from "./figures/figure3_stages.ts";
export * from "./figures/stage_figure.ts";
export * from "./figures/mid_figure.ts";
export * from "./figures/top_k_figure.ts";
