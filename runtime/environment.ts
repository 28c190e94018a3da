/**
 * The one interface between the runtime and an environment (simulated,
 * remote or real), plus the grounder that turns observations into facts and
 * the optional expert that produces demonstrations.
 *
 * @module
 */
import type { FactDelta, FactView } from "../dsl/facts.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { Trace } from "../dsl/trace.ts";
import type { ActionModelData } from "./action_model_data.ts";
import type { KnowledgeSource } from "./knowledge.ts";

/** How to choose a task: by seed, by id in a split, or by an explicit spec. */
export interface TaskSpec {
  /** Deterministic generator seed. */
  seed?: number;
  /** A task id, e.g. from a split listing. */
  id?: string;
  /** An environment-specific explicit task description (validated by the environment). */
  spec?: unknown;
  /** Generator options, e.g. `{ depth: 2 }` for TextCraft. */
  options?: Record<string, unknown>;
}

/** What `reset` returns. */
export interface ResetResult {
  /** The first observation. */
  observation: string;
  /** The goal sentence. */
  goal: string;
  /** A stable id of the task. */
  taskId: string;
  /** The task type (template), when the environment has several. */
  taskType?: string;
}

/** What `step` returns. */
export interface StepResult {
  observation: string;
  reward: number;
  /** The episode is over (goal reached or ended by the environment). */
  done: boolean;
}

/** An interactive text environment. */
export interface Environment {
  /** Environment name, e.g. `textcraft`. */
  readonly name: string;
  /** The domain vocabulary skills use in this environment. */
  readonly vocabulary: Vocabulary;
  /** Starts a task. */
  reset(task: TaskSpec): Promise<ResetResult>;
  /** Sends one action. */
  step(action: string): Promise<StepResult>;
  /** The actions currently possible, when the environment can list them. */
  admissibleActions?(): Promise<string[]>;
  /**
   * How far the episode got, when the environment can tell short of
   * success: the best share of the goal reached so far, 0 to 1 (e.g. the
   * goal conditions that held). Evaluations report its mean beside success.
   */
  readonly progressRate?: number;
  /** Releases resources. */
  close?(): Promise<void>;
}

/** A grounder's answer for one observation. */
export interface Grounding {
  /** The fact change. */
  delta: FactDelta;
  /** Set when the observation says the action was rejected: the reason. */
  rejected?: string;
  /** Observation text the grounder did not understand (reported, never ignored). */
  unknown?: string[];
}

/** Turns observations into facts: the belief state. */
export interface Grounder {
  /** Facts of the first observation and the goal. */
  initial(observation: string, goal: string): Grounding;
  /** The fact change caused by `action` and its `observation`, given the current facts. */
  step(facts: FactView, action: string, observation: string): Grounding;
  /**
   * Offline only (grounding a recorded trace): facts that must already have
   * held before `action`, given that it succeeded with `observation`, which
   * the record never stated (the agent was at the receptacle it opened). The
   * delta repairs the state before the step; the runtime never calls this.
   */
  hindsight?(facts: FactView, action: string, observation: string): FactDelta;
}

/**
 * A grounder the runtime waits for: a symbolic one answers at once, one
 * that asks an LLM answers later. Every {@linkcode Grounder} is one; the
 * runtime (skill runs, the agent, honing) takes any, while grounding
 * recorded traces for induction needs a synchronous {@linkcode Grounder}.
 */
export interface OnlineGrounder {
  /** Facts of the first observation and the goal. */
  initial(observation: string, goal: string): Grounding | Promise<Grounding>;
  /** The fact change caused by `action` and its `observation`, given the current facts. */
  step(facts: FactView, action: string, observation: string): Grounding | Promise<Grounding>;
}

/** Produces a demonstration by solving a task. */
export interface Expert {
  /** Solves the task in `env` (already reset or resetting it) and returns the trace. */
  solve(env: Environment, task: TaskSpec): Promise<Trace>;
}

/** One observation a replay got differently from the transcript. */
export interface ReplayMismatch {
  /** Transcript name. */
  transcript: string;
  /** Step number, 1-based; 0 is the first observation. */
  step: number;
  /** The action of the step (empty for step 0). */
  action: string;
  /** The transcript's observation. */
  expected: string;
  /** The simulator's observation. */
  actual: string;
}

/** The result of replaying transcripts (see {@linkcode EnvironmentKit.replay}). */
export interface ReplayReport {
  /** Transcripts replayed. */
  transcripts: number;
  /** Actions replayed. */
  steps: number;
  /** Observations that differ. */
  mismatches: ReplayMismatch[];
  /** Grounding errors (unknown text) and transcripts that could not be replayed. */
  errors: string[];
}

