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
export * from "./model/registry.ts";
export * from "./model/trial_row.ts";
export * from "./model/system_row.ts";
export * from "./model/model_usage.ts";
export * from "./model/stable_id.ts";
export * from "./model/trajectory_id.ts";

// Text helpers
export * from "./text/months.ts";
export * from "./text/number_words.ts";
export * from "./text/token_jaccard.ts";
export * from "./text/normalize.ts";
export * from "./text/matches.ts";
export * from "./text/reasoning.ts";

// Files written whole (temporary name, then rename) and paths checked before work
export * from "./io/atomic_write.ts";
export * from "./io/path_problem.ts";

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
export * from "./stages/writing/rankers/distinctiveness.ts";
export * from "./stages/writing/writers/verbatim.ts";
export * from "./stages/writing/rankers.ts";
export * from "./stages/writing/writers.ts";
export * from "./stages/writing/writers/llm.ts";
export * from "./stages/writing/rankers/llm.ts";
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

// Models (any OpenAI-compatible endpoint)
export * from "./models/model_client.ts";
export * from "./models/model_catalog.ts";
export * from "./models/response_cache.ts";
export * from "./models/request_limiter.ts";
export * from "./models/redact.ts";
export * from "./models/parse_json_reply.ts";
export * from "./models/structured_output.ts";
export * from "./models/rate_limit_headers.ts";
export * from "./models/check_endpoint.ts";

// Agents and judges
export * from "./agents/llm_agent.ts";
export * from "./judges/llm_judge.ts";
export * from "./judges/self_judge.ts";
export * from "./judges/format_trajectory.ts";
export * from "./agents/agent.ts";
export * from "./agents/agent_spec.ts";
export * from "./agents/mechanisms.ts";
export * from "./agents/mechanisms/instructions.ts";
export * from "./agents/personas.ts";
export * from "./agents/reference_agent.ts";
export * from "./agents/resolve_agents.ts";
export * from "./agents/agents.ts";
export * from "./agents/memory_prompt.ts";
export * from "./agents/search_memory_tool.ts";
export * from "./agents/simulator_caveat.ts";
export * from "./judges/judge.ts";
export * from "./judges/deterministic_judge.ts";
export * from "./judges/judges.ts";
export * from "./judges/committed_answer.ts";
export * from "./judges/judge_rows.ts";

// Data
export * from "./data/dataset.ts";
export * from "./data/datasets.ts";
export * from "./data/data_dir.ts";
export * from "./data/data_files.ts";
export * from "./data/demo.ts";
export * from "./data/load_instance_file.ts";
export * from "./data/locomo/load_locomo.ts";
export * from "./data/locomo/build_locomo.ts";
export * from "./data/longmemeval/load_longmemeval.ts";
export * from "./data/longmemeval/build_longmemeval.ts";
export * from "./data/build_instances.ts";
export * from "./data/render_instance.ts";
export * from "./data/dataset_stats.ts";
export * from "./data/missing_data_file_error.ts";
export * from "./data/read_json_file.ts";
export * from "./data/attack_targets.ts";
export * from "./data/attacks/minja.ts";
export * from "./data/attacks/sleeper.ts";
export * from "./data/typed_lexicon.ts";
export * from "./data/question_head.ts";

// Running
export * from "./run/operating_points.ts";
export * from "./run/plan_sweep.ts";
export * from "./run/run_pair.ts";
export * from "./run/run_sweep.ts";
export * from "./run/sweep_resources.ts";
export * from "./run/plugins.ts";
export * from "./run/sweep.ts";
export * from "./run/counterfactual.ts";
export * from "./run/progress.ts";
export * from "./run/quick_summary.ts";
export * from "./run/error_summary.ts";
export * from "./run/jupyter_progress.ts";
export * from "./run/model_setup.ts";
export * from "./run/rows_file.ts";
export * from "./run/run_phase.ts";
export * from "./run/run_manifest.ts";
export * from "./run/out_lock.ts";
export * from "./run/plan/request_plan.ts";
export * from "./run/plan/stand_in_reply.ts";
export * from "./run/plan/token_estimate.ts";
export * from "./run/plan/plan_cost.ts";
export * from "./run/plan/format_plan.ts";
export * from "./run/plan/sweep_shape.ts";
export * from "./run/plan/plan_sweep_run.ts";
export * from "./run/batch/batch_plan_store.ts";
export * from "./run/batch/request_phase.ts";
export * from "./run/batch/write_batch_requests.ts";
export * from "./run/batch/batch_output_line.ts";
export * from "./run/batch/import_batch_results.ts";

