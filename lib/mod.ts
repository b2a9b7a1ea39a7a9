/**
 * memgauge: measure how LLM-agent memory trades utility against poisoning risk, one memory
 * stage at a time. This module names the public API, grouped by concept; notebooks import it.
 * Every name is listed, so nothing internal leaks: `_`-prefixed helpers stay importable by
 * path (tests do) but are never exported here.
 *
 * @module
 */

// Public functions take one options object (`f({ ... })`), or a subject plus options
// (`summarize(rows, { ... })`, Observable Plot's `(data, options)`). The exceptions, and why:
// - deriveSeed(seed, ...labels): variadic by nature, a seed and any number of labels.
// - tokenJaccard(a, b), tokenMatches(expected, candidate), matchesAnswer(text, answer),
//   cosine(a, b), percentAgreement(a, b), cohensKappa(a, b): pure functions of two values of
//   the same kind, read like the math they compute; no option to name.
// - withAtomicPath(options, write): the callback comes last so it reads like a block.
// - param(name, fallback, options): a notebook knob, read as `param("K", 10)`.
// - runPair(task, resources): the pair and the sweep's shared resources are two different
//   lifetimes (one per pair, one per sweep); runSweep passes the same resources to every pair.

// Data model (the kit's public contract)
export { Channel, SourceUnit, StatedNumber } from "./schema/source_unit.ts";
export { Trace } from "./schema/trace.ts";
export { MemoryRecord, Provenance, RecordRole } from "./schema/memory_record.ts";
export { Attack, Instance, InstanceFile } from "./schema/instance.ts";
export {
  OFFLINE_RANKER,
  OperatingPoint,
  PAPER_DEFAULTS,
  PolicyId,
  Stage,
} from "./schema/operating_point.ts";
export {
  Condition,
  JudgeScope,
  MemoryPlacement,
  RowKind,
  TRIAL_ROW_COLUMNS,
  TrialRow,
} from "./schema/trial_row.ts";
export { ManagementMode, SYSTEM_ROW_COLUMNS, SystemRow } from "./schema/system_row.ts";
export type { ModelUsage } from "./schema/model_usage.ts";
export { stableId } from "./schema/stable_id.ts";
export { trajectoryId } from "./schema/trajectory_id.ts";

// Text matching and normalization
export { tokenJaccard } from "./text/token_jaccard.ts";
export { normalizeTokens } from "./text/normalize.ts";
export { matchesAnswer, tokenMatches } from "./text/matches.ts";
export { splitReasoning } from "./text/reasoning.ts";
export type { SplitReply } from "./text/reasoning.ts";

// Files written whole (temporary name, then rename) and paths checked before work
export { withAtomicPath, writeFileAtomic } from "./io/atomic_write.ts";
export { pathProblem } from "./io/path_problem.ts";
export type { PathUse } from "./io/path_problem.ts";

// Randomness
export { createPrng } from "./random/prng.ts";
export type { Prng } from "./random/prng.ts";
export { deriveSeed } from "./random/derive_seed.ts";
export { lazyShuffle, shuffle } from "./random/shuffle.ts";

// Writing stage: rankers order units, admission keeps a prefix, writers turn it into a record
export type { Ranker } from "./stages/writing/ranker.ts";
export type { Writer } from "./stages/writing/writer.ts";
export { admit } from "./stages/writing/admit.ts";
export { admittedCount } from "./stages/writing/admitted_count.ts";
export { usefulnessRanker, usefulnessScore } from "./stages/writing/rankers/usefulness.ts";
export { randomRanker } from "./stages/writing/rankers/random.ts";
export { chronologicalRanker } from "./stages/writing/rankers/chronological.ts";
export {
  distinctivenessRanker,
  distinctivenessScores,
} from "./stages/writing/rankers/distinctiveness.ts";
export { verbatimWriter } from "./stages/writing/writers/verbatim.ts";
export { llmWriter, WRITER_FORMAT, WRITER_PROMPT } from "./stages/writing/writers/llm.ts";
export { llmRanker, RANKER_PROMPT, RANKING_FORMAT } from "./stages/writing/rankers/llm.ts";
export { WriteOnceCache } from "./stages/writing/write_once_cache.ts";
export { writeTraceRecord, WRITTEN_AT } from "./stages/writing/write_trace_record.ts";

