/**
 * The garden environment kit: what the tools need to create garden
 * simulators, grounders, experts and task lists.
 *
 * @module
 */
import type { EnvironmentKit, TaskSpec } from "../../mod.ts";
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
};

export default gardenKit;
