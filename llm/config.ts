/**
 * Where the LLM is and how it is called: from command-line flags and the
 * usual `OPENAI_*` environment variables. Without a base URL there is no
 * LLM, and every role stays symbolic.
 *
 * @module
 */

/** How to reach and call an OpenAI-compatible chat completions server. */
export interface LlmConfig {
  /** The server's base URL, e.g. `http://127.0.0.1:8000/v1` (vLLM, Ollama, llama.cpp, a hosted API). */
  baseUrl: string;
  /** The model name the server knows. */
  model: string;
  /** The API key (local servers accept any). */
  apiKey: string;
  /** Milliseconds before a request is abandoned (and retried). @default 60000 */
  timeoutMs: number;
  /** Retries after a 429, a 5xx, a timeout or a lost connection, with exponential backoff. @default 3 */
  maxRetries: number;
  /** Calls allowed per episode (see {@linkcode LlmClient.startEpisode}). @default 200 */
  callsPerEpisode: number;
}

/** The flag values a command passes (all optional). */
export interface LlmFlags {
  llm?: string;
  model?: string;
  "llm-timeout"?: string;
  "llm-retries"?: string;
  "llm-calls"?: string;
}

/** Defaults of the numeric settings. */
export const LLM_DEFAULTS = { timeoutMs: 60_000, maxRetries: 3, callsPerEpisode: 200 } as const;

/**
 * The configuration from flags, then environment variables
 * (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`); `undefined` when
 * neither names a server.
 *
 * @throws {RangeError} When a value is malformed, naming the flag or variable.
 *
 * @example Usage
 * ```ts
 * import { llmConfigFrom } from "./config.ts";
 * const config = llmConfigFrom({ llm: "http://127.0.0.1:8000/v1", model: "qwen" }, {});
 * console.log(config?.model); // qwen
 * ```
 */
export function llmConfigFrom(
  flags: LlmFlags,
  env: Readonly<Record<string, string | undefined>>,
): LlmConfig | undefined {
  const baseUrl = flags.llm ?? env.OPENAI_BASE_URL;
  if (baseUrl === undefined || baseUrl === "") {
    if (flags.model !== undefined) {
      throw new RangeError("--model needs --llm <base-url> (or OPENAI_BASE_URL)");
    }
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RangeError(
      `${
        flags.llm !== undefined ? "--llm" : "OPENAI_BASE_URL"
      } must be an http(s) URL, got "${baseUrl}"`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RangeError(`--llm must be an http(s) URL, got "${baseUrl}"`);
  }
  const model = flags.model ?? env.OPENAI_MODEL;
  if (!model) throw new RangeError("--llm needs --model <name> (or OPENAI_MODEL)");
  const count = (name: keyof LlmFlags, fallback: number, min: number): number => {
    const text = flags[name];
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min) {
      throw new RangeError(`--${name} must be an integer of at least ${min}, got "${text}"`);
    }
    return n;
  };
  return {
    baseUrl: url.href.replace(/\/$/, ""),
    model,
    apiKey: env.OPENAI_API_KEY || "none",
    timeoutMs: count("llm-timeout", LLM_DEFAULTS.timeoutMs, 1),
    maxRetries: count("llm-retries", LLM_DEFAULTS.maxRetries, 0),
    callsPerEpisode: count("llm-calls", LLM_DEFAULTS.callsPerEpisode, 1),
  };
}

/**
 * The `OPENAI_*` variables of the process, each `undefined` when unset or
 * when the process may not read it (a command run without `--allow-env`
 * just has no configured server).
 */
export function openaiEnvironment(): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL"]) {
    try {
      out[name] = Deno.env.get(name);
    } catch {
      out[name] = undefined;
    }
  }
  return out;
}
