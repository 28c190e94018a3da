/**
 * The language-model flags every command that can use one shares: where
 * the server is, the model, timeouts, retries, the call budget, the
 * record/replay cache and which roles the model takes.
 *
 * @module
 */
import { LlmCache } from "../llm/cache.ts";
import { LlmClient } from "../llm/client.ts";
import { llmConfigFrom, type LlmFlags, openaiEnvironment } from "../llm/config.ts";
import { localKit } from "../environments/remote/kit.ts";
import { hasGrounderCode } from "../environments/remote/vocabulary_kit.ts";
import type { Trace } from "../dsl/trace.ts";
import { groundTracesAhead } from "../llm/grounder.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import type { EpisodeLlmUsage } from "../runtime/eval/evaluate.ts";
import { UsageError } from "./_cli.ts";

/** The flags, for `parseFlags`. */
export const LLM_FLAGS = {
  llm: { type: "string" },
  model: { type: "string" },
  "llm-timeout": { type: "string" },
  "llm-retries": { type: "string" },
  "llm-calls": { type: "string" },
  "llm-cache": { type: "string" },
  "llm-roles": { type: "string" },
} as const;

/** The flag values. */
export type LlmFlagValues = LlmFlags & { "llm-cache"?: string; "llm-roles"?: string };

/** The help lines of the server flags (the roles are each command's own). */
export const LLM_HELP =
  `  --llm <base-url>    an OpenAI-compatible server (vLLM, Ollama, llama.cpp, a
                      hosted API; else OPENAI_BASE_URL)
  --model <name>      the model (else OPENAI_MODEL); OPENAI_API_KEY is sent
  --llm-timeout <ms>  per request (default 60000); --llm-retries <n> on
                      429/5xx/timeouts, with backoff (default 3); --llm-calls
                      <n> at most per episode (default 200)
  --llm-cache <file>  JSONL record of requests and answers: answers found
                      there are replayed (no server needed), new ones added`;

/**
 * The client the flags configure, or `undefined` when they name neither a
 * server nor a cache.
 *
 * @throws {UsageError} When a value is malformed, naming the flag.
 */
export async function llmClientFrom(flags: LlmFlagValues): Promise<LlmClient | undefined> {
  let config;
  try {
    config = llmConfigFrom(flags, openaiEnvironment());
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const path = flags["llm-cache"];
  if (!config && path === undefined) {
    if (flags["llm-roles"] !== undefined) {
      throw new UsageError(
        "--llm-roles needs --llm <base-url> (or OPENAI_BASE_URL) or --llm-cache",
      );
    }
    return undefined;
  }
  const cache = path === undefined ? undefined : await LlmCache.open(path);
  return new LlmClient(config, cache ? { cache } : {});
}

/**
 * The roles `--llm-roles` names (comma-separated), each one of `known`;
 * `defaults` when the flag is absent.
 *
 * @throws {UsageError} Naming an unknown role and the known ones.
 */
export function llmRoles<R extends string>(
  value: string | undefined,
  known: readonly R[],
  defaults: readonly R[],
): Set<R> {
  if (value === undefined) return new Set(defaults);
  const roles = new Set<R>();
  for (const name of value.split(",").map((r) => r.trim()).filter((r) => r !== "")) {
    if (!(known as readonly string[]).includes(name)) {
      throw new UsageError(
        `--llm-roles: unknown role "${name}"; this command's roles: ${known.join(", ")}`,
      );
    }
    roles.add(name as R);
  }
  return roles;
}

/**
 * Refuses an environment known by its vocabulary alone unless the model
 * grounds its observations.
 *
 * @throws {UsageError} Saying which flags are missing.
 */
export function requireGrounding(
  kit: EnvironmentKit,
  llm: LlmClient | undefined,
  roles: ReadonlySet<string>,
): void {
  if (hasGrounderCode(localKit(kit))) return;
  if (llm && roles.has("grounder")) return;
  throw new UsageError(
    `The "${localKit(kit).name}" environment has no grounder code: ground its observations ` +
      `with a model (--llm <url> --model <name>${llm ? ", and grounder in --llm-roles" : ""})`,
  );
}

/** One line of a model's use: calls, tokens and rejected answers. */
export function describeLlmUse(calls: number, llm: EpisodeLlmUsage): string {
  return `${calls} LLM calls (${llm.cached} from the cache), ${
    llm.promptTokens + llm.completionTokens
  } tokens, ${llm.rejected.length} answers rejected`;
}

/**
 * The kit induction grounds `traces` with: with the grounder role, the
 * model grounds every observation once ahead (each trace an episode of its
 * own) and induction reads its answers from memory; otherwise `kit`.
 *
 * @throws {LlmError} When an observation gets no valid answer.
 */
export async function groundedForInduction(
  kit: EnvironmentKit,
  llm: LlmClient | undefined,
  roles: ReadonlySet<string>,
  traces: readonly Trace[],
  progress: (line: string) => void,
): Promise<EnvironmentKit> {
  if (!llm || !roles.has("grounder")) return kit;
  progress(`Asking ${llm.model} (grounder) for the facts of ${traces.length} traces...`);
  const grounder = await groundTracesAhead(llm, kit.vocabulary, traces);
  return { ...kit, grounder: () => grounder };
}
