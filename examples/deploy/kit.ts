/**
 * The deploy environment kit: what the tools need to create deploy
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
import { DeployEnv } from "./env.ts";
import { DeployExpert } from "./expert.ts";
import { DeployGrounder } from "./grounder.ts";
import { deployTasks } from "./tasks.ts";
import { deployVocabulary } from "./vocabulary.ts";

/**
 * The deploy kit. `create` accepts `{ maxSteps }`; `tasks` accepts
 * `{ split: "train" | "unseen", count, seed }` (see `deployTasks`).
 *
 * @example Usage
 * ```ts
 * import { deployKit } from "./kit.ts";
 * const [task] = deployKit.tasks!({ split: "unseen", count: 1 });
 * const trace = await deployKit.expert!().solve(deployKit.create(), task);
 * console.log(trace.success); // true
 * ```
 */
export const deployKit: EnvironmentKit = {
  name: "deploy",
  vocabulary: deployVocabulary,
  create(options: Record<string, unknown> = {}): DeployEnv {
    const { maxSteps } = options;
    if (maxSteps !== undefined && (typeof maxSteps !== "number" || maxSteps < 1)) {
      throw new TypeError(`Deploy option "maxSteps" must be a positive number`);
    }
    return new DeployEnv({ maxSteps });
  },
  grounder(): DeployGrounder {
    return new DeployGrounder();
  },
  expert(): DeployExpert {
    return new DeployExpert();
  },
  tasks(options: Record<string, unknown> = {}): TaskSpec[] {
    return deployTasks(options);
  },
  // What the commands need to know (all optional): the tasks of each split,
  // the tasks the expert demonstrates, the creation options, the budgets and
  // how the benchmark measures the domain.
  taskList({ split, n, seed, ...rest }: TaskListRequest): TaskSpec[] {
    rejectSelectors("Deploy", rest, "only seed");
    return deployTasks({
      split,
      ...(n !== undefined ? { count: n } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
  },
  demonstrationTasks(count = 8): TaskSpec[] {
    // Train tasks of 1-3 goal services; the task types alternate by seed.
    return deployTasks({ split: "train", count });
  },
  options: { maxSteps: { type: "number", doc: "actions before the episode ends" } },
  defaults: { maxActions: 100 },
  benchmark: {
    demonstrations: 8,
    tasks: 60,
    demo: { demonstrations: 8, tasks: 30 },
    demonstrationText: "train tasks (4 per task type, 1-3 goal services)",
    taskText: "unseen tasks of 4-8 goal services (both task types)",
  },
};

export default deployKit;
