/**
 * The garden expert: a reactive policy over the simulator state that tends
 * the goal plants bed by bed, and the expert that records its episodes as
 * traces.
 *
 * @module
 */
import { type Environment, type Expert, playExpert, type TaskSpec, type Trace } from "../../mod.ts";
import { GardenEnv } from "./env.ts";
import type { GardenPlant, GardenState, GardenTool } from "./world.ts";

/**
 * The next expert action in `state`, or `undefined` when the goal holds.
 *
 * It fetches the can with the most water (the first such in listing order:
 * which one that is differs per garden), fetches a bag for fertilizing
 * tasks (an open one if any), then per goal plant in bed order: fills the
 * can at the tap only when it is empty, goes to the bed, waters, and opens
 * the bag only when it is still sealed, right before fertilizing.
 */
export function nextGardenAction(state: GardenState): string | undefined {
  const s = state;
  const fertilize = s.type === "water_and_fertilize";
  const bedRank = (p: GardenPlant) => s.beds.indexOf(p.bed);
  const todo = s.plants
    .filter((p) => p.species === s.goalSpecies && (!p.watered || (fertilize && !p.fertilized)))
    .sort((a, b) => bedRank(a) - bedRank(b));
  if (todo.length === 0) return undefined;
  const held = (kind: string) => s.tools.find((t) => t.kind === kind && t.place === undefined);
  const fetch = (t: GardenTool) => s.agent === t.place ? `take ${t.id}` : `go to ${t.place}`;
  const can = held("can");
  if (!can) {
    const cans = s.tools.filter((t) => t.kind === "can");
    return fetch(cans.reduce((best, t) => t.water > best.water ? t : best));
  }
  const bag = held("bag");
  if (fertilize && !bag) {
    const bags = s.tools.filter((t) => t.kind === "bag");
    return fetch(bags.find((t) => !t.sealed) ?? bags[0]);
  }
  const plant = todo[0];
  if (!plant.watered) {
    if (can.water === 0) return s.agent === s.tap ? `fill ${can.id}` : `go to ${s.tap}`;
    if (s.agent !== plant.bed) return `go to ${plant.bed}`;
    return `water ${plant.id} with ${can.id}`;
  }
  // Watered but not fertilized: only in fertilizing tasks, so a bag is carried.
  if (!bag) return undefined;
  if (s.agent !== plant.bed) return `go to ${plant.bed}`;
  if (bag.sealed) return `open ${bag.id}`;
  return `fertilize ${plant.id} with ${bag.id}`;
}

/**
 * The garden expert: solves a task with {@linkcode nextGardenAction} on the
 * simulator's state and records the episode.
 *
 * @example Usage
 * ```ts
 * import { GardenEnv } from "./env.ts";
 * import { GardenExpert } from "./expert.ts";
 * const trace = await new GardenExpert().solve(new GardenEnv(), { seed: 4, options: { size: 3 } });
 * console.log(trace.success); // true
 * ```
 */
export class GardenExpert implements Expert {
  /**
   * Resets `env` to `task`, plays the policy until the episode ends and
   * returns the trace.
   *
   * @throws {TypeError} When `env` is not a garden simulator.
   * @throws {Error} When an expert action is rejected (a policy bug).
   */
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof GardenEnv)) {
      throw new TypeError(`The garden expert needs a GardenEnv, got "${env.name}"`);
    }
    const reset = await env.reset(task);
    const garden = env;
    function* policy() {
      for (
        let a = nextGardenAction(garden.state!);
        a !== undefined;
        a = nextGardenAction(garden.state!)
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
