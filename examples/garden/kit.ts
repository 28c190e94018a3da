/**
 * The garden environment kit: what the tools need to create garden
 * simulators, grounders, experts and task lists.
 *
 * @module
 */
import {
  type EnvironmentKit,
  rejectSelectors,
  type TaskListRequest,
  type TaskSpec,
} from "../../mod.ts";
import { GardenEnv } from "./env.ts";
import { GardenExpert } from "./expert.ts";
import { GardenGrounder } from "./grounder.ts";
import { gardenTasks } from "./tasks.ts";
import { gardenVocabulary } from "./vocabulary.ts";

/**
 * The garden kit. `create` accepts `{ maxSteps }`; `tasks` accepts
 * `{ split: "train" | "unseen", count, seed }` (see `gardenTasks`).
 *
 * @example Usage
 * ```ts
 * import { gardenKit } from "./kit.ts";
 * const [task] = gardenKit.tasks!({ split: "unseen", count: 1 });
 * const trace = await gardenKit.expert!().solve(gardenKit.create(), task);
 * console.log(trace.success); // true
 * ```
 */
export const gardenKit: EnvironmentKit = {
  name: "garden",
  vocabulary: gardenVocabulary,
  create(options: Record<string, unknown> = {}): GardenEnv {
    const { maxSteps } = options;
    if (maxSteps !== undefined && (typeof maxSteps !== "number" || maxSteps < 1)) {
      throw new TypeError(`Garden option "maxSteps" must be a positive number`);
    }
    return new GardenEnv({ maxSteps });
  },
  grounder(): GardenGrounder {
    return new GardenGrounder();
  },
  expert(): GardenExpert {
    return new GardenExpert();
  },
  tasks(options: Record<string, unknown> = {}): TaskSpec[] {
    return gardenTasks(options);
  },
  // What the commands need to know (all optional): the tasks of each split,
  // the tasks the expert demonstrates, the creation options, the budgets and
  // how the benchmark measures the domain.
  taskList({ split, n, seed, ...rest }: TaskListRequest): TaskSpec[] {
    rejectSelectors("Garden", rest, "only seed");
    return gardenTasks({
      split,
      ...(n !== undefined ? { count: n } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
  },
  demonstrationTasks(count = 8): TaskSpec[] {
    // Train tasks of 1-3 goal plants; the task types alternate by seed.
    return gardenTasks({ split: "train", count });
  },
  options: { maxSteps: { type: "number", doc: "actions before the episode ends" } },
  defaults: { maxActions: 100 },
  benchmark: {
    demonstrations: 8,
    tasks: 60,
    demo: { demonstrations: 8, tasks: 30 },
    demonstrationText: "train tasks (4 per task type, 1-3 goal plants)",
    taskText: "unseen tasks of 4-8 goal plants (both task types)",
  },
};

export default gardenKit;