// Statistics
export * from "./stats/summarize.ts";
export * from "./stats/summarize_file.ts";
export * from "./stats/summary_metrics.ts";
export * from "./stats/interval.ts";
export * from "./stats/wilson_interval.ts";
export * from "./stats/newcombe_interval.ts";
export * from "./stats/paired_bootstrap.ts";
export * from "./stats/bootstrap_ratios.ts";
export * from "./stats/multinomial_sampler.ts";
export * from "./stats/read_rows.ts";
export * from "./stats/across_agents.ts";
export * from "./stats/to_long.ts";
export * from "./stats/rsr.ts";
export * from "./stats/writing_retention.ts";
export * from "./stats/percent_agreement.ts";
export * from "./stats/cohens_kappa.ts";
export * from "./stats/fleiss_kappa.ts";
export * from "./stats/majority_vote.ts";
export * from "./stats/judge_agreement.ts";
export * from "./stats/annotator_agreement.ts";
export * from "./stats/read_judge_labels.ts";

// Experiments and figures
export * from "./experiments/repo_paths.ts";
export * from "./experiments/notebook_param.ts";
export * from "./experiments/backend.ts";
export * from "./experiments/notebook_setup.ts";
export * from "./experiments/experiment_setup.ts";
export * from "./experiments/stage_experiments.ts";
export * from "./experiments/judge_trajectories.ts";
export * from "./experiments/anatomy.ts";
export * from "./experiments/hand_labels.ts";
export * from "./experiments/figures/figure_result.ts";
export * from "./experiments/figures/figure3.ts";
export * from "./experiments/figures/mid_intervals.ts";
export * from "./experiments/figures/rq2_figures.ts";
export * from "./experiments/figures/figures.ts";
export * from "./experiments/figures/existing_systems.ts";
export * from "./figures/dom.ts";
export * from "./figures/labels.ts";
export * from "./figures/display_figure.ts";
export * from "./figures/display_table.ts";
export * from "./figures/beside_paper.ts";
export * from "./figures/compact_summary.ts";
export * from "./figures/compose_figure.ts";
export * from "./figures/export_figure.ts";
export * from "./figures/paper_values.ts";
export * from "./figures/paper_tables.ts";
export * from "./figures/figure3_stages.ts";
export * from "./figures/stage_figure.ts";
export * from "./figures/mid_figure.ts";
export * from "./figures/counterfactual_figure.ts";
export * from "./figures/top_k_figure.ts";

// Existing memory systems (Mem0, LangMem, A-MEM, Hindsight)
export * from "./systems/memory_system.ts";
export * from "./systems/system_port.ts";
export * from "./systems/embedding_client.ts";
export * from "./systems/provenance.ts";
export * from "./systems/rsr.ts";
export * from "./systems/measure.ts";
export * from "./systems/system_setup.ts";
export * from "./systems/system_plan.ts";
export * from "./systems/resolve_system.ts";
export * from "./systems/systems.ts";
export * from "./systems/mem0/mem0_system.ts";
export * from "./systems/mem0/mem0_classic_system.ts";
export * from "./systems/langmem/langmem_system.ts";
export * from "./systems/langmem/memory_manager.ts";
export * from "./systems/amem/amem_system.ts";
export * from "./systems/hindsight.ts";
export * from "./systems/cosine.ts";
export * from "./systems/system_table1.ts";
export * from "./systems/system_table2.ts";
