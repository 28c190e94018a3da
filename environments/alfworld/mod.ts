/**
 * ALFWorld: a TypeScript simulator of the ALFWorld text household that
 * speaks the benchmark's exact texts, with scene generation from the ALFRED
 * data, the six task types and their splits, explicit scene specs, a
 * rule-based grounder, transcript import and replay, and an expert.
 *
 * @example Usage
 * ```ts
 * import { alfworldKit } from "./mod.ts";
 * const env = alfworldKit.create();
 * const expert = alfworldKit.expert!();
 * const trace = await expert.solve(env, { id: "unseen/pick_heat_then_place_in_recep/0" });
 * console.log(trace.success); // true
 * ```
 *
 * @module
 */
import type { EnvironmentKit, TaskListRequest, TaskSpec } from "../../runtime/environment.ts";
import { rejectSelectors, spreadTasks } from "../../runtime/eval/task_lists.ts";
import { replayTraces } from "./replay.ts";
import { parseSceneSpec } from "./scene_spec.ts";
import { AlfworldEnv, type AlfworldEnvOptions } from "./env.ts";
import { AlfworldExpert, type ExpertOptions } from "./expert.ts";
import { AlfworldGrounder } from "./grounder.ts";
import { alfworldVocabulary } from "./vocabulary.ts";
import { importTranscripts } from "./transcript.ts";
import { splitTaskIds } from "./tasks.ts";
import { TASK_TYPES } from "./goals.ts";

export { admissibleCommands, AlfworldEnv, type AlfworldEnvOptions } from "./env.ts";
export { AlfworldExpert, type ExpertOptions, nextCommand } from "./expert.ts";
export { AlfworldGrounder } from "./grounder.ts";
export { alfworldVocabulary } from "./vocabulary.ts";
export { importTranscripts, parseTranscript, TranscriptError } from "./transcript.ts";
export { sceneSpecFromTrace } from "./reconstruct.ts";
export {
  groundingErrors,
  type ReplayMismatch,
  type ReplayOptions,
  type ReplayReport,
  replayTrace,
  replayTraces,
} from "./replay.ts";
export {
  type AlfworldTask,
  floorPlansFor,
  makeTask,
  type Split,
  splitFloorPlans,
  splitTaskIds,
  splitTasks,
  taskById,
  taskFromSeed,
  taskId,
  TRAIN_MIX,
  UNSEEN_MIX,
} from "./tasks.ts";
export {
  type Goal,
  GOAL_TEMPLATES,
  goalFacts,
  goalSatisfied,
  goalSentence,
  type GoalState,
  parseGoal,
  TASK_TYPES,
  type TaskType,
} from "./goals.ts";
export {
  buildWorld,
  parseSceneSpec,
  type SceneSpec,
  SceneSpecError,
  type SceneSpecInput,
  SceneSpecSchema,
  type SpecIssue,
} from "./scene_spec.ts";
export { type AlfredData, type FloorPlan, loadAlfredData } from "./catalog.ts";
export { type ClassRules, classRules } from "./rules.ts";
export { type Command, formatCommand, parseCommand } from "./commands.ts";
export { type Outcome, precondition, stepWorld } from "./dynamics.ts";
export { type Observed, parseObservation } from "./observation_parse.ts";
export { DEFAULT_WORDING, type Wording, World } from "./world.ts";

/**
 * The ALFWorld kit: name `alfworld`, its vocabulary, environment, grounder
 * and expert. `create` takes {@linkcode AlfworldEnvOptions}, `expert` takes
 * {@linkcode ExpertOptions}.
 */
export const alfworldKit: EnvironmentKit = {
  name: "alfworld",
  vocabulary: alfworldVocabulary,
  create: (options?: Record<string, unknown>) =>
    new AlfworldEnv(options as AlfworldEnvOptions | undefined),
  grounder: () => new AlfworldGrounder(),
  expert: (options?: Record<string, unknown>) =>
    new AlfworldExpert(options as ExpertOptions | undefined),
  importTranscripts: (text: string, source: string) => importTranscripts(text, source),
  tasks: (options?: Record<string, unknown>) => {
    const split = options?.split ?? "unseen";
    if (split !== "train" && split !== "unseen") {
      throw new TypeError(
        `ALFWorld split must be "train" or "unseen", got ${JSON.stringify(split)}`,
      );
    }
    const perType = options?.perType;
    if (
      perType !== undefined &&
      (typeof perType !== "number" || !Number.isInteger(perType) || perType < 0)
    ) {
      throw new TypeError(
        `ALFWorld perType must be a non-negative integer, got ${JSON.stringify(perType)}`,
      );
    }
    const ids = splitTaskIds(
      split,
      perType === undefined ? undefined : Object.fromEntries(TASK_TYPES.map((t) => [t, perType])),
    );
    const n = options?.n;
    if (n !== undefined && (typeof n !== "number" || !Number.isInteger(n) || n < 0)) {
      throw new TypeError(
        `ALFWorld task count must be a non-negative integer, got ${JSON.stringify(n)}`,
      );
    }
    return (n === undefined ? ids : ids.slice(0, n)).map((id) => ({ id }));
  },
  /**
   * The split's tasks (unseen: the 134-task evaluation mix), or `n` of them
   * spread evenly over it, so every task type is represented.
   */
  taskList(request: TaskListRequest): TaskSpec[] {
    const { split, n, ...rest } = request;
    rejectSelectors("ALFWorld", rest);
    const all = alfworldKit.tasks!({ split });
    return n === undefined ? all : spreadTasks(all, n);
  },
  /** Explicit tasks: scene specs (see `SceneSpecSchema`). */
  checkTaskSpec(value: unknown): string | undefined {
    try {
      parseSceneSpec(value);
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  },
  /** `count` train tasks per task type (default 2). */
  demonstrationTasks(count = 2): TaskSpec[] {
    return alfworldKit.tasks!({ split: "train", perType: count });
  },
  options: {
    wording: { type: "object", doc: "text variants applied to every task" },
  },
  replay: (traces) => replayTraces(traces),
  // ReAct's limit.
  defaults: { maxActions: 50 },
  benchmark: {
    transcripts: "alfworld/react_demos_2per_type.json",
    demo: { tasks: 30 },
    taskText: "tasks of the unseen split (ALFWorld's evaluation mix, unseen floor plans)",
  },
};
