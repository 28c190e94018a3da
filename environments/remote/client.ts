/**
 * An {@linkcode Environment} reached over HTTP with the AgentGym env-server
 * protocol: `POST /create`, `POST /reset {id, data_idx}`, `POST /step {id,
 * action}`, `GET /observation?id=`, `POST /close {id}`.
 *
 * Our extensions, which a plain AgentGym server ignores: `/create` carries
 * an explicit task (the spec's fields, e.g. TextCraft's `commands` and
 * `goal`, plus the whole spec as `spec`); `/reset` also carries `seed`,
 * `options` and `task_id`; replies may carry `goal`, `task_id` and
 * `task_type`.
 *
 * @module
 */
import type { Environment, ResetResult, StepResult, TaskSpec } from "../../runtime/environment.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";

/** What went wrong with a request: the class of a {@linkcode RemoteEnvironmentError}. */
export type RemoteFailure =
  | "refused"
  | "timeout"
  | "network"
  | "status"
  | "malformed"
  | "server";

/**
 * A request to a remote environment failed. The message names the method,
 * the URL and what was wrong, e.g. `POST http://127.0.0.1:9/step: connection
 * refused`.
 */
export class RemoteEnvironmentError extends Error {
  /** The full URL of the request. */
  readonly url: string;
  /** Method and path, e.g. `POST /step`. */
  readonly endpoint: string;
  /** The class of failure. */
  readonly kind: RemoteFailure;
  /** The HTTP status, when the server replied. */
  readonly status?: number;