/**
 * How `deno task bench` and `deno task demo` measure an environment. Paths
 * are relative to the benchmark data folder (`--data`).
 */
export interface KitBenchmark {
  /**
   * The library's task programs are decision-list policies learned from the
   * demonstrations (as `induce --policy`): the benchmark's `full` and
   * `hone` variants use them.
   */
  policy?: boolean;
  /** Transcripts to induce from (e.g. `alfworld/react_demos_2per_type.json`); else the expert demonstrates. */
  transcripts?: string;
  /** `create` options that are data paths, e.g. `{ recipes: "textcraft/recipes" }` (bench only). */
  dataOptions?: Readonly<Record<string, string>>;
  /** How many demonstrations the expert makes (default: the kit's own count). */
  demonstrations?: number;
  /** How many tasks of the unseen split are measured (default: the kit's own count). */
  tasks?: number;
  /** Selectors of those tasks beyond the split and count (TextCraft: `{ mix: "real" }`). */
  taskSelectors?: Readonly<Record<string, unknown>>;
  /** `deno task demo`'s counts, smaller, and on the data the kit ships. */
  demo?: {
    demonstrations?: number;
    tasks?: number;
    /** What the demo's tasks are (`deno task demo` prints it); else `taskText`. */
    taskText?: string;
  };
  /** What the expert's demonstration tasks are, in words, e.g. "depth-1 tasks, full recipe set". */
  demonstrationText?: string;
  /** What the evaluation tasks are, in words, e.g. "tasks of depth 2-4, full recipe set". */
  taskText?: string;
}

/** A request for the tasks of a split (see {@linkcode EnvironmentKit.taskList}). */
export interface TaskListRequest {
  /** `train` (demonstrations) or `unseen` (evaluation). */
  split: "train" | "unseen";
  /** How many tasks (default: the kit's choice for the split). */
  n?: number;
  /** The first seed of generated tasks. */
  seed?: number;
  /** Environment-specific selectors (TextCraft: `depths`); a kit rejects those it does not know. */
  [selector: string]: unknown;
}

/** Defaults the commands use for an environment. */
export interface KitDefaults {
  /** Environment actions per episode. @default 100 */
  maxActions?: number;
  /** Skill calls per episode. @default maxActions */
  maxSkillCalls?: number;
}

/** One option of {@linkcode EnvironmentKit.create}, for help texts and checks. */
export interface KitOption {
  /** The JSON type of its value. */
  type: "string" | "number" | "boolean" | "object";
  /** What it does. */
  doc: string;
}

/**
 * Everything the tools need to know about one kind of environment. The
 * optional members tell the commands what they would otherwise have to
 * know by name: the task lists of each split, the check of an explicit
 * task, the tasks the expert demonstrates, the creation options and the
 * default budgets.
 */