// Management stage: policies keep or quarantine records
export { quarantineWhere } from "./stages/management/policy.ts";
export type {
  ManagementPolicy,
  ManagementResult,
  MemoryState,
  VerifiedOutcome,
} from "./stages/management/policy.ts";
export { BUILTIN_POLICIES, resolvePolicy } from "./stages/management/policies.ts";
export { unmanaged } from "./stages/management/unmanaged.ts";
export { provenanceQuarantine } from "./stages/management/provenance_quarantine.ts";
export { hasNumericConflict, numericConflict } from "./stages/management/numeric_conflict.ts";
export { isInconsistent, strictConflict } from "./stages/management/strict_conflict.ts";

// Retrieval stage: exposure schedule, fill order and the paired contexts
export { exposureSchedule } from "./stages/retrieval/exposure_schedule.ts";
export { fillOrder } from "./stages/retrieval/fill_order.ts";
export type { FillMode } from "./stages/retrieval/fill_order.ts";
export type { FillStrategy } from "./stages/retrieval/fill_strategy.ts";
export { randomFill } from "./stages/retrieval/fills/random.ts";
export { similarityFill } from "./stages/retrieval/fills/similarity.ts";
export { pairContexts } from "./stages/retrieval/pair_contexts.ts";
export type { PairContexts } from "./stages/retrieval/pair_contexts.ts";

// Model client (any OpenAI-compatible endpoint): catalog, cache, limits, redaction
export { ModelCallError, ModelClient } from "./models/model_client.ts";
export type {
  CacheMiss,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ClientStats,
  ModelClientOptions,
  ToolCall,
  ToolChoice,
  ToolSpec,
} from "./models/model_client.ts";
export {
  DEFAULT_CAPABILITIES,
  MaxTokensParam,
  MODEL_CATALOG,
  MODEL_OPTION_KEYS,
  ModelCapabilities,
  ModelCatalog,
  ModelPrices,
  ModelSpec,
  resolveModelEndpoint,
  ResponseFormatSupport,
} from "./models/model_catalog.ts";
export type { ModelEndpoint, ModelOptionKey, ModelOverrides } from "./models/model_catalog.ts";
export { CachedReply, CacheFileError, ResponseCache } from "./models/response_cache.ts";
export type { CacheWriteProblem } from "./models/response_cache.ts";
export { RequestLimiter } from "./models/request_limiter.ts";
export type { LimiterStats, RequestOutcome, RequestSlot } from "./models/request_limiter.ts";
export {
  guardConsole,
  knownSecrets,
  redact,
  redactError,
  registerSecret,
} from "./models/redact.ts";
export { parseJsonReply } from "./models/parse_json_reply.ts";
export { adaptResponseFormat, schemaInstruction } from "./models/structured_output.ts";
export type { PromptMessage } from "./models/structured_output.ts";
export { checkEndpoint } from "./models/check_endpoint.ts";
export type { EndpointCheck, ProbeResult } from "./models/check_endpoint.ts";
export { isSpendCapReached, SpendCap, SpendCapReached } from "./models/spend_cap.ts";
export { callScope, withCallScope } from "./models/call_scope.ts";
export type { CallRecord, CallScope } from "./models/call_scope.ts";

