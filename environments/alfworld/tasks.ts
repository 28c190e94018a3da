/**
 * Tasks and splits. A task is `(split, type, index)`, with the id
 * `<split>/<type>/<index>` (e.g. `unseen/pick_heat_then_place_in_recep/3`);
 * its floor plan and seed follow from the id, so every task is the same on
 * every run. The train split uses the floor plans of ALFRED's train scene
 * numbers (7-30 of each room type), the unseen split those of its test scene
 * numbers (1-6), which no train task uses. The unseen split's default size
 * and mix is ALFWorld's 134-task evaluation set.
 *
 * @module
 */
import { type AlfredData, type FloorPlan, loadAlfredData } from "./catalog.ts";
import { TASK_TYPES, type TaskType } from "./goals.ts";
import { hashString } from "./rng.ts";
import { type ClassRules, classRules } from "./rules.ts";
import { generateScene, possibleGoals, type RoomPlan, roomPlan } from "./scene_gen.ts";
import type { SceneSpec } from "./scene_spec.ts";

/** The two splits. */
export type Split = "train" | "unseen";

/** ALFWorld's out-of-distribution evaluation mix: 134 tasks. */
export const UNSEEN_MIX: Readonly<Record<TaskType, number>> = {
  pick_and_place_simple: 24,
  pick_clean_then_place_in_recep: 31,
  pick_heat_then_place_in_recep: 23,
  pick_cool_then_place_in_recep: 21,
  look_at_obj_in_light: 18,
  pick_two_obj_and_place: 17,
};

/** ALFWorld's training mix: 3553 tasks. */
export const TRAIN_MIX: Readonly<Record<TaskType, number>> = {
  pick_and_place_simple: 790,
  pick_clean_then_place_in_recep: 650,
  pick_heat_then_place_in_recep: 459,
  pick_cool_then_place_in_recep: 533,
  look_at_obj_in_light: 308,
  pick_two_obj_and_place: 813,
};

/** One generated task. */
export interface AlfworldTask {
  id: string;
  split: Split;
  type: TaskType;
  index: number;
  /** The floor plan, e.g. `FloorPlan3`. */
  floorPlan: string;
  seed: number;
  /** The room and goal as a scene spec. */
  spec: SceneSpec;
}

/** Where the tasks come from (defaults: the shared data folder). */
export interface TaskSource {
  data?: AlfredData;
  rules?: ClassRules;
}

interface Resolved {
  data: AlfredData;
  rules: ClassRules;
  plans: Map<string, RoomPlan>;
  /** Memo of floorPlansFor by `split/type`. */
  hosts: Map<string, FloorPlan[]>;
  /** Memo of makeTask by task id: a task is a pure function of its id. */
  tasks: Map<string, AlfworldTask>;
}

const resolvedCache = new WeakMap<AlfredData, WeakMap<ClassRules, Resolved>>();

function resolve(source: TaskSource = {}): Resolved {
  const data = source.data ?? loadAlfredData();
  const rules = source.rules ?? classRules(data);
  let byRules = resolvedCache.get(data);
  if (!byRules) {
    byRules = new WeakMap();
    resolvedCache.set(data, byRules);
  }
  const hit = byRules.get(rules);
  if (hit) return hit;
  const plans = new Map(data.floorPlans.map((fp) => [fp.name, roomPlan(data, rules, fp)]));
  const resolved = { data, rules, plans, hosts: new Map<string, FloorPlan[]>(), tasks: new Map() };
  byRules.set(rules, resolved);
  return resolved;
}

/** Floor plans of a split, by ALFRED's scene numbers (a plan's number modulo 100). */
export function splitFloorPlans(split: Split, source?: TaskSource): FloorPlan[] {
  const { data } = resolve(source);
  const numbers = new Set(
    split === "train" ? data.constants.TRAIN_SCENE_NUMBERS : data.constants.TEST_SCENE_NUMBERS,
  );
  return data.floorPlans.filter((fp) => numbers.has(fp.number % 100));
}

