/**
 * The neural half: configuration, an OpenAI-compatible client whose
 * answers are zod-validated JSON, record/replay of answers, and the roles
 * built on them (the synthesizer and the subgoal proposer).
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
} from "./client.ts";
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