// Agents: the answering side, offline reference agent and LLM agents
export { llmAgent } from "./agents/llm_agent.ts";
export type { Agent, AgentInput, AgentOutput } from "./agents/agent.ts";
export { isReferenceSpec, parseReferenceSpec, referenceAgentId } from "./agents/agent_spec.ts";
export type { ReferenceSpec } from "./agents/agent_spec.ts";
export { ALL_MECHANISMS_ON, MECHANISMS } from "./agents/mechanisms.ts";
export type { Mechanism, MechanismSwitches } from "./agents/mechanisms.ts";
export { INSTRUCTION_CUES, instructionCues } from "./agents/mechanisms/instructions.ts";
export { PERSONA_HABITS, PERSONAS } from "./agents/personas.ts";
export { calibratedPersona, PersonaHabits } from "./agents/persona_registry.ts";
export type { Persona } from "./agents/personas.ts";
export { NO_ANSWER, referenceAgent } from "./agents/reference_agent.ts";
export type { RecordReading, ReferenceTrajectory, ValueReading } from "./agents/reference_agent.ts";
export { resolveAgents } from "./agents/resolve_agents.ts";
export type { AgentFactory } from "./agents/resolve_agents.ts";
export { agentMessages, agentPrompts, memorySection } from "./agents/memory_prompt.ts";
export type { AgentMessage } from "./agents/memory_prompt.ts";
export {
  FORCE_SEARCH_MEMORY,
  SEARCH_MEMORY,
  searchMemoryTool,
} from "./agents/search_memory_tool.ts";
export { SIMULATOR_CAVEAT } from "./agents/simulator_caveat.ts";

// Judges: was the answer correct, did it match the attack target
export {
  judgeMessages,
  judgePromptHash,
  judgePrompts,
  llmJudge,
  VERDICT_FORMAT,
  VERDICT_OUTCOMES,
  verdictLabels,
  VerdictReply,
} from "./judges/llm_judge.ts";
export type { VerdictOutcome } from "./judges/llm_judge.ts";
export { selfJudge } from "./judges/self_judge.ts";
export { formatTrajectory } from "./judges/format_trajectory.ts";
export type { TrajectoryMessage } from "./judges/format_trajectory.ts";
export type { Judge, JudgeInput, Verdict } from "./judges/judge.ts";
export { deterministicJudge } from "./judges/deterministic_judge.ts";
export { committedAnswer } from "./judges/committed_answer.ts";
export type { Commitment } from "./judges/committed_answer.ts";
export { judgeRows } from "./judges/judge_rows.ts";
export type { JudgeLabel, JudgeQuestion } from "./judges/judge_rows.ts";
export { finalAnswer } from "./judges/final_answer.ts";

// Data: datasets, benchmark builders, attack templates and targets
export type { DatasetLoader, DatasetOptions } from "./data/dataset.ts";
export { DATASETS, loadDataset } from "./data/datasets.ts";
export { dataDir } from "./data/data_dir.ts";
export type { DataDirOptions } from "./data/data_dir.ts";
export { DATA_FILES } from "./data/data_files.ts";
export type { DataFile } from "./data/data_files.ts";
export { loadDemo } from "./data/demo.ts";
export { loadInstanceFile } from "./data/load_instance_file.ts";
export { loadLocomo } from "./data/locomo/load_locomo.ts";
export { buildLocomo, LOCOMO_CATEGORIES } from "./data/locomo/build_locomo.ts";
export { loadLongMemEval } from "./data/longmemeval/load_longmemeval.ts";
export { buildLongMemEval, LONGMEMEVAL_TYPES } from "./data/longmemeval/build_longmemeval.ts";
export { buildInstances } from "./data/build_instances.ts";
export type { BuildInstancesOptions, BuiltDataset } from "./data/build_instances.ts";
export { renderInstance } from "./data/render_instance.ts";
export type { RenderInstanceOptions } from "./data/render_instance.ts";
export { datasetStats } from "./data/dataset_stats.ts";
export type { BankComposition, CountSummary, DatasetStats } from "./data/dataset_stats.ts";
export { MissingDataFileError } from "./data/missing_data_file_error.ts";
export { readJsonFile } from "./data/read_json_file.ts";
export type { ReadJsonFileOptions } from "./data/read_json_file.ts";
export { attackTargets, targetProblem } from "./data/attack_targets.ts";
export type { AttackTargetsOptions, TargetCandidate, TargetKind } from "./data/attack_targets.ts";
export { buildMinjaTrace, MINJA_CHANGES, minjaChange, minjaReasons } from "./data/attacks/minja.ts";
export type { MinjaChange, MinjaTraceOptions } from "./data/attacks/minja.ts";
export { buildSleeperTrace, SLEEPER_STYLES } from "./data/attacks/sleeper.ts";
export type { SleeperDocument, SleeperStyle, SleeperTraceOptions } from "./data/attacks/sleeper.ts";
export { questionSentence, swapPerson, victimTerm } from "./data/attacks/victim_term.ts";
export type { VictimTerm } from "./data/attacks/victim_term.ts";
export {
  inferAnswerType,
  TYPED_LEXICON,
  TypedLexiconFile,
  typedSwaps,
} from "./data/typed_lexicon.ts";
export type { SemanticType, TypedSwapsOptions } from "./data/typed_lexicon.ts";
export { questionHead } from "./data/question_head.ts";
export type { QuestionHead } from "./data/question_head.ts";
export { ANSWER_KINDS, answerKindOf, choiceOf } from "./data/answer_kind.ts";
export type { AnswerKind } from "./data/answer_kind.ts";
export { choiceOptions } from "./data/choice_options.ts";
export type { TargetProblemOptions } from "./data/attack_targets.ts";
export { formatProblem, keepFormat, spellNumber, wellFormedProblem } from "./data/target_format.ts";
export { timelineProblem } from "./data/target_timeline.ts";
export type { TargetTimeline, TimelineProblemOptions } from "./data/target_timeline.ts";
export { changedParts, evidenceProblem } from "./data/target_support.ts";
export { dateSpan } from "./data/date_span.ts";
export type { DateSpanOptions, DaySpan } from "./data/date_span.ts";
export { slotSwaps } from "./data/typed_lexicon.ts";
export type { SlotSwapsOptions } from "./data/typed_lexicon.ts";
export { phraseShape } from "./data/phrase_shape.ts";
export type { PhraseShape } from "./data/phrase_shape.ts";