export interface EnvironmentKit {
  /** Environment name, e.g. `textcraft`. */
  readonly name: string;
  /** The domain vocabulary. */
  readonly vocabulary: Vocabulary;
  /** Creates a fresh environment instance. */
  create(options?: Record<string, unknown>): Environment;
  /**
   * Creates a grounder; `options` are those `create` was given, for a
   * grounder that reads the environment's data (TextCraft's recipe set). A
   * command binds them with {@linkcode withEnvOptions}.
   */
  grounder(options?: Record<string, unknown>): Grounder;
  /** An expert, when the environment has one. */
  expert?(options?: Record<string, unknown>): Expert;
  /**
   * Converts recorded transcripts in the environment's text format (e.g. a
   * JSON object of name -> transcript, or one transcript as text) into
   * traces; throws an error naming `source` and the line when malformed.
   */
  importTranscripts?(text: string, source: string): Trace[];
  /** Deterministic task lists, e.g. `{ split: "unseen" }` or `{ depths: [2, 3], count: 200 }`. */
  tasks?(options?: Record<string, unknown>): TaskSpec[];
  /**
   * The tasks of a split as the commands use them (`eval --split`,
   * `run-skill --list-tasks`). Throws a `RangeError` naming a selector it
   * does not know or a bad value. Without it, the commands use
   * `tasks({ split })`, spread over `n`.
   */
  taskList?(request: TaskListRequest): TaskSpec[];
  /**
   * Checks an explicit task (`--tasks <file.jsonl>`, `--task-spec
   * <json>`): `undefined` when valid, else what is wrong and what was
   * expected. Without it, explicit tasks are refused.
   */
  checkTaskSpec?(value: unknown): string | undefined;
  /**
   * The tasks the expert demonstrates for `induce --traces builtin`, `count`
   * of them or the kit's default. Without it, `tasks({ split: "train" })`.
   */
  demonstrationTasks?(count?: number): TaskSpec[];
  /**
   * Replays recorded transcripts (already imported) in the simulator and
   * reports every observation that differs (`deno task replay`).
   */
  replay?(traces: Trace[]): Promise<ReplayReport>;
  /** The options `create` accepts, by name. */
  options?: Readonly<Record<string, KitOption>>;
  /**
   * What the environment tells the agent about its actions, as action-model
   * data: the preconditions and effects its rules text states (the PDDL
   * kit's come from the domain, as AgentBoard's instruction states them to
   * its agent). Induction starts the library's action model from them and
   * refines it with the traces; without it (or when it returns
   * `undefined` for the options, e.g. PDDL's `rules: "learned"`), the
   * model is learned from the traces alone. `options` are those `create`
   * was given (bound by {@linkcode withEnvOptions}).
   */
  actionRules?(options?: Record<string, unknown>): ActionModelData | undefined;
  /**
   * Background knowledge from the environment's own data (e.g. the full
   * recipe set), created with the same options as `create`: what the agent
   * asks when the facts offer no way to what a call needs (`eval
   * --knowledge`; see `knowledge.ts`).
   */
  knowledge?(options?: Record<string, unknown>): KnowledgeSource;
  /** Budgets the commands use unless told otherwise. */
  defaults?: KitDefaults;
  /**
   * How the environment's AgentGym env-server speaks (`serve`, and
   * `agentgym:<env>@<url>`): `"id"` (the default: `/create` returns `{id,
   * observation, ...}`, requests carry `id`) or `"env_idx"`, the form some
   * AgentGym servers use: `/create` returns the index, `/reset {env_idx,
   * session_id}` returns `[observation, null]`, `/step {env_idx, action}`
   * returns `{state, reward, done, info}`, and `GET /available_actions`,
   * `/instruction_text` and `/observation` take `?env_idx=`.
   */
  remoteProtocol?: "id" | "env_idx";
  /**
   * For graded rewards (WebShop's purchase reward in [0, 1]): the final
   * reward an episode needs to count as a success. The evaluation then also
   * reports the score, the mean final reward x 100. Without it, any
   * positive reward is a success.
   */
  successReward?: number;
  /** How the benchmark and the demo measure it (see {@linkcode KitBenchmark}). */
  benchmark?: KitBenchmark;
}

/**
 * Checks options meant for `kit.create` against the options the kit
 * declares ({@linkcode EnvironmentKit.options}): each must be known and of
 * its declared JSON type.
 *
 * @returns `undefined` when they fit, else what is wrong, naming the known options.
 *
 * @example Usage
 * ```ts ignore
 * checkEnvOptions(textcraftKit, { rule: "x" });
 * // 'textcraft has no option "rule"; its options: recipes (string), maxDistractors (number)'
 * ```
 */
export function checkEnvOptions(
  kit: EnvironmentKit,
  options: Readonly<Record<string, unknown>>,
): string | undefined {
  const known = kit.options ?? {};
  const list = Object.entries(known).map(([name, o]) => `${name} (${o.type})`).join(", ");
  for (const [name, value] of Object.entries(options)) {
    const decl = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!decl) {
      return `${kit.name} has no option "${name}"; ${
        list === "" ? "it takes none" : `its options: ${list}`
      }`;
    }
    const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    if (type !== decl.type) {
      return `${kit.name}'s option "${name}" must be a ${decl.type} (${decl.doc}), got ${type}`;
    }
  }
  return undefined;
}

/**
 * A copy of the kit whose `grounder()`, `knowledge()` and `actionRules()` get `options`,
 * the options its environments are created with: a grounder that reads the
 * environment's data then reads the same data. (A copy: what is looked up
 * by the kit itself, such as a remote kit's local twin, needs the original.)
 *
 * @example Usage
 * ```ts ignore
 * const kit = withEnvOptions(textcraftKit, { recipes: "../shared/data/textcraft/recipes" });
 * kit.grounder(); // knows the full recipe set's families
 * ```
 */
export function withEnvOptions(
  kit: EnvironmentKit,
  options: Record<string, unknown>,
): EnvironmentKit {
  if (Object.keys(options).length === 0) return kit;
  const knowledge = kit.knowledge?.bind(kit);
  const actionRules = kit.actionRules?.bind(kit);
  return {
    ...kit,
    grounder: (more?: Record<string, unknown>) => kit.grounder({ ...options, ...more }),
    ...(actionRules
      ? { actionRules: (more?: Record<string, unknown>) => actionRules({ ...options, ...more }) }
      : {}),
    ...(knowledge
      ? { knowledge: (more?: Record<string, unknown>) => knowledge({ ...options, ...more }) }
      : {}),
  };
}