/** Floor plans of a split that can host a task type (scene type allowed and a goal possible). */
export function floorPlansFor(split: Split, type: TaskType, source?: TaskSource): FloorPlan[] {
  const r = resolve(source);
  const key = `${split}/${type}`;
  const hit = r.hosts.get(key);
  if (hit) return hit;
  const valid = new Set(r.data.constants.GOALS_VALID[type] ?? []);
  const plans = splitFloorPlans(split, source).filter((fp) =>
    valid.has(fp.sceneType) && possibleGoals(r.plans.get(fp.name)!, r.rules, type).length > 0
  );
  r.hosts.set(key, plans);
  return plans;
}

/** The id of a task. */
export function taskId(split: Split, type: TaskType, index: number): string {
  return `${split}/${type}/${index}`;
}

/**
 * Generates the task `(split, type, index)`: floor plan number `index`
 * (round robin) among those that can host the type, seed from the id.
 *
 * @throws {RangeError} when no floor plan of the split can host the type
 */
export function makeTask(
  split: Split,
  type: TaskType,
  index: number,
  source?: TaskSource,
): AlfworldTask {
  const r = resolve(source);
  const id = taskId(split, type, index);
  const known = r.tasks.get(id);
  if (known) return known;
  const plans = floorPlansFor(split, type, source);
  if (plans.length === 0) {
    throw new RangeError(`No floor plan of the "${split}" split can host "${type}" tasks`);
  }
  const fp = plans[index % plans.length];
  const seed = hashString(id);
  const spec = generateScene(r.plans.get(fp.name)!, r.rules, { type, seed, id })!;
  // Frozen: the memo hands the same task to every caller.
  const task = deepFreeze({ id, split, type, index, floorPlan: fp.name, seed, spec });
  // Train ids run into the thousands; keep the memo bounded.
  if (r.tasks.size < 10_000) r.tasks.set(id, task);
  return task;
}

/**
 * The ids of a split in evaluation order (all tasks of the first type, then
 * the next, ...); `mix` overrides the number of tasks per type.
 */
export function splitTaskIds(split: Split, mix?: Partial<Record<TaskType, number>>): string[] {
  const base = split === "train" ? TRAIN_MIX : UNSEEN_MIX;
  return TASK_TYPES.flatMap((type) =>
    Array.from({ length: mix?.[type] ?? base[type] }, (_, i) => taskId(split, type, i))
  );
}

/**
 * All tasks of a split (default: the unseen split is ALFWorld's 134-task mix
 * 24/31/23/21/18/17; the train split its 3553-task mix).
 *
 * @example Usage
 * ```ts
 * import { splitTasks } from "./tasks.ts";
 * console.log(splitTasks("unseen").length); // 134
 * ```
 */
export function splitTasks(
  split: Split,
  options: { mix?: Partial<Record<TaskType, number>> } & TaskSource = {},
): AlfworldTask[] {
  return splitTaskIds(split, options.mix).map((id) => taskById(id, options));
}

/**
 * The task with id `<split>/<type>/<index>`.
 *
 * @throws {RangeError} for an id of another form, naming it
 */
export function taskById(id: string, source?: TaskSource): AlfworldTask {
  const m = /^(train|unseen)\/([a-z_]+)\/(\d+)$/.exec(id.trim());
  const type = m?.[2] as TaskType | undefined;
  if (!m || !type || !TASK_TYPES.includes(type)) {
    throw new RangeError(
      `Unknown ALFWorld task id "${id}"; expected "<train|unseen>/<task type>/<index>"`,
    );
  }
  return makeTask(m[1] as Split, type, Number(m[3]), source);
}

/**
 * The task of a seed: task type `seed mod 6` (or `options.type`) and index
 * from the rest, in the given split (default train).
 */
export function taskFromSeed(
  seed: number,
  options: { split?: Split; type?: TaskType } & TaskSource = {},
): AlfworldTask {
  const n = Math.abs(Math.trunc(seed));
  const type = options.type ?? TASK_TYPES[n % TASK_TYPES.length];
  const index = options.type ? n : Math.floor(n / TASK_TYPES.length);
  return makeTask(options.split ?? "train", type, index, options);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