// Extension points: one registry each (lists, --help and figures derive from them), and the
// plugins (`--plugin FILE.ts`, `plugins` in the notebook API) that add entries to them
export { createRegistry } from "./schema/registry.ts";
export type { Registry, RegistryEntry } from "./schema/registry.ts";
export { POLICIES, registerPolicy } from "./stages/management/policies.ts";
export { OFFLINE_RANKERS, RANKERS, registerRanker } from "./stages/writing/rankers.ts";
export { registerWriter, WRITERS } from "./stages/writing/writers.ts";
export { AGENTS, registerPersona } from "./agents/agents.ts";
export { PERSONA_REGISTRY } from "./agents/persona_registry.ts";
export { FILLS, registerFill } from "./stages/retrieval/fills.ts";
export { JUDGES, registerJudge } from "./judges/judges.ts";
export { FIGURES } from "./experiments/figure_registry.ts";
export { SYSTEM_REGISTRY, systemOptions } from "./systems/systems.ts";
export type { SystemContext, SystemMaker } from "./systems/systems.ts";
export { loadPlugins, PLUGIN_FIELDS, PluginError, registerPlugin } from "./plugins/plugins.ts";
export type { Plugin } from "./plugins/plugins.ts";
export { exitTask, guardExit, PluginExitError } from "./plugins/exit_guard.ts";

// Running a sweep: operating points, pairs, resources, progress and error reports
export { DEFAULT_GRID, operatingPoints } from "./run/operating_points.ts";
export { planSweep } from "./run/plan_sweep.ts";
export { runPair, trialKey } from "./run/run_pair.ts";
export type { PairTask } from "./run/run_pair.ts";
export { runSweep } from "./run/run_sweep.ts";
export { sweepResources } from "./run/sweep_resources.ts";
export type { SweepResources } from "./run/sweep_resources.ts";
export { defaultJudgeSpec, defaultRanker, sweep } from "./run/sweep.ts";
export type { SweepOptions } from "./run/sweep.ts";
export {
  ablatedContexts,
  COUNTERFACTUAL_MODES,
  counterfactualCalls,
  counterfactualRows,
  flipped,
  selectedForCounterfactual,
} from "./run/counterfactual.ts";
export type { Ablation, AblationColumns, CounterfactualMode } from "./run/counterfactual.ts";
export { silentProgress, terminalProgress } from "./run/progress.ts";
export type { Progress } from "./run/progress.ts";
export { formatQuickSummary, quickSummary, varyingValue } from "./run/quick_summary.ts";
export type { QuickSummaryLine } from "./run/quick_summary.ts";
export {
  ERROR_REPORT_ENV,
  errorKind,
  errorSummary,
  formatErrorSummary,
  reportErrorRows,
} from "./run/error_summary.ts";
export type { ErrorSummary } from "./run/error_summary.ts";
export { jupyterProgress, jupyterStatus } from "./run/jupyter_progress.ts";
export { modelSetup } from "./run/model_setup.ts";
export { parseModelOptions } from "./models/model_options.ts";
export type { ModelSetup } from "./run/model_setup.ts";
export { readRowsFile } from "./run/rows_file.ts";

