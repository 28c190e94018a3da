/**
 * The deploy expert: a reactive policy over the simulator state that
 * handles the wanted services one by one in goal order, and the expert that
 * records its episodes as traces.
 *
 * @module
 */
import { type Environment, type Expert, playExpert, type TaskSpec, type Trace } from "../../mod.ts";
import { DeployEnv } from "./env.ts";
import type { DeployState } from "./world.ts";

/**
 * The next expert action in `state`, or `undefined` when the goal holds.
 *
 * Per wanted service: build it only when it is not built; deploy it to the
 * first server (in listing order) that is up with a free slot, and boot the
 * first server that is down only when there is none; test it when the task
 * asks.
 */
export function nextDeployAction(state: DeployState): string | undefined {
  for (const id of state.wanted) {
    const service = state.services.find((x) => x.id === id)!;
    if (service.server === undefined) {
      if (!service.built) return `build ${id}`;
      const host = state.servers.find((v) => v.up && v.free > 0);
      if (host) return `deploy ${id} to ${host.id}`;
      const off = state.servers.find((v) => !v.up);
      // The generator leaves enough slots, so a server that is down remains.
      if (off) return `boot ${off.id}`;
      return undefined;
    }
    if (state.type === "deploy_and_test" && !service.tested) return `test ${id}`;
  }
  return undefined;
}

/**
 * The deploy expert: solves a task with {@linkcode nextDeployAction} on the
 * simulator's state and records the episode.
 *
 * @example Usage
 * ```ts
 * import { DeployEnv } from "./env.ts";
 * import { DeployExpert } from "./expert.ts";
 * const trace = await new DeployExpert().solve(new DeployEnv(), { seed: 4, options: { size: 3 } });
 * console.log(trace.success); // true
 * ```
 */
export class DeployExpert implements Expert {
  /**
   * Resets `env` to `task`, plays the policy until the episode ends and
   * returns the trace.
   *
   * @throws {TypeError} When `env` is not a deploy simulator.
   * @throws {Error} When an expert action is rejected (a policy bug).
   */
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof DeployEnv)) {
      throw new TypeError(`The deploy expert needs a DeployEnv, got "${env.name}"`);
    }
    const reset = await env.reset(task);
    const deploy = env;
    function* policy() {
      for (
        let a = nextDeployAction(deploy.state!);
        a !== undefined;
        a = nextDeployAction(deploy.state!)
      ) {
        yield a;
      }
    }
    return await playExpert(env, reset, policy(), {
      seed: env.task!.seed,
      refused: (observation) => observation.startsWith("You can't do that"),
    });
  }
}
