/**
 * The garden environment: resets a generated garden per task and plays
 * actions in it, with reward 1 when the goal is reached and a step limit.
 *
 * @module
 */
import type {
  Atom,
  Environment,
  ResetResult,
  StepResult,
  TaskSpec,
  Vocabulary,
} from "../../mod.ts";
import { gardenVocabulary } from "./vocabulary.ts";
import { type GardenTask, resolveGardenTask } from "./tasks.ts";
import { type GardenState, GardenWorld, generateGarden } from "./world.ts";

/** Actions per episode before the environment ends it. */
export const GARDEN_MAX_STEPS = 200;

/** Reply to actions sent after the episode ended. */
const OVER = "You can't do that: the episode is over.";

/**
 * The garden environment.
 *
 * @example Usage
 * ```ts
 * import { GardenEnv } from "./env.ts";
 * const env = new GardenEnv();
 * const { goal } = await env.reset({ seed: 3, options: { size: 2, type: "water" } });
 * console.log(goal.startsWith("water every")); // true
 * ```
 */
export class GardenEnv implements Environment {
  /** Environment name. */
  readonly name = "garden";
  /** The garden vocabulary. */
  readonly vocabulary: Vocabulary = gardenVocabulary;
  readonly #maxSteps: number;
  #world?: GardenWorld;
  #task?: GardenTask;
  #steps = 0;
  #done = false;

  /** @param options `maxSteps`: the step limit (default {@linkcode GARDEN_MAX_STEPS}). */
  constructor(options: { maxSteps?: number } = {}) {
    this.#maxSteps = options.maxSteps ?? GARDEN_MAX_STEPS;
  }

  /** The current task, once reset. */
  get task(): GardenTask | undefined {
    return this.#task ? { ...this.#task } : undefined;
  }

  /** A copy of the simulator state, once reset (privileged: for the expert and tests). */
  get state(): GardenState | undefined {
    return this.#world?.state;
  }

  /** Actions sent since the reset. */
  get steps(): number {
    return this.#steps;
  }

  /**
   * Starts a task by `{ seed, options: { size, type } }` or by `id`.
   *
   * @throws {TypeError} When the request is malformed (as a rejected promise).
   */
  reset(task: TaskSpec): Promise<ResetResult> {
    let resolved: GardenTask;
    try {
      resolved = resolveGardenTask(task);
    } catch (e) {
      return Promise.reject(e);
    }
    this.#task = resolved;
    this.#world = new GardenWorld(generateGarden(resolved.seed, resolved.size, resolved.type));
    this.#steps = 0;
    this.#done = false;
    return Promise.resolve({
      observation: this.#world.firstObservation(),
      goal: this.#world.goal(),
      taskId: resolved.id,
      taskType: resolved.type,
    });
  }

  /**
   * Plays one action. Reward 1 and `done` when the goal is reached; `done`
   * also after the step limit.
   *
   * @throws {Error} When called before `reset` (as a rejected promise).
   */
  step(action: string): Promise<StepResult> {
    const world = this.#world;
    if (!world) return Promise.reject(new Error("Cannot step the garden before reset()"));
    if (this.#done) return Promise.resolve({ observation: OVER, reward: 0, done: true });
    this.#steps++;
    const { observation } = world.apply(action);
    const success = world.goalMet();
    this.#done = success || this.#steps >= this.#maxSteps;
    return Promise.resolve({ observation, reward: success ? 1 : 0, done: this.#done });
  }

  /** The actions the garden would accept now. */
  admissibleActions(): Promise<string[]> {
    const world = this.#world;
    if (!world || this.#done) return Promise.resolve([]);
    return Promise.resolve(
      world.candidateActions().filter((a) => world.rejection(a) === undefined),
    );
  }

  /** The true facts of the current state (see `GardenWorld.trueFacts`); empty before reset. */
  trueFacts(): Atom[] {
    return this.#world?.trueFacts() ?? [];
  }
}
