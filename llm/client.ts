/**
 * The one way skillc talks to an LLM: a chat request whose answer must be
 * JSON that a zod schema accepts. Answers are data: parsed, validated and
 * never executed. A rejected answer goes back once with the reason; the
 * server's 429s, 5xx, timeouts and lost connections are retried with
 * exponential backoff (by the `openai` client); every episode has a call
 * budget; and with a cache (see `cache.ts`) answers are recorded and
 * replayed.
 *
 * @module
 */
// Loaded on the first request: the package is large, and most runs (and
// every module that imports the library) never ask a model.
import type OpenAI from "openai";
import type { z } from "zod";
import { type ChatMessage, type LlmCache, requestKey } from "./cache.ts";
import type { LlmConfig } from "./config.ts";

/** An LLM call that could not give a valid answer, naming the role and the request. */
export class LlmError extends Error {
  /** The role that asked. */
  readonly role: string;
  /** The start of the request's last message. */
  readonly request: string;
  /** Creates the error; the message starts with the role and ends with the request. */
  constructor(role: string, messages: readonly ChatMessage[], why: string) {
    const last = messages.at(-1)?.content ?? "";
    const request = last.length > 120 ? `${last.slice(0, 117)}...` : last;
    super(`LLM ${role}: ${why} (request: ${JSON.stringify(request)})`);
    this.name = "LlmError";
    this.role = role;
    this.request = request;
  }
}

/** Calls and tokens, per episode or in total. */
export interface LlmUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Answers served from the cache (counted in `calls`, with their recorded tokens). */
  cached: number;
}

/** What {@linkcode LlmClient.ask} needs. */
export interface AskRequest<T> {
  /** Who asks, for errors and the cache (grounder, synthesizer, planner, ...). */
  role: string;
  messages: ChatMessage[];
  /** What a valid answer is. */
  schema: z.ZodType<T>;
  /**
   * Further checks of a schema-valid answer (unknown names, wrong arity...):
   * a reason to reject it, or `undefined` to accept.
   */
  check?: (value: T) => string | undefined;
  /** How many times a rejected answer is sent back with its reason. @default 1 */
  reasks?: number;
}

/** The answer of {@linkcode LlmClient.ask}: a valid value, or why there is none. */
export type AskResult<T> =
  | { ok: true; value: T; rejected: string[] }
  | { ok: false; error: LlmError; rejected: string[] };

/** An answer the checks rejected: the role that asked and why. */
export interface RejectedAnswer {
  role: string;
  why: string;
}

/** Options of an {@linkcode LlmClient}. */
export interface LlmClientOptions {
  /** Answers to replay, and where new ones are recorded. */
  cache?: LlmCache;
}

const EMPTY: LlmUsage = { calls: 0, promptTokens: 0, completionTokens: 0, cached: 0 };

/**
 * An LLM client. Without a configuration it can still answer from a
 * cache; a request missing from it is then an error.
 *
 * @example Usage
 * ```ts ignore
 * const client = new LlmClient(llmConfigFrom(flags, Deno.env.toObject()));
 * client.startEpisode();
 * const r = await client.ask({ role: "grounder", messages, schema: z.object({ add: z.array(z.string()) }) });
 * if (r.ok) console.log(r.value.add); else console.error(r.error.message);
 * ```
 */
export class LlmClient {
  readonly #config?: LlmConfig;
  readonly #cache?: LlmCache;
  /** The client an episode's client was made from (its total counts there too). */
  #parent?: LlmClient;
  #openai?: Promise<{ client: OpenAI; module: typeof OpenAI }>;
  #episode: LlmUsage = { ...EMPTY };
  #total: LlmUsage = { ...EMPTY };
  #rejected: RejectedAnswer[] = [];

  /** Creates a client for `config` (none: answers come from the cache only). */
  constructor(config: LlmConfig | undefined, options: LlmClientOptions = {}) {
    this.#config = config;
    this.#cache = options.cache;
  }

