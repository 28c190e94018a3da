/**
 * The ALFWorld expert: reads the full world state and acts out a shortest
 * sensible plan (fetch the object, change its state at the station, place it;
 * or fetch it and switch on the lamp), checking every action's precondition
 * before sending it, so it never meets "Nothing happens.". It emits the
 * episode as a trace.
 *
 * @module
 */
import type { Environment, Expert, TaskSpec } from "../../runtime/environment.ts";
import type { Trace } from "../../dsl/trace.ts";
import { playExpert } from "../../runtime/eval/expert_traces.ts";
import { type Command, formatCommand } from "./commands.ts";
import { precondition } from "./dynamics.ts";
import { AlfworldEnv } from "./env.ts";
import type { Goal } from "./goals.ts";
import { compareIds } from "./names.ts";
import { type ClassRules, STATIONS } from "./rules.ts";
import type { Item, World } from "./world.ts";

/** Options of {@linkcode AlfworldExpert}. */
export interface ExpertOptions {
  /** Placing spelling: `put` (`put X in/on Y`, default) or `move` (`move X to Y`). */
  spelling?: "put" | "move";
  /** Step budget (default 100). */
  maxSteps?: number;
}

const STATION_OF = { clean: STATIONS.clean, hot: STATIONS.heat, cool: STATIONS.cool } as const;
const VERB_OF = { clean: "clean", hot: "heat", cool: "cool" } as const;

function accepts(world: World, rules: ClassRules, receptacle: string, itemType: string): boolean {
  const r = world.receptacles.get(receptacle)!;
  return r.accepts ? r.accepts.includes(itemType) : rules.canContain(r.type, itemType);
}

/** Go to `receptacle` unless there, then open it if it is closed; `undefined` when both done. */
function reach(world: World, receptacle: string): Command | undefined {
  if (!world.isAt(receptacle)) return { kind: "goto", target: receptacle };
  if (!world.isAccessible(receptacle)) return { kind: "open", target: receptacle };
  return undefined;
}

/** Where to put goal objects: the goal-type receptacle holding most of them already. */
function targetReceptacle(world: World, rules: ClassRules, goal: Goal): string | undefined {
  const candidates = [...world.receptacles.values()]
    .filter((r) => r.type === goal.receptacle && accepts(world, rules, r.id, goal.object))
    .map((r) => r.id);
  const done = (r: string) => placedCount(world, goal, r);
  return candidates.sort((a, b) => done(b) - done(a) || compareIds(a, b))[0];
}

function placedCount(world: World, goal: Goal, receptacle: string): number {
  return world.contents(receptacle).filter((id) => {
    const item = world.itemsById.get(id)!;
    return item.type === goal.object && (!goal.state || item[goal.state]);
  }).length;
}

/** The first reachable object of the goal type outside `except`. */
function sourceItem(world: World, goal: Goal, except?: string): Item | undefined {
  return [...world.items()]
    .filter((i) =>
      i.type === goal.object && i.receptacle !== null && i.receptacle !== except &&
      i.traits.pickupable
    )
    .sort((a, b) => compareIds(a.id, b.id))[0];
}

function fetch(world: World, item: Item): Command {
  return reach(world, item.receptacle!) ?? { kind: "take", item: item.id, from: item.receptacle! };
}

/**
 * The expert's next command in `world`; `undefined` when it has no plan
 * (the task is unsolvable from here).
 */
export function nextCommand(
  world: World,
  rules: ClassRules,
  spelling: "put" | "move" = "put",
): Command | undefined {
  const goal = world.goal;
  const heldId = world.held();
  const held = heldId === null ? undefined : world.itemsById.get(heldId);
  if (goal.type === "look_at_obj_in_light") {
    const lamp = [...world.items()]
      .filter((i) => i.type === goal.toggle && i.receptacle !== null)
      .sort((a, b) => compareIds(a.id, b.id))[0];
    if (!lamp) return undefined;
    if (held?.type === goal.object) {
      return world.isAt(lamp.receptacle!)
        ? { kind: "use", target: lamp.id }
        : { kind: "goto", target: lamp.receptacle! };
    }
    if (held) return undefined;
    const item = sourceItem(world, goal);
    return item ? fetch(world, item) : undefined;
  }
  const target = targetReceptacle(world, rules, goal);
  if (!target) return undefined;
  if (held && held.type === goal.object) {
    if (goal.state && !held[goal.state]) {
      const station = [...world.receptacles.values()]
        .filter((r) => r.type === STATION_OF[goal.state!])
        .map((r) => r.id)
        .sort(compareIds)[0];
      if (!station) return undefined;
      if (!world.isAt(station)) return { kind: "goto", target: station };
      return { kind: VERB_OF[goal.state], item: held.id, station };
    }
    return reach(world, target) ?? { kind: "put", item: held.id, to: target, spelling };
  }
  if (held) return undefined;
  const item = sourceItem(world, goal, target);
  return item ? fetch(world, item) : undefined;
}

/**
 * The ALFWorld expert. It needs an {@linkcode AlfworldEnv} (it reads the
 * state).
 *
 * @example Usage
 * ```ts
 * import { AlfworldEnv } from "./env.ts";
 * import { AlfworldExpert } from "./expert.ts";
 * const trace = await new AlfworldExpert().solve(new AlfworldEnv(), { id: "unseen/pick_two_obj_and_place/0" });
 * console.log(trace.success); // true
 * ```
 */
export class AlfworldExpert implements Expert {
  readonly #spelling: "put" | "move";
  readonly #maxSteps: number;

  /** Creates the expert. */
  constructor(options: ExpertOptions = {}) {
    this.#spelling = options.spelling ?? "put";
    this.#maxSteps = options.maxSteps ?? 100;
  }

  /**
   * Resets `env` to `task` and solves it.
   *
   * @throws {TypeError} when `env` is not an ALFWorld simulator
   */
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof AlfworldEnv)) {
      throw new TypeError(`The ALFWorld expert needs an AlfworldEnv, got "${env.name}"`);
    }
    const reset = await env.reset(task);
    const { world, rules } = env;
    const [spelling, maxSteps] = [this.#spelling, this.#maxSteps];
    function* policy() {
      for (let n = 0; n < maxSteps && !world.done; n++) {
        const command = nextCommand(world, rules, spelling);
        if (!command) return;
        const failure = precondition(world, command, rules);
        if (failure !== undefined) {
          throw new Error(
            `Expert bug in "${reset.taskId}": "${formatCommand(command)}": ${failure}`,
          );
        }
        yield formatCommand(command);
      }
    }
    return await playExpert(env, reset, policy(), { seed: task.seed });
  }
}