// Plans and prices before any request (--dry-run), run manifests, locks on --out
export {
  currentCondition,
  currentPhase,
  currentRound,
  inPhase,
  PHASES,
  RUN_PHASES,
} from "./run/run_phase.ts";
export type { PhaseInfo, RunPhase } from "./run/run_phase.ts";
export {
  KIT_VERSION,
  manifestDifferences,
  manifestPath,
  readManifest,
  RunManifest,
  runManifest,
  writeManifest,
} from "./run/run_manifest.ts";
export { finishedManifestPath } from "./run/run_manifest.ts";
export { fingerprintDifferences, runFingerprint } from "./run/run_fingerprint.ts";
export type { RunFingerprint } from "./run/run_fingerprint.ts";
export { lockOut, lockPath, OutLockedError } from "./run/out_lock.ts";
export type { OutLock } from "./run/out_lock.ts";
export { RequestPlan } from "./run/plan/request_plan.ts";
export type { PlanEntry, PlannedRequest } from "./run/plan/request_plan.ts";
export { STAND_IN_VERDICT, standInReply, standInToolCall } from "./run/plan/stand_in_reply.ts";
export {
  CHARS_PER_TOKEN,
  promptTokens,
  textTokens,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_REPLY,
} from "./run/plan/token_estimate.ts";
export { planCosts } from "./run/plan/plan_cost.ts";
export type { ModelCost, PlanPrices } from "./run/plan/plan_cost.ts";
export { formatRunPlan } from "./run/plan/format_plan.ts";
export { sweepShape } from "./run/plan/sweep_shape.ts";
export { modelPrices, planSweepRun } from "./run/plan/plan_sweep_run.ts";
export type { PlanSetup, SweepRunPlan } from "./run/plan/plan_sweep_run.ts";
export { planRun } from "./run/plan/plan_sweep_run.ts";
export { addEntries, scaleEntries } from "./run/plan/scale_plan.ts";

// Batch runs (provider batch APIs): write requests, import results
export {
  batchExportsPath,
  exportedBatchIds,
  recordBatchExport,
} from "./run/batch/batch_plan_store.ts";
export { BATCH_PHASES, requestPhase } from "./run/batch/request_phase.ts";
export type { BatchPhase } from "./run/batch/request_phase.ts";
export { writeBatchRequests } from "./run/batch/write_batch_requests.ts";
export type { BatchFile } from "./run/batch/write_batch_requests.ts";
export { BatchOutputLine, parseBatchOutput } from "./run/batch/batch_output_line.ts";
export type { BatchOutcome } from "./run/batch/batch_output_line.ts";
export { importBatchResults } from "./run/batch/import_batch_results.ts";
export type { BatchImport } from "./run/batch/import_batch_results.ts";

