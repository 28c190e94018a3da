/**
 * What the commands need of an environment, read off its kit (see
 * `runtime/eval/task_lists.ts`): the tasks of a split, the check of an explicit
 * task, the demonstrations of `--traces builtin`, and loading the kit that
 * `--env` names. Errors become usage errors.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { loadEnvironmentKit } from "../environments/registry.ts";
import { localKit, parseRemoteName, REMOTE_PREFIX, remoteKit } from "../environments/remote/kit.ts";
import { readVocabularyFile, vocabularyKit } from "../environments/remote/vocabulary_kit.ts";
import { InputFileError } from "../io/json_file.ts";
import { checkEnvOptions, type EnvironmentKit, type TaskSpec } from "../runtime/environment.ts";
import { generateExpertTraces, NoSolutionError } from "../runtime/eval/expert_traces.ts";
import { demonstrationTasksOf, taskListOf, taskSpecCheckOf } from "../runtime/eval/task_lists.ts";
import type { TaskSpecCheck } from "../runtime/eval/task_specs.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";
import { UsageError } from "./_cli.ts";

export { spreadTasks as spread } from "../runtime/eval/task_lists.ts";

/** The shared benchmark data folder, `../shared/data` next to the project. */
export const SHARED_DATA: string = decodeURIComponent(
  new URL("../../shared/data", import.meta.url).pathname,
);

/**
 * The help text of `--env`, the same for every command, with descriptions
 * starting at column `column`.
 */
export function envHelp(column: number): string {
  const lines = [
    "a built-in environment (textcraft, alfworld, webshop), a PDDL domain",
    "(pddl:gripper, pddl:path/to/domain.pddl with problems/ beside",
    "it, or pddl:<domain>+<problems folder or file>), the path or",
    "URL of a module whose default export is an",
    "EnvironmentKit (a plugin: its code runs, so name only modules",
    "you trust), or agentgym:<env>@http://host:port for any of",
    "them behind a server (an AgentGym env-server, e.g. deno task",
    "serve)",
  ];
  const head = "  --env <env>".padEnd(column);
  return lines.map((l, i) => (i === 0 ? head : " ".repeat(column)) + l).join("\n");
}

/** `f()`, with what it throws (a kit's `RangeError`, say) turned into a usage error. */
function asUsage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/**
 * The kit `--env` names (see `loadEnvironmentKit`); with `vocabulary` (the
 * `--vocabulary` file), an environment behind a server that skillc knows
 * by that vocabulary alone.
 *
 * @throws {UsageError} When it is missing, unknown or not a kit.
 */
