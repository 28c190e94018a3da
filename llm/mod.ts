/**
 * The neural half's plumbing: configuration, an OpenAI-compatible client
 * whose answers are zod-validated JSON, and record/replay of answers.
 *
 * @module
 */
export { LLM_DEFAULTS, type LlmConfig, llmConfigFrom, type LlmFlags } from "./config.ts";
export { type CachedAnswer, type ChatMessage, LlmCache, requestKey } from "./cache.ts";
export {
  type AskRequest,
  type AskResult,
  LlmClient,
  type LlmClientOptions,
  LlmError,
  type LlmUsage,
} from "./client.ts";