  /**
   * A client for one episode: the same server, cache and connection, with
   * its own usage, rejections and call budget, so that episodes run side by
   * side are counted apart. Its calls count in this client's total too.
   */
  episode(): LlmClient {
    const child = new LlmClient(this.#config, { cache: this.#cache });
    child.#parent = this;
    return child;
  }

  /** The model asked (or `cache` without a configuration). */
  get model(): string {
    return this.#config?.model ?? "cache";
  }

  /** Starts an episode: its usage, rejections and call budget start from zero. */
  startEpisode(): void {
    this.#episode = { ...EMPTY };
    this.#rejected = [];
  }

  /** The answers rejected since {@linkcode LlmClient.startEpisode}, in order. */
  episodeRejections(): RejectedAnswer[] {
    return [...this.#rejected];
  }

  /** Usage since {@linkcode LlmClient.startEpisode}. */
  episodeUsage(): LlmUsage {
    return { ...this.#episode };
  }

  /** Usage since the client was made. */
  totalUsage(): LlmUsage {
    return { ...this.#total };
  }

  /**
   * Asks for a JSON answer the schema (and `check`) accept. A rejected
   * answer is sent back with its reason up to `reasks` times.
   */
  async ask<T>(request: AskRequest<T>): Promise<AskResult<T>> {
    const messages = [...request.messages];
    const rejected: string[] = [];
    const tries = 1 + (request.reasks ?? 1);
    for (let attempt = 0; attempt < tries; attempt++) {
      let content: string;
      try {
        content = await this.#complete(request.role, messages);
      } catch (e) {
        const error = e instanceof LlmError ? e : new LlmError(request.role, messages, String(e));
        return { ok: false, error, rejected };
      }
      const reason = judge(content, request.schema, request.check);
      if (reason.ok) return { ok: true, value: reason.value, rejected };
      rejected.push(reason.why);
      this.#rejected.push({ role: request.role, why: reason.why });
      messages.push(
        { role: "assistant", content },
        {
          role: "user",
          content: `Your answer was rejected: ${reason.why}. Answer again with JSON only.`,
        },
      );
    }
    return {
      ok: false,
      error: new LlmError(
        request.role,
        request.messages,
        `answer rejected ${rejected.length} times; last: ${rejected.at(-1)}`,
      ),
      rejected,
    };
  }

  /** One chat completion: from the cache, or from the server (then recorded). */
  async #complete(role: string, messages: ChatMessage[]): Promise<string> {
    const budget = this.#config?.callsPerEpisode;
    if (budget !== undefined && this.#episode.calls >= budget) {
      throw new LlmError(role, messages, `call budget of ${budget} per episode exhausted`);
    }
    const key = await requestKey(this.model, messages);
    // With a server, only this model's answers count; without one, the
    // recorded answer is all there is.
    const hit = this.#config ? this.#cache?.get(key) : await this.#cache?.find(messages);
    if (hit) {
      this.#count({ prompt: hit.usage.prompt, completion: hit.usage.completion }, true);
      return hit.content;
    }
    const config = this.#config;
    if (!config) {
      throw new LlmError(
        role,
        messages,
        this.#cache
          ? `no LLM configured and the request (${key.slice(0, 12)}) is not in ${this.#cache.path}`
          : "no LLM configured (--llm <base-url> or OPENAI_BASE_URL)",
      );
    }
    const { client, module } = await this.#connection(config);
    let answer: OpenAI.Chat.Completions.ChatCompletion;
    try {
      answer = await client.chat.completions.create({ model: config.model, messages });
    } catch (e) {
      throw new LlmError(role, messages, describeFailure(e, config, module));
    }
    const content = answer.choices?.[0]?.message?.content;
    if (typeof content !== "string") {
      throw new LlmError(role, messages, "the server's answer has no message content");
    }
    const usage = {
      prompt: answer.usage?.prompt_tokens ?? 0,
      completion: answer.usage?.completion_tokens ?? 0,
    };
    this.#count(usage, false);
    await this.#cache?.put({ key, role, model: config.model, messages, content, usage });
    return content;
  }

  /** The `openai` client, made once per root client (its episodes share the connection). */
  #connection(config: LlmConfig): Promise<{ client: OpenAI; module: typeof OpenAI }> {
    if (this.#parent) return this.#parent.#connection(config);
    this.#openai ??= import("openai").then(({ default: module }) => ({
      module,
      client: new module({
        baseURL: config.baseUrl,
        apiKey: config.apiKey,
        timeout: config.timeoutMs,
        maxRetries: config.maxRetries,
      }),
    }));
    return this.#openai;
  }

  /** Counts a call in this episode and in the totals of this client and those it came from. */
  #count(usage: { prompt: number; completion: number }, cached: boolean): void {
    const counters = [this.#episode, this.#total];
    for (let p = this.#parent; p; p = p.#parent) counters.push(p.#total);
    for (const u of counters) {
      u.calls++;
      u.promptTokens += usage.prompt;
      u.completionTokens += usage.completion;
      if (cached) u.cached++;
    }
  }
}

/** Parses an answer's JSON (a fenced block allowed) and checks it. */
function judge<T>(
  content: string,
  schema: z.ZodType<T>,
  check?: (value: T) => string | undefined,
): { ok: true; value: T } | { ok: false; why: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const text = (fenced ? fenced[1] : content).trim();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, why: "it is not JSON" };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue.path.length > 0 ? ` at "${issue.path.join(".")}"` : "";
    return { ok: false, why: `${issue.message}${at}` };
  }
  const why = check?.(parsed.data);
  return why === undefined ? { ok: true, value: parsed.data } : { ok: false, why };
}

/** Why a request failed after the client's retries, in words. */
function describeFailure(e: unknown, config: LlmConfig, api: typeof OpenAI): string {
  if (e instanceof api.APIConnectionTimeoutError) {
    return `no answer within ${config.timeoutMs} ms (after ${config.maxRetries} retries)`;
  }
  if (e instanceof api.APIConnectionError) {
    return `cannot reach ${config.baseUrl} (after ${config.maxRetries} retries): ${e.message}`;
  }
  if (e instanceof api.APIError) {
    return `the server answered ${
      e.status ?? "an error"
    } (after ${config.maxRetries} retries): ${e.message}`;
  }
  return e instanceof Error ? e.message : String(e);
}
