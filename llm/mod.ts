/**
 * The neural half: configuration, an OpenAI-compatible client whose
 * answers are zod-validated JSON, record/replay of answers, and the roles
 * built on them (the grounder, the planner/router, the knowledge source, the
 * synthesizer and the subgoal proposer).
 *
 * @module
 */
export {
  LLM_DEFAULTS,
  type LlmConfig,
  llmConfigFrom,
  type LlmFlags,
  openaiEnvironment,
} from "./config.ts";
export { type CachedAnswer, type ChatMessage, LlmCache, requestKey } from "./cache.ts";
export {
  type AskRequest,
  type AskResult,
  LlmClient,
  type LlmClientOptions,
  LlmError,
  type LlmUsage,
  type RejectedAnswer,
} from "./client.ts";
export {
  checkGrounding,
  grounderInstructions,
  type GroundingAnswer,
  type GroundingAnswerInput,
  GroundingAnswerSchema,
  groundingRequest,
  LlmGrounder,
} from "./grounder.ts";
export { defaultRuntimeRoles, episodeModels, RUNTIME_ROLES, type RuntimeRole } from "./episode.ts";
export {
  knowledgePrompt,
  type KnowledgeReply,
  KnowledgeReplySchema,
  LlmKnowledge,
} from "./knowledge.ts";
export {
  checkPlannerAnswer,
  LlmRouter,
  type PlannerAnswer,
  PlannerAnswerSchema,
  plannerPrompt,
} from "./planner.ts";
export {
  proposeSkill,
  type SynthesisOutcome,
  type SynthesizeOptions,
  synthesizerPrompt,
  synthesizeWithLlm,
} from "./synthesizer.ts";
export {
  checkLandmarks,
  type LandmarkProposal,
  proposeLandmarks,
  subgoalPrompt,
} from "./subgoals.ts";
