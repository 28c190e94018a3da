/**
 * Demonstrations from an environment's expert: one trace per task, each
 * solved on a fresh environment instance so no state leaks between tasks.
 *
 * @module
 */
import type { Trace, TraceStep } from "../../dsl/trace.ts";
import type { Environment, EnvironmentKit, ResetResult, TaskSpec } from "../environment.ts";

/** Options of {@linkcode playExpert}. */
export interface PlayExpertOptions {
  /** The task's seed, recorded in the trace. */
  seed?: number;
  /**
   * Whether an observation says the action was refused: an expert that
   * sends a refused action has a bug, so the play stops with an error
   * naming the task, the action and the observation.
   */
  refused?: (observation: string) => boolean;
}

/**
 * An expert's episode as a trace: plays `actions` in `env` (already reset
 * with `reset`) until the episode ends or the actions run out. `actions`
 * may be a generator that reads the environment's state for each next
 * action (a policy) or a plan computed up front.
 *
 * @throws {Error} When `options.refused` says an action was refused.
 *
 * @example Usage
 * ```ts ignore
 * const reset = await env.reset(task);
 * return playExpert(env, reset, plan.map(actionText));
 * ```
 */
export async function playExpert(
  env: Environment,
  reset: ResetResult,
  actions: Iterable<string>,
  options: PlayExpertOptions = {},
): Promise<Trace> {
  const steps: TraceStep[] = [];
  let success = false;
  for (const action of actions) {
    const { observation, reward, done } = await env.step(action);
    steps.push({ action, observation, reward, done });
    if (options.refused?.(observation)) {
      throw new Error(
        `Expert action "${action}" was refused in task "${reset.taskId}": ${observation}`,
      );
    }
    if (done) {
      success = reward > 0;
      break;
    }
  }
  return {
    format: "skillc/trace@1",
    env: env.name,
    task: {
      id: reset.taskId,
      ...(reset.taskType ? { type: reset.taskType } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    },
    goal: reset.goal,
    initial: reset.observation,
    steps,
    success,
    source: "expert",
  };
}

/** Options of {@linkcode generateExpertTraces}. */
export interface ExpertTraceOptions {
  /** Called after each task with the number done and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Options passed to `kit.create` (e.g. a data directory). @default {} */
  envOptions?: Record<string, unknown>;
  /** Options passed to `kit.expert`. @default {} */
  expertOptions?: Record<string, unknown>;
}

/**
 * What an expert throws when it finds no way to solve a task (a planner's
 * search ends without a plan): the task may have none, and a caller
 * gathering demonstrations can take another task instead.
 *
 * @example Usage
 * ```ts
 * import { NoSolutionError } from "./expert_traces.ts";
 * const e = new NoSolutionError("No plan found for ferry/p3");
 * console.log(e instanceof Error); // true
 * ```
 */
export class NoSolutionError extends Error {
  override name = "NoSolutionError";
}

/**
 * Solves each task with the kit's expert, in order, on a fresh
 * `kit.create()` per task (closed afterwards).
 *
 * @param kit The environment kit.
 * @param tasks The tasks to solve.
 * @param options Progress callback and creation options.
 * @returns One trace per task, in task order.
 * @throws {TypeError} When the kit has no expert.
 * @throws {Error} When the expert fails on a task (the message names the task).
 *
 * @example Usage
 * ```ts ignore
 * const traces = await generateExpertTraces(kit, kit.tasks!({ depths: [1], count: 5 }), {
 *   onProgress: (done, total) => console.log(`${done}/${total}`),
 * });
 * ```
 */
export async function generateExpertTraces(
  kit: EnvironmentKit,
  tasks: readonly TaskSpec[],
  options: ExpertTraceOptions = {},
): Promise<Trace[]> {
  if (!kit.expert) throw new TypeError(`The "${kit.name}" environment has no expert`);
  const expert = kit.expert(options.expertOptions ?? {});
  const traces: Trace[] = [];
  for (const [i, task] of tasks.entries()) {
    const env = kit.create(options.envOptions ?? {});
    try {
      traces.push(await expert.solve(env, task));
    } catch (e) {
      const error = new Error(
        `Expert failed on ${kit.name} task ${describeTask(task, i)}: ${
          e instanceof Error ? e.message : e
        }`,
      );
      error.cause = e;
      throw error;
    } finally {
      await env.close?.();
    }
    options.onProgress?.(i + 1, tasks.length);
  }
  return traces;
}

function describeTask(task: TaskSpec, index: number): string {
  if (task.id !== undefined) return `"${task.id}"`;
  if (task.seed !== undefined) return `with seed ${task.seed}`;
  return `${index + 1}`;
}
