/**
 * Environments by name: the built-in ones, plugin modules the user names
 * explicitly (a path or URL whose default export is an `EnvironmentKit`),
 * and either of them behind an AgentGym env-server
 * (`agentgym:<name-or-module>@<url>`).
 *
 * A plugin is code: it is imported (and so run) only when the user passes
 * its path or URL, never found or loaded otherwise.
 *
 * @module
 */
import { assertVocabulary } from "../dsl/vocabulary.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { alfworldKit } from "./alfworld/mod.ts";
import { textcraftKit } from "./textcraft/mod.ts";
import { webshopKit } from "./webshop/mod.ts";
import { parseRemoteName, REMOTE_PREFIX, remoteKit } from "./remote/kit.ts";
import { loadPddlKit, PDDL_PREFIX } from "./pddl/load.ts";

const KITS: Record<string, EnvironmentKit> = {
  [textcraftKit.name]: textcraftKit,
  [alfworldKit.name]: alfworldKit,
  [webshopKit.name]: webshopKit,
};

/** Names of the built-in environments. */
export function environmentNames(): string[] {
  return Object.keys(KITS);
}

/**
 * The kit of a built-in environment, or of one behind an AgentGym
 * env-server when `name` is `agentgym:<env>@<url>` (see `remoteKit`);
 * throws a `RangeError` listing the known names when there is none. For
 * plugin modules, see {@linkcode loadEnvironmentKit}.
 *
 * @example Usage
 * ```ts
 * import { environmentKit } from "./registry.ts";
 * console.log(environmentKit("textcraft").name); // textcraft
 * ```
 */
export function environmentKit(name: string): EnvironmentKit {
  if (name.startsWith(REMOTE_PREFIX)) {
    return remoteKit(name, environmentKit(parseRemoteName(name).env));
  }
  const kit = KITS[name];
  if (!kit) {
    throw new RangeError(
      `Unknown environment "${name}"; known: ${
        environmentNames().map((n) => `"${n}"`).join(", ")
      }, or the path or URL of a module whose default export is an environment kit`,
    );
  }
  return kit;
}

/** Whether `spec` names a module (a path or a URL) rather than a built-in environment. */
export function isModuleSpec(spec: string): boolean {
  return /^(\.{0,2}\/|[A-Za-z]:[\\/]|file:|https?:)/.test(spec) || /\.(m?[jt]s|tsx?)$/.test(spec);
}

/**
 * The kit `spec` names: a built-in environment, a PDDL domain
 * (`pddl:gripper`, `pddl:path/to/domain.pddl`, see `loadPddlKit`), a plugin
 * module (a path, relative to `base`, or a URL; its default export must be
 * an `EnvironmentKit`), or either behind an AgentGym env-server
 * (`agentgym:<name-or-module>@http://host:port`).
 *
 * @param spec The name, path or URL.
 * @param base Where relative paths start. @default the current directory
 * @throws {RangeError} When the name is unknown, the module cannot be
 * imported, or its default export is not a kit (saying what is missing).
 *
 * @example Usage
 * ```ts ignore
 * import { loadEnvironmentKit } from "./registry.ts";
 * const kit = await loadEnvironmentKit("examples/garden/kit.ts");
 * console.log(kit.name); // garden
 * ```
 */
export async function loadEnvironmentKit(
  spec: string,
  base: string = Deno.cwd(),
): Promise<EnvironmentKit> {
  if (spec.startsWith(REMOTE_PREFIX)) {
    const local = await loadEnvironmentKit(parseRemoteName(spec).env, base);
    return remoteKit(spec, local);
  }
  if (spec.startsWith(PDDL_PREFIX)) return await loadPddlKit(spec, base);
  if (!isModuleSpec(spec)) return environmentKit(spec);
  const url = /^(file|https?):/.test(spec)
    ? new URL(spec)
    : new URL(spec, `file://${base.replace(/\/*$/, "/")}`);
  let module: Record<string, unknown>;
  try {
    module = await import(url.href);
  } catch (e) {
    throw new RangeError(
      `Cannot load the environment module "${spec}": ${e instanceof Error ? e.message : e}`,
    );
  }
  return checkKit(module.default, spec);
}

/**
 * `value` as an environment kit, or a `RangeError` naming `source` and
 * what is missing.
 */
export function checkKit(value: unknown, source: string): EnvironmentKit {
  const where = `The default export of "${source}"`;
  if (typeof value !== "object" || value === null) {
    throw new RangeError(
      `${where} is not an environment kit (an object with name, vocabulary, create and ` +
        `grounder); got ${value === undefined ? "no default export" : typeof value}`,
    );
  }
  const kit = value as Record<string, unknown>;
  const missing = [
    typeof kit.name === "string" && kit.name !== "" ? undefined : "name (a string)",
    typeof kit.vocabulary === "object" && kit.vocabulary !== null ? undefined : "vocabulary",
    typeof kit.create === "function" ? undefined : "create()",
    typeof kit.grounder === "function" ? undefined : "grounder()",
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) {
    throw new RangeError(`${where} is not an environment kit: missing ${missing.join(", ")}`);
  }
  for (const f of ["expert", "tasks", "taskList", "checkTaskSpec", "demonstrationTasks"]) {
    if (kit[f] !== undefined && typeof kit[f] !== "function") {
      throw new RangeError(`${where}: "${f}" must be a function`);
    }
  }
  try {
    assertVocabulary(kit.vocabulary as EnvironmentKit["vocabulary"]);
  } catch (e) {
    throw new RangeError(`${where}: ${e instanceof Error ? e.message : e}`);
  }
  return value as EnvironmentKit;
}