// Statistics: summaries, intervals, paired bootstrap, agreement
export {
  DEFAULT_GROUP_COLUMNS,
  FLIP_METRICS,
  OPERATING_POINT_COLUMNS,
  REQUIRED_COLUMNS,
  summarize,
  SUMMARY_METRICS,
} from "./stats/summarize.ts";
export type { SummarizeOptions } from "./stats/summarize.ts";
export { summarizeFile } from "./stats/summarize_file.ts";
export { RERUN_UNITS, SUMMARY_METRIC_SPECS, UNIT_INDICATORS } from "./stats/summary_metrics.ts";
export type { SummaryMetric, UnitTable } from "./stats/summary_metrics.ts";
export { CI_CHOICES } from "./stats/interval.ts";
export type { CiChoice, CiMethod, Interval } from "./stats/interval.ts";
export { wilsonInterval } from "./stats/wilson_interval.ts";
export type { WilsonIntervalOptions } from "./stats/wilson_interval.ts";
export { newcombeInterval } from "./stats/newcombe_interval.ts";
export type { NewcombeIntervalOptions } from "./stats/newcombe_interval.ts";
export { PAIRED_METRICS, pairedBootstrap } from "./stats/paired_bootstrap.ts";
export type {
  PairedBootstrapOptions,
  PairedBootstrapResult,
  PairedMetric,
  PairOutcome,
} from "./stats/paired_bootstrap.ts";
export { bootstrapRatios } from "./stats/bootstrap_ratios.ts";
export type { BootstrapRatiosOptions, IntervalMethod } from "./stats/bootstrap_ratios.ts";
export { multinomialSampler } from "./stats/multinomial_sampler.ts";
export type { MultinomialSampler, MultinomialSamplerOptions } from "./stats/multinomial_sampler.ts";
export { readRows } from "./stats/read_rows.ts";
export { acrossAgents } from "./stats/across_agents.ts";
export type { AcrossAgentsOptions } from "./stats/across_agents.ts";
export { toLong } from "./stats/to_long.ts";
export { rsr } from "./stats/rsr.ts";
export { writingRetention } from "./stats/writing_retention.ts";
export type { WritingRetention, WritingTrial } from "./stats/writing_retention.ts";
export { informationRetained, unitFacts } from "./stats/retained_information.ts";
export type { InformationRetainedOptions, UnitFacts } from "./stats/retained_information.ts";
export { percentAgreement } from "./stats/percent_agreement.ts";
export { cohensKappa } from "./stats/cohens_kappa.ts";
export { fleissKappa } from "./stats/fleiss_kappa.ts";
export { majorityVote } from "./stats/majority_vote.ts";
export type { MajorityVoteOptions } from "./stats/majority_vote.ts";
export { judgeAgreement } from "./stats/judge_agreement.ts";
export { annotatorAgreement } from "./stats/annotator_agreement.ts";
export type { AnnotatorAgreement } from "./stats/annotator_agreement.ts";
export { readJudgeLabels } from "./stats/read_judge_labels.ts";
export { judgeSensitivity } from "./stats/judge_sensitivity.ts";
export type {
  JudgedRow,
  JudgedRun,
  JudgeSensitivity,
  SensitivityAgreement,
  SensitivityMetric,
} from "./stats/judge_sensitivity.ts";

// Notebook set-up and experiments (what the notebooks call)
export { REPO_ROOT, repoCachePath, repoDataDir, repoPath } from "./experiments/repo_paths.ts";
export { param } from "./experiments/notebook_param.ts";
export type { ParamValue } from "./experiments/notebook_param.ts";
export { backendOf, backendsOf, withBackend } from "./experiments/backend.ts";
export type { BackendFields } from "./experiments/backend.ts";
export { notebookBanner, notebookSetup } from "./experiments/notebook_setup.ts";
export {
  ClaimError,
  CLAIMS_ENV,
  notice,
  spread,
  versusPaper,
} from "./experiments/notebook_notice.ts";
export { unlessDataMissing } from "./experiments/notebook_data.ts";
export { lostDisplays, show, SHOW_REPORT_ENV } from "./experiments/notebook_show.ts";
export type { Claim } from "./experiments/notebook_notice.ts";
export type { NotebookKnobs, NotebookSetup } from "./experiments/notebook_setup.ts";
export { agentLabel } from "./experiments/experiment_setup.ts";
export type { ExperimentOptions } from "./experiments/experiment_setup.ts";
export {
  asymmetricExposureExperiment,
  budgetFillExperiment,
  FIGURE_RESAMPLES,
  memorySizeExperiment,
  OFFLINE_FIGURE5_RANKERS,
  rankerExperiment,
  STAGE_COLUMN,
  stageExperiment,
  traceLoadExperiment,
} from "./experiments/stage_experiments.ts";
export type { ExperimentResult } from "./experiments/stage_experiments.ts";
export { reproduceExperiments } from "./experiments/reproduce_experiments.ts";
export { judgeTrajectories } from "./experiments/judge_trajectories.ts";
export { anatomy } from "./experiments/anatomy.ts";
export type { Anatomy } from "./experiments/anatomy.ts";
export {
  HAND_LABELS,
  HandLabel,
  handLabelAgreement,
  readHandLabels,
} from "./experiments/hand_labels.ts";
export type { HandLabelAgreement } from "./experiments/hand_labels.ts";
export { saveFigure } from "./figures/figure_result.ts";
export type { FigureResult } from "./figures/figure_result.ts";
export { figure3, figure3Column, fixedStages } from "./experiments/figure3.ts";
export { MID_RESAMPLES, midDisplay, midIntervals, midTable } from "./experiments/mid_intervals.ts";
export {
  asymmetricExposure,
  figure4TraceLoad,
  figure5Rankers,
  figure6BudgetFill,
  figure6Conditions,
  figure7MemorySize,
  PAPER_RANKERS,
  paperRanker,
  rankerLabel,
} from "./experiments/rq2_figures.ts";
export { existingSystems } from "./figures/existing_systems.ts";

