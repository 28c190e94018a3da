/**
 * The runtime: fact store, compiled programs, the interpreter (pure step and
 * async driver), skill libraries, and the environment interface.
 *
 * @module
 */
export * from "./environment.ts";
export { FactStore } from "./fact_store.ts";
export { compileSkill, formatIssues, type Program, type SkillSignature } from "./exec/program.ts";
export {
  type Budgets,
  DEFAULT_BUDGETS,
  type Diagnosis,
  type EndOutcome,
  initialState,
  type LoopFrame,
  resume,
  type RunState,
  step,
  type StepContext,
  type StepOutcome,
} from "./exec/step.ts";
export {
  collectRun,
  type RunContext,
  type RunEvent,
  type RunResult,
  runSkill,
  type SkillResolver,
} from "./exec/interpreter.ts";
export { checkArgs } from "./exec/args.ts";
export {
  compileSkills,
  type LibraryIndex,
  type LibraryIndexEntry,
  LibraryIndexSchema,
  loadIndexedSkills,
  loadLibrary,
  loadSkillFile,
  readLibraryIndex,
  SkillLibrary,
} from "./store/library.ts";
export {
  type Change,
  CHANGE_KINDS,
  type ChangeKind,
  type CommitStep,
  type CreateOptions,
  type HistoryEntry,
  HistoryEntrySchema,
  type LibraryStore,
  StoreConflictError,
  type StoreOptions,
  VersionedStore,
} from "./store/library_store.ts";
export { DirectoryStore } from "./store/directory_store.ts";
export { KvStore } from "./store/kv_store.ts";
export { createLibraryStore, libraryStoreExists, openLibraryStore } from "./store/open_store.ts";
export {
  applySkillEdit,
  type EditResult,
  type GraftStep,
  replayEdits,
  type SkillEdit,
  SkillEditSchema,
} from "./store/skill_edit.ts";
export {
  type ExpertTraceOptions,
  generateExpertTraces,
  playExpert,
  type PlayExpertOptions,
} from "./eval/expert_traces.ts";
export { formatEvent } from "./exec/format_events.ts";
export {
  InputFileError,
  lineColumn,
  parseJsonText,
  readJsonFile,
  writeTextFileAtomic,
} from "../io/json_file.ts";
export {
  ACTION_MODEL_FORMAT,
  type ActionEntryData,
  type ActionModelData,
  ActionModelSchema,
  type ActionRule,
} from "./action_model_data.ts";
export {
  type ActionCheckResult,
  type ActionLearnOptions,
  ActionModel,
  learnActionModel,
  type Transition,
} from "./learn/action_model.ts";
export {
  recoverAction,
  type RecoveryAdvisor,
  recoveryCandidates,
  type RecoveryOptions,
  type RecoveryResult,
  type RecoveryStep,
  type RejectedAction,
} from "./hone/reflect.ts";
export { type HoneFailure, type HoneOptions, type HoneOutcome, Honer } from "./hone/hone.ts";
export {
  type AgentEvent,
  type AgentFailure,
  type AgentKit,
  type AgentOptions,
  type AgentResult,
  type RecoveryOutcome,
  runAgent,
  type SkillFailure,
} from "./agent/mod.ts";
export {
  callKey,
  type Plan,
  Planner,
  type PlannerOptions,
  type SkillCall,
} from "./plan/planner.ts";
export {
  dryRunActs,
  type FailureView,
  firstAction,
  regressionCandidates,
  type RegressionOptions,
  type Subgoal,
} from "./plan/regression.ts";
export { checkPostcondition, type PostconditionCheck } from "./exec/postcondition.ts";
export { tolerateRejection } from "./exec/tolerate.ts";
export {
  type TaskTemplate,
  TaskTemplateSchema,
  type TemplateArg,
  type TemplateSequence,
  templateSequences,
  type TemplateStep,
} from "./store/task_template.ts";
export {
  type ValueDomains,
  valueDomainVocabulary,
  withValueDomains,
} from "./exec/value_domains.ts";
export { formatAgentEvent, formatAgentResult, formatCall } from "./agent/format_agent_events.ts";
export { loadTemplates } from "./store/library.ts";
export { type CommitOptions } from "./store/library_store.ts";
export {
  type EpisodeOutcome,
  type EpisodeRecord,
  type EpisodeRunner,
  type EvalReport,
  evaluate,
  type EvaluateOptions,
  type Evaluation,
  summarize,
  taskLabel,
  type TypeMetrics,
} from "./eval/evaluate.ts";
export {
  agentRunner,
  type AgentRunnerOptions,
  type EpisodeModel,
  expertRunner,
} from "./eval/eval_runners.ts";
export type { KnowledgeAnswer, KnowledgeQuestion, KnowledgeSource } from "./knowledge.ts";
export {
  formatRouteChoice,
  type RouteChoice,
  type Router,
  type RouteStep,
  type RouteView,
} from "./plan/router.ts";
export {
  checkTaskResets,
  parseTaskSpecs,
  readTaskSpecs,
  type TaskFile,
  type TaskSpecCheck,
} from "./eval/task_specs.ts";
export {
  DEFAULT_MAX_ACTIONS,
  demonstrationTasksOf,
  episodeBudgets,
  rejectSelectors,
  spreadTasks,
  taskListOf,
  taskSpecCheckOf,
} from "./eval/task_lists.ts";
export { HoningSession } from "./hone/honing_session.ts";
export { loadActionModel, saveActionModel } from "./store/library.ts";
