/**
 * The deploy environment kit: what the tools need to create deploy
 * simulators, grounders, experts and task lists.
 *
 * @module
 */
import type { EnvironmentKit, TaskSpec } from "../../mod.ts";
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
};

export default deployKit;
