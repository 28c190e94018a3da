/**
 * Serves any {@linkcode EnvironmentKit} with the AgentGym env-server
 * protocol, so agents written for AgentGym (and our
 * {@linkcode RemoteEnvironment}) can play the project's environments.
 *
 * | request                                   | reply (200)                                          |
 * | ----------------------------------------- | ---------------------------------------------------- |
 * | `POST /create {[task fields], spec?}`     | `{id, observation, reward: 0, done: false, goal, task_id, task_type}` |
 * | `POST /reset {id, data_idx?, seed?, options?, task_id?, spec?}` | as `/create`                   |
 * | `POST /step {id, action}`                 | `{observation, reward, done}`                        |
 * | `GET /observation?id=`                    | the last observation, a JSON string                  |
 * | `POST /close {id}`                        | `true`                                               |
 *
 * Failures are JSON `{"error": "..."}` with status 400 (bad JSON, bad
 * fields, a task the environment rejects), 404 (unknown or closed id,
 * unknown path), 405 (wrong method) or 500 (the environment failed).
 *
 * @module
 */
import type { Environment, EnvironmentKit, TaskSpec } from "../../runtime/environment.ts";

/** Options of {@linkcode serveEnvironment}. */
export interface ServeEnvironmentOptions {
  /** The port; 0 picks a free one (read it from `server.addr`). */
  port: number;
  /** The interface to listen on. @default "127.0.0.1" */
  hostname?: string;
  /** Aborting it shuts the server down. */
  signal?: AbortSignal;
  /** Options passed to `kit.create` for every instance, e.g. `{ recipes: "<dir>" }`. */
  envOptions?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/**
 * Body fields that belong to the protocol, not to an explicit task; the rest
 * of a `/create` or `/reset` body (e.g. TextCraft's `commands` and `goal`)
 * is the task. `minecraft_dir` is sent by AgentGym's own TextCraft client and
 * names a server-side directory, which the client does not choose here.
 */
const PROTOCOL_KEYS = new Set(["id", "data_idx", "seed", "options", "task_id", "spec"]);
const IGNORED_KEYS = new Set(["minecraft_dir"]);

/** A failed request: its status and message. */
class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

interface Instance {
  env: Environment;
  observation: string;
  /** The goal of the task in progress. */
  goal: string;
  /** Requests to one instance run one at a time, in arrival order. */
  queue: Promise<unknown>;
}

/** The server's state: instances by id. */
class Instances {
  readonly #kit: EnvironmentKit;
  readonly #envOptions?: Record<string, unknown>;
  readonly #live = new Map<number, Instance>();
  readonly #closed = new Set<number>();
  #next = 0;

  constructor(kit: EnvironmentKit, envOptions?: Record<string, unknown>) {
    this.#kit = kit;
    this.#envOptions = envOptions;
  }

