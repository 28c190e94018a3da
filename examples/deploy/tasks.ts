/**
 * Deploy tasks: resolving a task request (`{ seed, options }` or an `id`)
 * into seed, size and type, and the deterministic `train` / `unseen` task
 * lists.
 *
 * @module
 */
import type { TaskSpec } from "../../mod.ts";
import { DEPLOY_TASK_TYPES, type DeployTaskType } from "./world.ts";

/** A resolved deploy task. */
export interface DeployTask {
  /** Stable id: `deploy/<split>/<seed>` or `deploy/<type>/n<size>/s<seed>`. */
  id: string;
  seed: number;
  /** Number of wanted services. */
  size: number;
  type: DeployTaskType;
}

/** The splits and their size ranges: `unseen` tasks are 2-3x larger than `train` ones. */
export const DEPLOY_SPLITS = {
  train: { sizes: [1, 3], count: 12 },
  unseen: { sizes: [4, 8], count: 60 },
} as const;
/** A split name. */
export type DeploySplit = keyof typeof DEPLOY_SPLITS;

/** The largest number of wanted services a task may have. */
export const MAX_DEPLOY_SIZE = 10;

const SPLIT_ID = /^deploy\/(train|unseen)\/(-?\d+)$/;
const FULL_ID = /^deploy\/([a-z_]+)\/n(\d+)\/s(-?\d+)$/;

function mod(x: number, n: number): number {
  return ((x % n) + n) % n;
}

/** The task type a seed picks when none is given: alternating, so lists mix both. */
function typeOfSeed(seed: number): DeployTaskType {
  return DEPLOY_TASK_TYPES[mod(seed, DEPLOY_TASK_TYPES.length)];
}

/** The size a seed picks in a split: consecutive seeds cycle through the split's sizes. */
function sizeOfSeed(split: DeploySplit, seed: number): number {
  const [lo, hi] = DEPLOY_SPLITS[split].sizes;
  return lo + mod(seed, hi - lo + 1);
}

/**
 * Resolves a task request: an `id` from a task list (`deploy/unseen/17`)
 * or from a reset (`deploy/deploy_and_test/n3/s5`) wins; otherwise `seed` (default 0)
 * with `options.size` (1-10; by the seed in the train range when omitted)
 * and `options.type` (by the seed when omitted).
 *
 * @throws {TypeError} When the id, seed or options are malformed.
 */
export function resolveDeployTask(task: TaskSpec): DeployTask {
  if (task.spec !== undefined) throw new TypeError("Deploy tasks take no explicit spec");
  if (task.id !== undefined) {
    const split = SPLIT_ID.exec(task.id);
    if (split) {
      const name = split[1] as DeploySplit;
      const seed = Number(split[2]);
      return { id: task.id, seed, size: sizeOfSeed(name, seed), type: typeOfSeed(seed) };
    }
    const full = FULL_ID.exec(task.id);
    if (!full) {
      throw new TypeError(
        `Invalid deploy task id "${task.id}": expected "deploy/<split>/<seed>" or "deploy/<type>/n<size>/s<seed>"`,
      );
    }
    return build(Number(full[3]), Number(full[2]), full[1]);
  }
  const seed = task.seed ?? 0;
  const options = task.options ?? {};
  for (const key of Object.keys(options)) {
    if (key !== "size" && key !== "type") {
      throw new TypeError(`Unknown deploy task option "${key}" (known: size, type)`);
    }
  }
  const size = options.size ?? sizeOfSeed("train", seed);
  return build(seed, size, options.type ?? typeOfSeed(seed));
}

function build(seed: unknown, size: unknown, type: unknown): DeployTask {
  if (typeof seed !== "number" || !Number.isSafeInteger(seed)) {
    throw new TypeError(`Invalid deploy seed ${JSON.stringify(seed)}: expected an integer`);
  }
  if (
    typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > MAX_DEPLOY_SIZE
  ) {
    throw new TypeError(
      `Invalid deploy size ${JSON.stringify(size)}: expected an integer 1-${MAX_DEPLOY_SIZE}`,
    );
  }
  if (!(DEPLOY_TASK_TYPES as readonly unknown[]).includes(type)) {
    throw new TypeError(
      `Invalid deploy task type ${JSON.stringify(type)}: expected ${
        DEPLOY_TASK_TYPES.join(" or ")
      }`,
    );
  }
  const t = type as DeployTaskType;
  return { id: `deploy/${t}/n${size}/s${seed}`, seed, size, type: t };
}

/** Options of {@linkcode deployTasks}. */
export interface DeployTasksOptions {
  /** `train` (sizes 1-3) or `unseen` (sizes 4-8). @default "train" */
  split?: DeploySplit;
  /** Number of tasks. @default 12 for train, 60 for unseen */
  count?: number;
  /** First seed; task `i` has seed `seed + i`. @default 0 */
  seed?: number;
}

/**
 * A deterministic task list: consecutive seeds, sizes spread evenly over
 * the split's range and both task types alternating.
 *
 * @throws {TypeError} When an option is malformed or unknown.
 *
 * @example Usage
 * ```ts
 * import { deployTasks } from "./tasks.ts";
 * console.log(deployTasks({ split: "unseen", count: 1, seed: 17 })[0].id); // deploy/unseen/17
 * ```
 */
export function deployTasks(options: Record<string, unknown> = {}): TaskSpec[] {
  for (const key of Object.keys(options)) {
    if (!["split", "count", "seed"].includes(key)) {
      throw new TypeError(`Unknown deploy task list option "${key}" (known: split, count, seed)`);
    }
  }
  const split = options.split ?? "train";
  if (split !== "train" && split !== "unseen") {
    throw new TypeError(`Invalid deploy split ${JSON.stringify(split)}: expected train or unseen`);
  }
  const count = options.count ?? DEPLOY_SPLITS[split].count;
  const base = options.seed ?? 0;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
    throw new TypeError(`Invalid deploy task count ${JSON.stringify(count)}`);
  }
  if (typeof base !== "number" || !Number.isSafeInteger(base)) {
    throw new TypeError(`Invalid deploy task list seed ${JSON.stringify(base)}`);
  }
  return Array.from({ length: count }, (_, i) => {
    const seed = base + i;
    return {
      id: `deploy/${split}/${seed}`,
      seed,
      options: { size: sizeOfSeed(split, seed), type: typeOfSeed(seed) },
    };
  });
}