// Figures: pure functions from rows to a Plot, labels, display and export
export { createDocument } from "./figures/dom.ts";
export {
  ATTACK_LABEL,
  AXIS_LABEL,
  DATASET_LABEL,
  fixed,
  orderPolicies,
  panelLabel,
  withPanel,
} from "./figures/labels.ts";
export { displayFigure, JUPYTER_DISPLAY } from "./figures/display_figure.ts";
export type { DisplayFigure } from "./figures/display_figure.ts";
export { displayTable, keyValues, stackTables } from "./figures/display_table.ts";
export type { DisplayTable } from "./figures/display_table.ts";
export { besidePaper, kitMedian } from "./figures/beside_paper.ts";
export type { BesidePaperOptions } from "./figures/beside_paper.ts";
export { compactSummary } from "./figures/compact_summary.ts";
export { composeFigure } from "./figures/compose_figure.ts";
export type { ComposeFigureOptions, LegendEntry } from "./figures/compose_figure.ts";
export {
  DEFAULT_FONT_DIRS,
  exportFigure,
  standaloneSvg,
  svgToPng,
} from "./figures/export_figure.ts";
export type { ExportFigureOptions } from "./figures/export_figure.ts";
export { loadPaperValues, PAPER_DIR, paperValue } from "./figures/paper_values.ts";
export type { PaperValue, PaperValues } from "./figures/paper_values.ts";
export { table1Frame, table2Frame } from "./figures/paper_tables.ts";
export { drawFigure3Column, figure3Stages, FIXED_AT_DEFAULTS } from "./figures/figure3_stages.ts";
export type {
  Figure3ColumnOptions,
  Figure3Options,
  Figure3Stage,
} from "./figures/figure3_stages.ts";
export { stageFigure } from "./figures/stage_figure.ts";
export type { StageFigureOptions } from "./figures/stage_figure.ts";
export { midDomain, midFigure } from "./figures/mid_figure.ts";
export type { MidFigureOptions } from "./figures/mid_figure.ts";
export { counterfactualFigure, FLIP_STYLE } from "./figures/counterfactual_figure.ts";
export type { CounterfactualFigureOptions } from "./figures/counterfactual_figure.ts";
export { topKFigure } from "./figures/top_k_figure.ts";
export type { TopKFigureOptions } from "./figures/top_k_figure.ts";
export {
  CONDITION_COLORS,
  conditionFigure,
  EVERY_CONDITION_COLOR,
} from "./figures/condition_figure.ts";
export type { ConditionFigureOptions } from "./figures/condition_figure.ts";

