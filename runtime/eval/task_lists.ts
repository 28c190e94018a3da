/**
 * The tasks of an environment as the commands use them, from whatever its
 * kit declares: the tasks of a split, the tasks the expert demonstrates,
 * the check of an explicit task and the default budgets. Kits that declare
 * less get the generic behaviour (`tasks({ split })`, spread over `n`).
 *
 * @module
 */
import type { EnvironmentKit, TaskListRequest, TaskSpec } from "../environment.ts";
import type { TaskSpecCheck } from "./task_specs.ts";

/** Actions per episode when a kit names no default. */
export const DEFAULT_MAX_ACTIONS = 100;

/**
 * `n` items spread evenly over `list`, in order (every part of the list is
 * represented, e.g. every task type of a split sorted by type).
 *
 * @example Usage
 * ```ts
 * import { spreadTasks } from "./task_lists.ts";
 * console.log(spreadTasks([1, 2, 3, 4, 5, 6], 3)); // [1, 3, 5]
 * ```
 */
export function spreadTasks<T>(list: readonly T[], n: number): T[] {
  if (n >= list.length) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

/**
 * Throws when `selectors` (what a task-list request holds beyond the split
 * and the number of tasks) names one the kit does not know: a kit's
 * `taskList` calls it with the selectors it did not take.
 *
 * @param who The environment, for the message (`TextCraft`).
 * @param known What it does take, in words (`depths, seed`).
 * @throws {RangeError} Naming the first unknown selector.
 *
 * @example Usage
 * ```ts
 * import { rejectSelectors } from "./task_lists.ts";
 * rejectSelectors("Garden", { seed: undefined }, "seed"); // fine: nothing given
 * ```
 */
export function rejectSelectors(
  who: string,
  selectors: Readonly<Record<string, unknown>>,
  known?: string,
): void {
  const unknown = Object.keys(selectors).find((k) => selectors[k] !== undefined);
  if (unknown !== undefined) {
    throw new RangeError(
      `${who} takes no task selector "${unknown}"${known ? ` (${known})` : ""}`,
    );
  }
}

/**
 * The tasks of a split: the kit's `taskList`, or else its `tasks({ split })`
 * spread over `n`.
 *
 * @throws {RangeError} When the kit has no task lists, or rejects the request
 * (an unknown selector, a bad value).
 *
 * @example Usage
 * ```ts ignore
 * import { taskListOf } from "./task_lists.ts";
 * const tasks = taskListOf(kit, { split: "unseen", n: 30 });
 * ```
 */
export function taskListOf(kit: EnvironmentKit, request: TaskListRequest): TaskSpec[] {
  if (request.split !== "train" && request.split !== "unseen") {
    throw new RangeError(`The split must be "train" or "unseen", got "${request.split}"`);
  }
  if (request.n !== undefined && (!Number.isInteger(request.n) || request.n < 1)) {
    throw new RangeError(`The number of tasks must be a positive integer, got ${request.n}`);
  }
  if (kit.taskList) return kit.taskList(request);
  if (!kit.tasks) throw new RangeError(`Environment "${kit.name}" has no task lists`);
  const { split, n, ...selectors } = request;
  rejectSelectors(`Environment "${kit.name}"`, selectors, "only the split and the number of tasks");
  const all = kit.tasks({ split });
  return n === undefined ? all : spreadTasks(all, n);
}

/**
 * The tasks the expert demonstrates for `--traces builtin`: the kit's
 * `demonstrationTasks(count)`, or else the train split (`count` of it).
 *
 * @throws {RangeError} When the kit has no expert or no task lists.
 */
export function demonstrationTasksOf(kit: EnvironmentKit, count?: number): TaskSpec[] {
  if (!kit.expert) throw new RangeError(`Environment "${kit.name}" has no expert to demonstrate`);
  if (kit.demonstrationTasks) return kit.demonstrationTasks(count);
  return taskListOf(kit, { split: "train", ...(count !== undefined ? { n: count } : {}) });
}

/**
 * The check of an explicit task of the kit.
 *
 * @throws {RangeError} When the kit takes no explicit tasks.
 */
export function taskSpecCheckOf(kit: EnvironmentKit): TaskSpecCheck {
  const check = kit.checkTaskSpec;
  if (!check) throw new RangeError(`Environment "${kit.name}" takes no explicit tasks`);
  return (value) => check.call(kit, value);
}

/** The budgets of an episode: the given ones, else the kit's defaults, else 100 actions. */
export function episodeBudgets(
  kit: EnvironmentKit,
  given: { maxActions?: number; maxSkillCalls?: number } = {},
): { maxActions: number; maxSkillCalls: number } {
  const maxActions = given.maxActions ?? kit.defaults?.maxActions ?? DEFAULT_MAX_ACTIONS;
  const maxSkillCalls = given.maxSkillCalls ?? kit.defaults?.maxSkillCalls ?? maxActions;
  return { maxActions, maxSkillCalls };
}