export async function kitFromFlag(
  env: string | undefined,
  vocabulary?: string,
): Promise<EnvironmentKit> {
  if (!env) throw new UsageError("Missing --env <env>");
  try {
    if (vocabulary === undefined) return await loadEnvironmentKit(env);
    if (!env.startsWith(REMOTE_PREFIX)) {
      throw new UsageError(
        `--vocabulary is for an environment behind a server: --env ${REMOTE_PREFIX}<name>@http://host:port`,
      );
    }
    const { env: name } = parseRemoteName(env);
    return remoteKit(env, vocabularyKit(name, await readVocabularyFile(vocabulary)));
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputFileError) throw e;
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** The help line of `--vocabulary`. */
export const VOCABULARY_HELP =
  `  --vocabulary <file>  with --env agentgym:<name>@<url>: an environment known
                      only by its vocabulary (a JSON file: types, predicates,
                      actions); its observations are grounded by the model
                      (--llm, the grounder role)`;

/**
 * The check of an explicit task of an environment.
 *
 * @throws {UsageError} When the environment takes no explicit tasks.
 */
export function taskSpecCheck(kit: EnvironmentKit): TaskSpecCheck {
  return asUsage(() => taskSpecCheckOf(kit));
}

/** Options of {@linkcode taskList}. */
export interface TaskListOptions {
  /** `train` or `unseen`. @default "unseen" */
  split?: string;
  /** Number of tasks (default: the kit's choice). */
  n?: number;
  /** Depths, for environments whose tasks have them (`--depths`). */
  depths?: number[];
  /** The first task seed, for generated tasks. */
  seed?: number;
  /** Other selectors the kit knows (TextCraft: `mix`). */
  [selector: string]: unknown;
}

/**
 * The tasks of a split, as the kit lists them.
 *
 * @throws {UsageError} On a bad split, or options the kit rejects.
 */
export function taskList(kit: EnvironmentKit, options: TaskListOptions = {}): TaskSpec[] {
  const split = options.split ?? "unseen";
  if (split !== "train" && split !== "unseen") {
    throw new UsageError(`--split must be "train" or "unseen", got "${split}"`);
  }
  const { split: _split, ...selectors } = options;
  return asUsage(() =>
    taskListOf(kit, {
      split,
      ...Object.fromEntries(Object.entries(selectors).filter(([, v]) => v !== undefined)),
    })
  );
}

/**
 * The tasks the expert demonstrates (see `demonstrationTasksOf`).
 *
 * @throws {UsageError} When the environment has no expert or no tasks.
 */
export function demonstrationTasks(kit: EnvironmentKit, count?: number): TaskSpec[] {
  return asUsage(() => demonstrationTasksOf(kit, count));
}

/**
 * Expert demonstrations on the kit's demonstration tasks, as `deno task
 * induce --traces builtin` makes them. For a remote kit they are made
 * in-process on its local twin (the server holds the same data). A task
 * the expert finds no solution for (a problem with no plan) is skipped,
 * said through `onSkip`, and the kit's next demonstration task takes its
 * place.
 *
 * @throws {UsageError} When the environment has no expert or no tasks.
 * @throws {Error} When the expert solves none of them, or fails otherwise.
 */
export async function builtinTraces(
  kit: EnvironmentKit,
  options: {
    count?: number;
    envOptions?: Record<string, unknown>;
    onProgress?: (done: number, total: number) => void;
    onSkip?: (message: string) => void;
  } = {},
): Promise<Trace[]> {
  const local = localKit(kit);
  const wanted = demonstrationTasks(local, options.count);
  const traces: Trace[] = [];
  const tried = new Set<string>();
  let tasks = wanted;
  while (tasks.length > 0) {
    for (const task of tasks) {
      if (traces.length >= wanted.length) break;
      tried.add(JSON.stringify(task));
      try {
        traces.push(
          ...await generateExpertTraces(local, [task], { envOptions: options.envOptions ?? {} }),
        );
      } catch (e) {
        if (!((e as Error).cause instanceof NoSolutionError)) throw e;
        options.onSkip?.(`${(e as Error).message}; skipped`);
        continue;
      }
      options.onProgress?.(traces.length, wanted.length);
    }
    if (traces.length >= wanted.length) break;
    // The next tasks the kit offers, past those tried.
    tasks = demonstrationTasks(local, tried.size + wanted.length - traces.length)
      .filter((t) => !tried.has(JSON.stringify(t)));
  }
  if (traces.length === 0) {
    throw new Error(`The expert solves none of the ${tried.size} demonstration tasks it tried`);
  }
  return traces;
}

/**
 * The JSON object of `--env-options` (empty when not given), checked
 * against the options `kit` declares when it is given.
 *
 * @throws {UsageError} When the text is no JSON object, or an option is unknown or of the wrong type.
 */
export function parseEnvOptions(
  text: string | undefined,
  kit?: EnvironmentKit,
): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--env-options must be a JSON object, got "${text}"`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`--env-options must be a JSON object, got "${text}"`);
  }
  const wrong = kit && checkEnvOptions(kit, value as Record<string, unknown>);
  if (wrong) throw new UsageError(`--env-options: ${wrong}`);
  return value as Record<string, unknown>;
}

/**
 * Refuses a library whose action model started from rules the environment
 * states when the environment is told to state none (PDDL's `rules:
 * "learned"`): the agent would know what it was meant to learn.
 *
 * @throws {UsageError} Naming the library and what to do.
 */
export function checkStatedRules(
  kit: EnvironmentKit,
  envOptions: Record<string, unknown>,
  model: ActionModel | undefined,
  lib: string,
): void {
  if (!model?.stated || !kit.actionRules || kit.actionRules(envOptions) !== undefined) return;
  throw new UsageError(
    `${lib} was induced with the environment's stated action rules, which --env-options ` +
      `${JSON.stringify(envOptions)} withholds; induce it again with the same --env-options`,
  );
}
