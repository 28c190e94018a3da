/**
 * Environment kits for environments behind an AgentGym env-server, named
 * `agentgym:<env>@<url>`: the vocabulary, grounder and task lists come from
 * a local kit (`<env>`: a built-in name or a plugin module, resolved by the
 * registry), the environment itself from the server.
 *
 * @module
 */
import type { EnvironmentKit, Expert } from "../../runtime/environment.ts";
import { RemoteEnvironment } from "./client.ts";
import { MirrorExpert } from "./mirror_expert.ts";

/** The prefix of remote environment names. */
export const REMOTE_PREFIX = "agentgym:";

/** A parsed remote environment name. */
export interface RemoteName {
  /** The local kit's name, e.g. `textcraft`. */
  env: string;
  /** The server's base URL, e.g. `http://127.0.0.1:36001` (the first of `urls`). */
  url: string;
  /** Every server's base URL: episodes are spread over them in turn. */
  urls: string[];
}

/**
 * Parses `agentgym:<env>@<url>[,<url>...]`: one server, or several serving
 * the same environment (episodes are spread over them).
 *
 * @throws {TypeError} When the name does not have that form or a URL is not http(s).
 *
 * @example Usage
 * ```ts
 * import { parseRemoteName } from "./kit.ts";
 * console.log(parseRemoteName("agentgym:textcraft@http://127.0.0.1:36001"));
 * // { env: "textcraft", url: "http://127.0.0.1:36001", urls: ["http://127.0.0.1:36001"] }
 * ```
 */
export function parseRemoteName(spec: string): RemoteName {
  const form = `expected "${REMOTE_PREFIX}<env>@http://host:port[,http://host:port...]"`;
  if (!spec.startsWith(REMOTE_PREFIX)) {
    throw new TypeError(`Invalid remote environment "${spec}": ${form}`);
  }
  const rest = spec.slice(REMOTE_PREFIX.length);
  // The last "@http..." splits: a plugin path may itself contain "@".
  const m = /^(.+)@(https?:\/\/.*)$/.exec(rest) ?? /^(.+)@(.*)$/.exec(rest);
  const env = m?.[1] ?? "";
  const urls = (m?.[2] ?? "").split(",").map((u) => u.trim().replace(/\/+$/, ""));
  if (env === "" || urls.some((u) => u === "")) {
    throw new TypeError(`Invalid remote environment "${spec}": ${form}`);
  }
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TypeError(`Invalid remote environment "${spec}": "${url}" is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new TypeError(`Invalid remote environment "${spec}": "${url}" is not an http(s) URL`);
    }
  }
  return { env, url: urls[0], urls };
}

const twins = new WeakMap<EnvironmentKit, EnvironmentKit>();

/**
 * The local kit behind a remote one (its vocabulary, grounder, expert and
 * tasks), or the kit itself when it is not remote: demonstrations are made
 * in-process on it.
 */
export function localKit(kit: EnvironmentKit): EnvironmentKit {
  return twins.get(kit) ?? kit;
}

/**
 * The kit of an environment behind an AgentGym env-server. `create`
 * accepts `{ timeoutMs }` and returns a {@linkcode RemoteEnvironment}
 * (other options, such as TextCraft's `recipes`, are the server's business
 * and are ignored). When the local kit has an expert, `expert(options)`
 * returns a {@linkcode MirrorExpert} that plans on a local instance created
 * with `options`, so the server must hold the same data.
 *
 * @param spec `agentgym:<env>@<url>`, e.g. `agentgym:textcraft@http://127.0.0.1:36001`.
 * @param local The kit `<env>` names (see `loadEnvironmentKit`).
 * @returns The kit; its `name` is `spec` (without a trailing slash).
 * @throws {TypeError} When `spec` is malformed.
 *
 * @example Usage
 * ```ts ignore
 * import { remoteKit } from "./kit.ts";
 * const kit = remoteKit("agentgym:textcraft@http://127.0.0.1:36001", textcraftKit);
 * const env = kit.create({ timeoutMs: 5000 });
 * ```
 */
export function remoteKit(spec: string, local: EnvironmentKit): EnvironmentKit {
  const { env: envSpec, urls } = parseRemoteName(spec);
  const envName = local.name;
  let created = 0;
  const kit: EnvironmentKit = {
    name: `${REMOTE_PREFIX}${envSpec}@${urls.join(",")}`,
    vocabulary: local.vocabulary,
    create(options: Record<string, unknown> = {}): RemoteEnvironment {
      const { timeoutMs } = options;
      if (timeoutMs !== undefined && typeof timeoutMs !== "number") {
        throw new TypeError(`Remote environment option "timeoutMs" must be a number`);
      }
      // Several servers: each new environment goes to the next one.
      const url = urls[created++ % urls.length];
      return new RemoteEnvironment(url, {
        envName,
        vocabulary: local.vocabulary,
        timeoutMs,
        ...(local.remoteProtocol ? { protocol: local.remoteProtocol } : {}),
      });
    },
    grounder: (options?: Record<string, unknown>) => local.grounder(options),
    // The local twin's options tell the grounder its data (the server has its own).
    options: {
      ...local.options,
      timeoutMs: { type: "number", doc: "milliseconds to wait for the server" },
    },
  };
  if (local.expert) {
    kit.expert = (options?: Record<string, unknown>): Expert => new MirrorExpert(local, options);
  }
  // What the local kit knows of its tasks and transcripts is the same remotely.
  if (local.importTranscripts) kit.importTranscripts = local.importTranscripts.bind(local);
  if (local.tasks) kit.tasks = local.tasks.bind(local);
  if (local.taskList) kit.taskList = local.taskList.bind(local);
  if (local.checkTaskSpec) kit.checkTaskSpec = local.checkTaskSpec.bind(local);
  if (local.demonstrationTasks) kit.demonstrationTasks = local.demonstrationTasks.bind(local);
  if (local.defaults) kit.defaults = local.defaults;
  if (local.successReward !== undefined) kit.successReward = local.successReward;
  if (local.remoteProtocol) kit.remoteProtocol = local.remoteProtocol;
  if (local.knowledge) kit.knowledge = local.knowledge.bind(local);
  twins.set(kit, local);
  return kit;
}