  async create(body: Json): Promise<Json> {
    const id = this.#next++;
    const env = this.#kit.create(this.#envOptions);
    const task = taskOf(body);
    // Like AgentGym's TextCraft server, a new instance starts a task at once: the one asked
    // for, else the one at data_idx = id.
    if (task.spec === undefined && task.id === undefined && task.seed === undefined) task.seed = id;
    try {
      const reply = await resetReply(env, id, task);
      this.#live.set(id, {
        env,
        observation: reply.observation as string,
        goal: reply.goal as string,
        queue: Promise.resolve(),
      });
      return reply;
    } catch (e) {
      await env.close?.();
      throw e;
    }
  }

  reset(body: Json): Promise<Json> {
    const id = idOf(body.id);
    return this.#run(id, async (inst) => {
      const reply = await resetReply(inst.env, id, taskOf(body));
      inst.observation = reply.observation as string;
      inst.goal = reply.goal as string;
      return reply;
    });
  }

  step(body: Json): Promise<Json> {
    const id = idOf(body.id);
    if (typeof body.action !== "string") {
      throw new HttpError(400, `Field "action" must be a string, got ${kindOf(body.action)}`);
    }
    const action = body.action;
    return this.#run(id, async (inst) => {
      const r = await envCall(() => inst.env.step(action));
      inst.observation = r.observation;
      return { observation: r.observation, reward: r.reward, done: r.done };
    });
  }

  observation(id: number): Promise<string> {
    return this.#run(id, (inst) => Promise.resolve(inst.observation));
  }

  goal(id: number): Promise<string> {
    return this.#run(id, (inst) => Promise.resolve(inst.goal));
  }

  /**
   * What the page offers, as `{has_search_bar, clickables}`: the
   * environment's own list when it keeps one (`availableActions()`), else
   * its admissible actions read as `click[...]` and `search[...]`.
   */
  available(id: number): Promise<Json> {
    return this.#run(id, async (inst) => {
      const env = inst.env as Environment & {
        availableActions?: () => { hasSearchBar: boolean; clickables: string[] };
      };
      if (typeof env.availableActions === "function") {
        const a = env.availableActions();
        return { has_search_bar: a.hasSearchBar, clickables: a.clickables };
      }
      const actions = await envCall(() => env.admissibleActions?.() ?? Promise.resolve([]));
      return {
        has_search_bar: actions.some((a) => a.startsWith("search[")),
        clickables: actions.flatMap((a) => /^click\[(.*)\]$/s.exec(a)?.[1] ?? []),
      };
    });
  }

  close(body: Json): Promise<boolean> {
    const id = idOf(body.id);
    return this.#run(id, async (inst) => {
      if (this.#live.get(id) === inst) {
        this.#live.delete(id);
        this.#closed.add(id);
        await envCall(() => inst.env.close?.() ?? Promise.resolve());
      }
      return true;
    });
  }

  /** The ids of the live instances. */
  ids(): number[] {
    return [...this.#live.keys()];
  }

  /** Closes every instance (on shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.#live.values()];
    this.#live.clear();
    await Promise.allSettled(all.map((inst) => inst.env.close?.()));
  }

  #run<T>(id: number, fn: (inst: Instance) => Promise<T>): Promise<T> {
    const inst = this.#live.get(id);
    if (!inst) {
      throw new HttpError(
        404,
        this.#closed.has(id)
          ? `Environment ${id} has been closed`
          : `Unknown environment id ${id}: create one with POST /create`,
      );
    }
    const result = inst.queue.then(() => {
      // A request queued behind /close finds the instance gone.
      if (this.#live.get(id) !== inst) {
        throw new HttpError(404, `Environment ${id} has been closed`);
      }
      return fn(inst);
    });
    inst.queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * Serves `kit` with the AgentGym env-server protocol, one environment
 * instance per created id. The server stops when `signal` aborts (or on
 * `server.shutdown()`), and then closes every instance.
 *
 * @param kit The environment kit.
 * @param options Port, hostname (default `127.0.0.1`), abort signal, `kit.create` options.
 * @returns The running server; `server.addr` has the port.
 *
 * @example Usage
 * ```ts ignore
 * import { serveEnvironment } from "./server.ts";
 * import { textcraftKit } from "../textcraft/kit.ts";
 * const server = serveEnvironment(textcraftKit, { port: 0 });
 * console.log(`http://127.0.0.1:${server.addr.port}`);
 * await server.shutdown();
 * ```
 */
export function serveEnvironment(
  kit: EnvironmentKit,
  options: ServeEnvironmentOptions,
): Deno.HttpServer<Deno.NetAddr> {
  const instances = new Instances(kit, options.envOptions);
  const server = Deno.serve({
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    signal: options.signal,
    onListen: () => {},
  }, (request) => handle(kit, instances, request));
  server.finished.then(() => instances.closeAll());
  return server;
}

async function handle(
  kit: EnvironmentKit,
  instances: Instances,
  request: Request,
): Promise<Response> {
  const url = new URL(request.url);
  if (kit.remoteProtocol === "env_idx") return await handleIndexed(instances, request, url);
  return await routed(ROUTES, request, url, async (path) => {
    switch (path) {
      case "/":
        return json(`This is environment ${kit.name}.`);
      case "/observation":
        return json(await instances.observation(idOf(queryInt(url, "id"))));
      case "/create":
        return json(await instances.create(await bodyOf(request)));
      case "/reset":
        return json(await instances.reset(await bodyOf(request)));
      case "/step":
        return json(await instances.step(await bodyOf(request)));
      default:
        return json(await instances.close(await bodyOf(request)));
    }
  });
}

/**
 * Answers a request on one of `routes` (path -> method) with `answer`: an
 * unknown path is a 404, a wrong method a 405, a failure an `{"error": ...}`
 * reply (its status from an `HttpError`, else 500).
 */
async function routed(
  routes: Readonly<Record<string, "GET" | "POST">>,
  request: Request,
  url: URL,
  answer: (path: string) => Promise<Response>,
): Promise<Response> {
  const route = routes[url.pathname];
  try {
    if (!route) throw new HttpError(404, `Unknown path "${url.pathname}"`);
    if (request.method !== route) {
      return json(
        { error: `${url.pathname} accepts ${route}, not ${request.method}` },
        405,
        { allow: route },
      );
    }
    return await answer(url.pathname);
  } catch (e) {
    if (e instanceof HttpError) return json({ error: e.message }, e.status);
    return json({ error: e instanceof Error ? e.message : String(e) }, 500);
  }
}

/**
 * The `env_idx` form of the protocol (see `EnvironmentKit.remoteProtocol`):
 * `POST /create` -> index, `POST /reset {env_idx, session_id}` ->
 * `[observation, null]`, `POST /step {env_idx, action}` -> `{state, reward,
 * done, info}`, `GET /observation`, `/available_actions`,
 * `/instruction_text?env_idx=`, `GET /list_envs`, `POST /close {env_idx}`.
 */
async function handleIndexed(
  instances: Instances,
  request: Request,
  url: URL,
): Promise<Response> {
  return await routed(INDEXED_ROUTES, request, url, async (path) => {
    const index = () => idOf(queryInt(url, "env_idx"));
    const body = INDEXED_ROUTES[path] === "POST" ? indexed(await bodyOf(request)) : {};
    switch (path) {
      case "/":
        return json("ok");
      case "/list_envs":
        return json(instances.ids());
      case "/create":
        return json((await instances.create({})).id);
      case "/reset": {
        const reply = await instances.reset(body);
        return json([reply.observation, null]);
      }
      case "/step": {
        const r = await instances.step(body);
        return json({ state: r.observation, reward: r.reward, done: r.done, info: null });
      }
      case "/observation":
        return json(await instances.observation(index()));
      case "/instruction_text":
        return json(await instances.goal(index()));
      case "/available_actions":
        return json(await instances.available(index()));
      default:
        return json(await instances.close(body));
    }
  });
}

const INDEXED_ROUTES: Record<string, "GET" | "POST"> = {
  "/": "GET",
  "/list_envs": "GET",
  "/observation": "GET",
  "/instruction_text": "GET",
  "/available_actions": "GET",
  "/create": "POST",
  "/reset": "POST",
  "/step": "POST",
  "/close": "POST",
};

/** A request body of the `env_idx` form in the other form's fields (`id`, `seed`). */
function indexed(body: Json): Json {
  const out: Json = { ...body, id: body.env_idx };
  delete out.env_idx;
  delete out.session_id;
  // Without a session, the task of the instance's own index (the reference picks one at random).
  const session = body.session_id ?? body.env_idx;
  if (session !== undefined && session !== null) out.seed = session;
  if (body.action === undefined) delete out.action;
  return out;
}

const ROUTES: Record<string, "GET" | "POST"> = {
  "/": "GET",
  "/observation": "GET",
  "/create": "POST",
  "/reset": "POST",
  "/step": "POST",
  "/close": "POST",
};

function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function bodyOf(request: Request): Promise<Json> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, `Request body must be a JSON object, got ${kindOf(body)}`);
  }
  return body as Json;
}