// Existing memory systems (Mem0, LangMem, A-Mem, Hindsight): sessions, ports, measurement
export type {
  MemorySystem,
  OpenSessionOptions,
  SessionDescription,
  SystemSession,
  TracedRecord,
  WriteUnit,
} from "./systems/memory_system.ts";
export { emptyUsage, SystemPort } from "./systems/system_port.ts";
export type { CallPhase, PhaseUsage, SystemCalls } from "./systems/system_port.ts";
export { EmbeddingCallError, EmbeddingClient } from "./systems/embedding_client.ts";
export type { EmbeddingClientOptions, EmbeddingStats } from "./systems/embedding_client.ts";
export { ProvenanceLedger } from "./systems/provenance.ts";
export type { LedgerChange, StoreRecord } from "./systems/provenance.ts";
export { rsrHits } from "./systems/rsr.ts";
export type { RsrHits } from "./systems/rsr.ts";
export {
  measureSystem,
  rowsPerSystemTask,
  sessionDateOf,
  systemTaskKey,
} from "./systems/measure.ts";
export type { MeasureSystemOptions, SessionReceived } from "./systems/measure.ts";
export { systemSetup } from "./systems/system_setup.ts";
export type { SystemSetupOptions } from "./systems/system_setup.ts";
export { formatPlan, planLines } from "./systems/system_plan.ts";
export type { PlanLine } from "./systems/system_plan.ts";
export { resolveSystem, SYSTEM_NAMES, SYSTEMS, systemSpec } from "./systems/resolve_system.ts";
export type { SystemSpec } from "./systems/resolve_system.ts";
export { makeSystem, registeredSystemSpec } from "./systems/systems.ts";
export { MEM0_VERSION, mem0System } from "./systems/mem0/mem0_system.ts";
export { MEM0_CLASSIC_VERSION, mem0ClassicSystem } from "./systems/mem0/mem0_classic_system.ts";
export { langmemSystem } from "./systems/langmem/langmem_system.ts";
export {
  formatConversation,
  LANGMEM_UPSTREAM,
  manageMemories,
} from "./systems/langmem/memory_manager.ts";
export type {
  ExistingMemory,
  ManageMemoriesOptions,
  ManagerAction,
  ManagerMessage,
} from "./systems/langmem/memory_manager.ts";
export {
  AMEM_UPSTREAM,
  amemSystem,
  readAnalysis,
  readEvolution,
} from "./systems/amem/amem_system.ts";
export type { AmemNote } from "./systems/amem/amem_system.ts";
export {
  HINDSIGHT_CLIENT_VERSION,
  HINDSIGHT_MIN_SERVER,
  hindsightServerInfo,
  hindsightSystem,
} from "./systems/hindsight.ts";
export type {
  HindsightServerInfo,
  HindsightStats,
  HindsightSystemOptions,
} from "./systems/hindsight.ts";
export { cosine } from "./systems/cosine.ts";
export { systemTable1 } from "./systems/system_table1.ts";
export { systemTable2 } from "./systems/system_table2.ts";

// Trial explorer: every pair's trajectory beside the rows, one HTML page, a notebook view,
// Inspect AI eval logs
export { PAIR_TRAJECTORY_FORMAT, PairTrajectory, trajectoryKey } from "./schema/pair_trajectory.ts";
export { decodeSidecar, SidecarEncoder } from "./schema/trajectory_sidecar.ts";
export { quarantineReason } from "./stages/management/quarantine_reason.ts";
export { failedPairTrajectory, pairTrajectory } from "./run/trajectory_capture.ts";
export type { PairCapture } from "./run/trajectory_capture.ts";
export { readSidecar, sidecarPath, writeSidecar } from "./explore/sidecar_file.ts";
export { readTrialRows } from "./explore/read_trial_rows.ts";
export { explorePayload, pairSummaries } from "./explore/explore_data.ts";
export type { ExploreData, ExplorePayload, PairSummary } from "./explore/explore_data.ts";
export { FACETS, OUTCOMES, pairOutcomes, pointLabel, settingLabel } from "./explore/pair_facets.ts";
export { PAIR_VIEW_CSS, pairView } from "./explore/pair_view.ts";
export { explorerPage } from "./explore/explorer_page.ts";
export { explorerHref, trialLinks } from "./explore/trial_links.ts";
export { explore } from "./explore/explore.ts";
export type { ExploredPair } from "./explore/explore.ts";
export { INSPECT_SCHEMA_COMMIT, inspectLogName, inspectLogs } from "./explore/inspect_log.ts";
export type { InspectLog } from "./explore/inspect_log.ts";
