/**
 * The deploy environment: resets a generated cluster per task and plays
 * operations on it, with reward 1 when the goal is reached and a step limit.
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
import { deployVocabulary } from "./vocabulary.ts";
import { type DeployTask, resolveDeployTask } from "./tasks.ts";
import { type DeployState, DeployWorld, generateDeploy } from "./world.ts";

/** Actions per episode before the environment ends it. */
export const DEPLOY_MAX_STEPS = 200;

/** Reply to actions sent after the episode ended. */
const OVER = "You can't do that: the episode is over.";

/**
 * The deploy environment.
 *
 * @example Usage
 * ```ts
 * import { DeployEnv } from "./env.ts";
 * const env = new DeployEnv();
 * const { goal } = await env.reset({ seed: 3, options: { size: 2, type: "deploy" } });
 * console.log(goal.startsWith("deploy ")); // true
 * ```
 */
export class DeployEnv implements Environment {
  /** Environment name. */
  readonly name = "deploy";
  /** The deploy vocabulary. */
  readonly vocabulary: Vocabulary = deployVocabulary;
  readonly #maxSteps: number;
  #world?: DeployWorld;
  #task?: DeployTask;
  #steps = 0;
  #done = false;

  /** @param options `maxSteps`: the step limit (default {@linkcode DEPLOY_MAX_STEPS}). */
  constructor(options: { maxSteps?: number } = {}) {
    this.#maxSteps = options.maxSteps ?? DEPLOY_MAX_STEPS;
  }

  /** The current task, once reset. */
  get task(): DeployTask | undefined {
    return this.#task ? { ...this.#task } : undefined;
  }

  /** A copy of the simulator state, once reset (privileged: for the expert and tests). */
  get state(): DeployState | undefined {
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
    let resolved: DeployTask;
    try {
      resolved = resolveDeployTask(task);
    } catch (e) {
      return Promise.reject(e);
    }
    this.#task = resolved;
    this.#world = new DeployWorld(generateDeploy(resolved.seed, resolved.size, resolved.type));
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
    if (!world) return Promise.reject(new Error("Cannot step the deploy cluster before reset()"));
    if (this.#done) return Promise.resolve({ observation: OVER, reward: 0, done: true });
    this.#steps++;
    const { observation } = world.apply(action);
    const success = world.goalMet();
    this.#done = success || this.#steps >= this.#maxSteps;
    return Promise.resolve({ observation, reward: success ? 1 : 0, done: this.#done });
  }

  /** The actions the cluster would accept now. */
  admissibleActions(): Promise<string[]> {
    const world = this.#world;
    if (!world || this.#done) return Promise.resolve([]);
    return Promise.resolve(
      world.candidateActions().filter((a) => world.rejection(a) === undefined),
    );
  }

  /** The true facts of the current state (see `DeployWorld.trueFacts`); empty before reset. */
  trueFacts(): Atom[] {
    return this.#world?.trueFacts() ?? [];
  }
}
