/**
 * A language model's part in an episode of the agent: per episode, a
 * client of its own (its calls, tokens, rejected answers and call budget
 * counted apart, even when episodes run side by side), the kit the
 * episode runs with, whose grounder asks the model when the grounder role
 * is on, the router the agent asks when no template fits (the planner
 * role) and the knowledge source it asks when the facts offer no way (the
 * knowledge role).
 *
 * @module
 */
import type { AgentKit } from "../runtime/agent/agent_types.ts";
import type { EpisodeModel } from "../runtime/eval/eval_runners.ts";
import type { LlmClient } from "./client.ts";
import { LlmGrounder } from "./grounder.ts";
import { LlmRouter } from "./planner.ts";
import { LlmKnowledge } from "./knowledge.ts";

/** The roles a model can take while skills run. */
export const RUNTIME_ROLES = ["grounder", "planner", "knowledge"] as const;

/** One of {@linkcode RUNTIME_ROLES}. */
export type RuntimeRole = typeof RUNTIME_ROLES[number];

/**
 * The roles a model takes unless told: grounder and planner, and knowledge
 * only when background knowledge was asked for (it is an explicit option).
 */
export function defaultRuntimeRoles(knowledge: boolean | undefined): RuntimeRole[] {
  return knowledge ? [...RUNTIME_ROLES] : ["grounder", "planner"];
}

/**
 * The per-episode model of the evaluation harness's agent runner
 * (`agentRunner({ model })`).
 *
 * @param client The client; each episode gets its own (`client.episode()`).
 * @param kit The environment's kit (vocabulary and symbolic grounder).
 * @param roles The roles the model takes.
 *
 * @example Usage
 * ```ts ignore
 * const runner = agentRunner({ kit, library, templates, model: episodeModels(client, kit, new Set(["grounder"])) });
 * ```
 */
export function episodeModels(
  client: LlmClient,
  kit: AgentKit,
  roles: ReadonlySet<RuntimeRole>,
): () => EpisodeModel {
  return () => {
    const episode = client.episode();
    return {
      kit: roles.has("grounder")
        ? { vocabulary: kit.vocabulary, grounder: () => new LlmGrounder(episode, kit.vocabulary) }
        : kit,
      ...(roles.has("planner") ? { router: new LlmRouter(episode, kit.vocabulary) } : {}),
      ...(roles.has("knowledge") ? { knowledge: new LlmKnowledge(episode, kit.vocabulary) } : {}),
      usage() {
        const u = episode.episodeUsage();
        return {
          calls: u.calls,
          llm: {
            promptTokens: u.promptTokens,
            completionTokens: u.completionTokens,
            cached: u.cached,
            rejected: episode.episodeRejections(),
          },
        };
      },
    };
  };
}