/** A query parameter: a number when it is one, else its text (`idOf` says what is wrong). */
function queryInt(url: URL, name: string): unknown {
  const raw = url.searchParams.get(name);
  return raw !== null && /^[0-9]+$/.test(raw) ? Number(raw) : raw ?? undefined;
}

function idOf(value: unknown): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new HttpError(
    400,
    `Field "id" must be an environment id (an integer), got ${kindOf(value)}`,
  );
}

/** The task a `/create` or `/reset` body asks for, as the environment's {@linkcode TaskSpec}. */
function taskOf(body: Json): TaskSpec {
  const task: TaskSpec = {};
  const explicit: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (!PROTOCOL_KEYS.has(key) && !IGNORED_KEYS.has(key) && value !== null) explicit[key] = value;
  }
  if (body.spec !== undefined && body.spec !== null) task.spec = body.spec;
  else if (Object.keys(explicit).length > 0) task.spec = explicit;
  if (body.task_id !== undefined && body.task_id !== null) {
    if (typeof body.task_id !== "string") {
      throw new HttpError(400, `Field "task_id" must be a string, got ${kindOf(body.task_id)}`);
    }
    task.id = body.task_id;
  }
  const seed = body.seed ?? body.data_idx;
  if (seed !== undefined && seed !== null) {
    if (typeof seed !== "number" || !Number.isSafeInteger(seed)) {
      const name = body.seed !== undefined && body.seed !== null ? "seed" : "data_idx";
      throw new HttpError(400, `Field "${name}" must be an integer, got ${kindOf(seed)}`);
    }
    task.seed = seed;
  }
  if (body.options !== undefined && body.options !== null) {
    if (typeof body.options !== "object" || Array.isArray(body.options)) {
      throw new HttpError(400, `Field "options" must be an object, got ${kindOf(body.options)}`);
    }
    task.options = body.options as Record<string, unknown>;
  }
  return task;
}

async function resetReply(env: Environment, id: number, task: TaskSpec): Promise<Json> {
  const r = await envCall(() => env.reset(task));
  const reply: Json = {
    id,
    observation: r.observation,
    reward: 0,
    done: false,
    goal: r.goal,
    task_id: r.taskId,
  };
  if (r.taskType !== undefined) reply.task_type = r.taskType;
  return reply;
}

/**
 * Runs an environment call; a `TypeError` or `RangeError` (a malformed or
 * impossible request, by the {@linkcode Environment} convention) becomes a
 * 400, anything else stays a 500.
 */
async function envCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw new HttpError(400, e.message);
    throw e;
  }
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