  /**
   * Creates the error.
   *
   * @param method The HTTP method.
   * @param url The request URL.
   * @param kind The class of failure.
   * @param detail What was wrong, in words.
   * @param status The HTTP status, when there was a reply.
   */
  constructor(method: string, url: URL, kind: RemoteFailure, detail: string, status?: number) {
    super(`${method} ${url.href}: ${detail}`);
    this.name = "RemoteEnvironmentError";
    this.url = url.href;
    this.endpoint = `${method} ${url.pathname}`;
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** Options of {@linkcode RemoteEnvironment}. */
export interface RemoteEnvironmentOptions {
  /** The environment's name, e.g. `textcraft`. */
  envName: string;
  /** The vocabulary skills use in this environment (the local kit's). */
  vocabulary: Vocabulary;
  /** Limit of every request, in milliseconds. @default 10000 */
  timeoutMs?: number;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** How the server speaks (see `EnvironmentKit.remoteProtocol`). @default "id" */
  protocol?: "id" | "env_idx";
}

/** An environment id as the server hands it out (AgentGym uses integers). */
type EnvId = number | string;
type Json = Record<string, unknown>;

/** The most characters of a reply body quoted in an error message. */
const EXCERPT = 200;

/**
 * An environment behind an AgentGym env-server. The server-side instance is
 * created on the first `reset`; a seed becomes `data_idx` (and `seed`), an
 * explicit `spec` creates a fresh instance that carries the task.
 *
 * Every request is bounded by `timeoutMs`. Refused connections, timeouts,
 * non-2xx statuses, `{"error": ...}` replies and malformed JSON reject with a
 * {@linkcode RemoteEnvironmentError}. Nothing is retried or swallowed: when
 * `step` rejects mid-episode, the episode's outcome is unknown, and callers
 * must report that episode as failed (with the error's message) rather than
 * drop it.
 *
 * @example Usage
 * ```ts ignore
 * import { RemoteEnvironment } from "./client.ts";
 * import { textcraftVocabulary } from "../textcraft/vocabulary.ts";
 * const env = new RemoteEnvironment("http://127.0.0.1:36001", {
 *   envName: "textcraft",
 *   vocabulary: textcraftVocabulary,
 * });
 * const { observation } = await env.reset({ seed: 3, options: { depth: 2 } });
 * const { reward, done } = await env.step("inventory");
 * await env.close();
 * ```
 */
export class RemoteEnvironment implements Environment {
  /** Environment name, e.g. `textcraft`. */
  readonly name: string;
  /** The domain vocabulary. */
  readonly vocabulary: Vocabulary;
  /** The server's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** Limit of every request, in milliseconds. */
  readonly timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #indexed: boolean;
  #id?: EnvId;

  /**
   * Creates the client; no request is sent until `reset`.
   *
   * @param baseUrl The server, e.g. `http://127.0.0.1:36001`.
   * @param options Environment name, vocabulary, timeout, fetch.
   * @throws {TypeError} When `baseUrl` is not an http(s) URL or the timeout is not positive.
   */
  constructor(baseUrl: string, options: RemoteEnvironmentOptions) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new TypeError(`Invalid remote environment URL "${baseUrl}"`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(
        `Remote environment URL "${baseUrl}" must start with http:// or https://`,
      );
    }
    const timeoutMs = options.timeoutMs ?? 10000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`Remote environment timeout must be a positive number, got ${timeoutMs}`);
    }
    this.baseUrl = url.href.replace(/\/+$/, "");
    this.name = options.envName;
    this.vocabulary = options.vocabulary;
    this.timeoutMs = timeoutMs;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#indexed = options.protocol === "env_idx";
  }

  /** The server-side id of the current instance, once created. */
  get envId(): EnvId | undefined {
    return this.#id;
  }

  /**
   * Starts a task. `seed` is sent as `data_idx` (and `seed`, with `options`
   * and `id` as `task_id`) to `/reset`; an explicit `spec` closes the
   * current instance and creates a new one carrying the task.
   *
   * @throws {RemoteEnvironmentError} When a request fails or a reply is malformed.
   */
  async reset(task: TaskSpec): Promise<ResetResult> {
    if (this.#indexed) return await this.#resetIndexed(task);
    if (task.spec !== undefined) {
      // AgentGym servers take an explicit task only on /create.
      if (this.#id !== undefined) await this.close();
      const body: Json = isRecord(task.spec) ? { ...task.spec } : {};
      body.spec = task.spec;
      if (task.seed !== undefined) body.seed = task.seed;
      if (task.options !== undefined) body.options = task.options;
      const { url, reply } = await this.#request("POST", "/create", body);
      this.#id = envIdOf(reply, url);
      return this.#resetResult(reply, url, task);
    }
    if (this.#id === undefined) {
      const { url, reply } = await this.#request("POST", "/create", {});
      this.#id = envIdOf(reply, url);
    }
    const body: Json = { id: this.#id };
    if (task.seed !== undefined) {
      body.data_idx = task.seed;
      body.seed = task.seed;
    } else if (task.id !== undefined && /^[0-9]+$/.test(task.id)) {
      body.data_idx = Number(task.id);
    }
    if (task.id !== undefined) body.task_id = task.id;
    if (task.options !== undefined) body.options = task.options;
    const { url, reply } = await this.#request("POST", "/reset", body);
    return this.#resetResult(reply, url, task);
  }

  /**
   * Sends one action.
   *
   * @throws {Error} When called before `reset`.
   * @throws {RemoteEnvironmentError} When the request fails or the reply is malformed; the
   * episode is then lost and must be reported as failed.
   */
  async step(action: string): Promise<StepResult> {
    if (this.#id === undefined) throw new Error(`Cannot step remote "${this.name}" before reset()`);
    const body = this.#indexed ? { env_idx: this.#id, action } : { id: this.#id, action };
    const { url, reply } = await this.#request("POST", "/step", body);
    const observation = field(reply, this.#indexed ? "state" : "observation", "string", url);
    const reward = field(reply, "reward", "number", url);
    const done = field(reply, "done", "boolean", url);
    return { observation, reward, done };
  }

  /**
   * The current observation, as the server holds it (`GET /observation`).
   *
   * @throws {Error} When called before `reset`.
   * @throws {RemoteEnvironmentError} When the request fails or the reply is not a string.
   */
  async observation(): Promise<string> {
    if (this.#id === undefined) {
      throw new Error(`Cannot observe remote "${this.name}" before reset()`);
    }
    const key = this.#indexed ? "env_idx" : "id";
    const { url, reply } = await this.#request("GET", `/observation?${key}=${this.#id}`);
    if (typeof reply !== "string") {
      throw new RemoteEnvironmentError("GET", url, "malformed", "reply is not a JSON string");
    }
    return reply;
  }

  /**
   * Releases the server-side instance; a no-op before `reset` or when
   * already closed. A 404 or 405 reply counts as closed (the id is gone, or
   * the server has no `/close`).
   *
   * @throws {RemoteEnvironmentError} When the request fails otherwise.
   */
  async close(): Promise<void> {
    const id = this.#id;
    if (id === undefined) return;
    this.#id = undefined;
    try {
      await this.#request("POST", "/close", this.#indexed ? { env_idx: id } : { id });
    } catch (e) {
      if (e instanceof RemoteEnvironmentError && (e.status === 404 || e.status === 405)) return;
      throw e;
    }
  }

  /**
   * The actions the page offers (`GET /available_actions`, servers that
   * speak `env_idx`): `click[...]` for each clickable but the search button.
   */
  async admissibleActions(): Promise<string[]> {
    if (!this.#indexed || this.#id === undefined) return [];
    const { url, reply } = await this.#request("GET", `/available_actions?env_idx=${this.#id}`);
    const clickables = isRecord(reply) ? reply.clickables : undefined;
    if (!Array.isArray(clickables) || clickables.some((c) => typeof c !== "string")) {
      throw new RemoteEnvironmentError("GET", url, "malformed", "reply has no clickables list");
    }
    return (clickables as string[]).filter((c) => c !== "search").map((c) => `click[${c}]`);
  }

  /** A reset where the server speaks `env_idx`: a goal index is the session id. */
  async #resetIndexed(task: TaskSpec): Promise<ResetResult> {
    if (task.spec !== undefined) {
      throw new TypeError(`Remote "${this.name}" takes tasks by index only, not explicit specs`);
    }
    if (this.#id === undefined) {
      const { url, reply } = await this.#request("POST", "/create", {});
      if (typeof reply !== "number") {
        throw new RemoteEnvironmentError("POST", url, "malformed", "reply is not an index");
      }
      this.#id = reply;
    }
    const index = task.seed ??
      (task.id !== undefined && /^(?:.*\/)?[0-9]+$/.test(task.id)
        ? Number(task.id.replace(/^.*\//, ""))
        : undefined);
    const body: Json = { env_idx: this.#id };
    if (index !== undefined) body.session_id = index;
    const { url, reply } = await this.#request("POST", "/reset", body);
    const observation = Array.isArray(reply) ? reply[0] : undefined;
    if (typeof observation !== "string") {
      throw new RemoteEnvironmentError("POST", url, "malformed", "reply is not [observation, ...]");
    }
    const goal = await this.#request("GET", `/instruction_text?env_idx=${this.#id}`);
    return {
      observation,
      goal: typeof goal.reply === "string" ? goal.reply : "",
      taskId: task.id ?? `${this.name}/${index ?? `env${this.#id}`}`,
    };
  }

  #resetResult(reply: unknown, url: URL, task: TaskSpec): ResetResult {
    const observation = field(reply, "observation", "string", url);
    const r = reply as Json;
    const goal = typeof r.goal === "string" ? r.goal : goalFromObservation(observation);
    const taskId = typeof r.task_id === "string"
      ? r.task_id
      : task.id ?? `${this.name}/${task.seed !== undefined ? `s${task.seed}` : `env${this.#id}`}`;
    const result: ResetResult = { observation, goal, taskId };
    if (typeof r.task_type === "string") result.taskType = r.task_type;
    return result;
  }

  async #request(
    method: "GET" | "POST",
    path: string,
    body?: Json,
  ): Promise<{ url: URL; reply: unknown }> {
    const url = new URL(this.baseUrl + path);
    let response: Response;
    try {
      response = await this.#fetch(url, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw fetchError(method, url, e, this.timeoutMs);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      throw fetchError(method, url, e, this.timeoutMs);
    }
    if (!response.ok) {
      const reason = errorText(text);
      throw new RemoteEnvironmentError(
        method,
        url,
        "status",
        `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${
          reason ? `: ${reason}` : ""
        }`,
        response.status,
      );
    }
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      throw new RemoteEnvironmentError(
        method,
        url,
        "malformed",
        `malformed JSON reply ${JSON.stringify(excerpt(text))}`,
        response.status,
      );
    }
    // AgentGym servers report failures as `{"error": "..."}` with status 200.
    if (isRecord(reply) && typeof reply.error === "string") {
      throw new RemoteEnvironmentError(
        method,
        url,
        "server",
        `server error: ${reply.error}`,
        response.status,
      );
    }
    return { url, reply };
  }
}

/**
 * The goal sentence in a first observation, for servers whose replies do
 * not carry `goal`: the text after the last `Goal:` (TextCraft) or `Your
 * task is to:` (ALFWorld) line, without the final period; `""` when there is
 * none (grounders then read the goal off the observation themselves).
 *
 * @example Usage
 * ```ts
 * import { goalFromObservation } from "./client.ts";
 * console.log(goalFromObservation("Crafting commands:\n...\n\nGoal: craft stick.")); // craft stick
 * ```
 */
export function goalFromObservation(observation: string): string {
  const lines = [...observation.matchAll(/^(?:Goal|Your task is to):\s*(.*?)\.?\s*$/gm)];
  return lines.at(-1)?.[1] ?? "";
}

function fetchError(
  method: string,
  url: URL,
  e: unknown,
  timeoutMs: number,
): RemoteEnvironmentError {
  if (e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return new RemoteEnvironmentError(method, url, "timeout", `no reply within ${timeoutMs} ms`);
  }
  const text = describe(e);
  if (/connection refused|ConnectionRefused|ECONNREFUSED/i.test(text)) {
    return new RemoteEnvironmentError(method, url, "refused", "connection refused");
  }
  return new RemoteEnvironmentError(method, url, "network", `request failed: ${text}`);
}

/** An error's message with its causes, which is where Deno names the socket error. */
function describe(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c !== undefined && depth < 5; depth++) {
    if (c instanceof Error) {
      parts.push(c.message);
      c = c.cause;
    } else {
      parts.push(String(c));
      break;
    }
  }
  return parts.join(": ");
}

function errorText(text: string): string {
  try {
    const json: unknown = JSON.parse(text);
    if (isRecord(json)) {
      // Our servers say `error`, FastAPI says `detail`.
      const reason = json.error ?? json.detail;
      if (reason !== undefined) {
        return excerpt(typeof reason === "string" ? reason : JSON.stringify(reason));
      }
    }
  } catch {
    // Not JSON: quote the text itself.
  }
  return excerpt(text.trim());
}

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}...` : text;
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function envIdOf(reply: unknown, url: URL): EnvId {
  const id = isRecord(reply) ? reply.id : undefined;
  if ((typeof id === "number" && Number.isFinite(id)) || (typeof id === "string" && id !== "")) {
    return id;
  }
  throw new RemoteEnvironmentError(
    "POST",
    url,
    "malformed",
    `malformed reply: "id" must be a number or string, got ${JSON.stringify(id) ?? "nothing"}`,
  );
}

type FieldType = { string: string; number: number; boolean: boolean };

const IS: { [K in keyof FieldType]: (v: unknown) => v is FieldType[K] } = {
  string: (v): v is string => typeof v === "string",
  number: (v): v is number => typeof v === "number" && Number.isFinite(v),
  boolean: (v): v is boolean => typeof v === "boolean",
};

function field<K extends keyof FieldType>(
  reply: unknown,
  name: string,
  type: K,
  url: URL,
): FieldType[K] {
  const value = isRecord(reply) ? reply[name] : undefined;
  if (!IS[type](value)) {
    throw new RemoteEnvironmentError(
      "POST",
      url,
      "malformed",
      `malformed reply: "${name}" must be a ${type}, got ${JSON.stringify(value) ?? "nothing"} in ${
        JSON.stringify(excerpt(JSON.stringify(reply) ?? ""))
      }`,
    );
  }
  return value;
}
