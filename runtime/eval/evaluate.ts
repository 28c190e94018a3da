/**
 * The evaluation harness: runs an episode runner (the agent, the expert, or
 * anything else that solves a task in an {@linkcode Environment}) on a list
 * of tasks, each on a fresh environment, and computes the metrics users
 * compare agents by: success rate overall and per task type, actions per
 * episode, invalid-action rate, primitive actions per skill call, LLM calls
 * and wall time.
 *
 * An episode whose environment or runner throws (a remote server that went
 * away, a task the environment rejects) is recorded as failed with its
 * error and the actions it had sent; it is never dropped.
 *
 * @module
 */
import type { Environment, ResetResult, StepResult, TaskSpec } from "../environment.ts";

/** What an episode runner reports about one solved (or failed) task. */
export interface EpisodeOutcome {
  /** The environment ended the episode with a positive reward. */
  success: boolean;
  /** The last reward received. */
  reward: number;
  /** Environment actions sent. */
  actions: number;
  /** Actions the environment rejected. */
  invalidActions: number;
  /** Actions planned with an action model rather than sent by a skill. @default 0 */
  plannedActions?: number;
  /** Skill calls made (0 for runners without skills). */
  skillCalls: number;
  /** Interpreter node evaluations. */
  steps: number;
  /** Calls to a language model. @default 0 */
  llmCalls?: number;
  /** Tokens and rejected answers of those calls, when a language model was used. */
  llm?: EpisodeLlmUsage;
  /** Why the episode stopped, in words. */
  stop?: string;
  /** The task id, when the runner knows it better than the environment's last reset. */
  taskId?: string;
  /** The task type, likewise. */
  taskType?: string;
}

/** What a language model's calls in one episode cost and what was rejected of them. */
export interface EpisodeLlmUsage {
  /** Tokens of the requests. */
  promptTokens: number;
  /** Tokens of the answers. */
  completionTokens: number;
  /** Calls answered from a recorded cache (counted in `llmCalls` too). */
  cached: number;
  /** Each answer the checks rejected: the role that asked and why. */
  rejected: { role: string; why: string }[];
}

/**
 * An episode that failed with an error, carrying what the runner can still
 * report of it (its language-model calls, say).
 */
export class EpisodeError extends Error {
  /** The runner's partial account of the episode. */
  readonly outcome: Pick<EpisodeOutcome, "llmCalls" | "llm">;
  /** Creates the error with the failure's message and the partial account. */
  constructor(message: string, outcome: Pick<EpisodeOutcome, "llmCalls" | "llm">) {
    super(message);
    this.name = "EpisodeError";
    this.outcome = outcome;
  }
}

/** Solves tasks, one per call. */
export interface EpisodeRunner {
  /**
   * Solves one task. The environment is fresh and not yet reset: the
   * runner resets it with `task` (directly or through an agent) and does not
   * close it.
   */
  run(env: Environment, task: TaskSpec): Promise<EpisodeOutcome>;
  /**
   * The runner needs the environment object itself (e.g. an expert that
   * reads the simulator's state), so the harness does not wrap it to track
   * resets and actions. @default false
   */
  rawEnvironment?: boolean;
}

/** One evaluated episode. */
export interface EpisodeRecord
  extends Required<Omit<EpisodeOutcome, "stop" | "taskId" | "taskType" | "llm">> {
  /** Position in the task list (0-based). */
  index: number;
  /** The task id the environment reported, else the task's label. */
  task: string;
  /** The task's label: the caller's (e.g. `file:line`), else its id, seed or position. */
  label: string;
  /** The task type the environment reported, else `"task"`. */
  type: string;
  /** Wall time of the episode, in seconds. */
  seconds: number;
  /** Why the episode stopped. */
  stop?: string;
  /** Set when the environment or the runner failed: the error message. */
  error?: string;
  /** The environment's progress rate at the end, when it reports one. */
  progress?: number;
  /** Tokens and rejected answers, when a language model was used. */
  llm?: EpisodeLlmUsage;
}

/** Metrics of one task type. */
export interface TypeMetrics {
  /** Episodes of the type. */
  tasks: number;
  /** Those that ended with a positive reward. */
  successes: number;
  /** `successes / tasks`. */
  success_rate: number;
  /** Environment actions per episode of the type. */
  avg_steps: number;
}

/**
 * The metrics of an evaluation, with the keys `deno task eval --json`
 * prints. Rates are fractions in [0, 1].
 */
export interface EvalReport {
  /** The environment's name. */
  env: string;
  /** The variant evaluated (e.g. `full`, `linear`, `expert`). */
  variant: string;
  /** Episodes run. */
  tasks: number;
  /**
   * Episodes that succeeded, over all episodes: ended with a positive
   * reward, or with at least the kit's `successReward` when its rewards are
   * graded (WebShop: a reward of 1).
   */
  success_rate: number;
  /**
   * The mean final reward x 100 when rewards are graded (WebShop's score);
   * `null` otherwise.
   */
  score: number | null;
  /** Environment actions per episode, over all episodes. */
  avg_steps: number;
  /** Rejected actions over actions sent (0 when none were sent). */
  invalid_action_rate: number;
  /**
   * Actions the agent planned with its action model (look-ahead, the
   * last-resort search) over actions sent: what the skills did not say.
   */
  planned_action_rate: number;
  /** Environment actions per skill call; `null` when no skill was called. */
  steps_per_skill: number | null;
  /**
   * Mean progress rate over the episodes whose environment reports one
   * (the best share of the goal reached); `null` when none does.
   */
  progress_rate: number | null;
  /** Calls to a language model, in total. */
  llm_calls: number;
  /** Tokens of those calls (requests and answers), in total. */
  llm_tokens: number;
  /** Answers of those calls that the checks rejected (each asked again once), in total. */
  llm_rejected: number;
  /** Wall time of the whole evaluation, in seconds. */
  seconds: number;
  /** Per task type, in order of first appearance. */
  by_type: Record<string, TypeMetrics>;
  /** Interpreter node evaluations, in total. */
  node_steps: number;
  /** Skill calls, in total. */
  skill_calls: number;
  /** Episodes whose environment or runner failed, with the error. */
  errors: { task: string; label: string; error: string }[];
}

/** Options of {@linkcode evaluate}. */
export interface EvaluateOptions {
  /** The environment's name, for the report. */
  env: string;
  /** The variant's name, for the report. @default "agent" */
  variant?: string;
  /** Creates a fresh environment for one episode (closed after it). */
  createEnv: () => Environment;
  /** The tasks, in order. */
  tasks: readonly TaskSpec[];
  /** Solves each task. */
  runner: EpisodeRunner;
  /** Labels of the tasks for records of episodes that failed before reset (e.g. `file:line`). */
  labels?: readonly string[];
  /** Called after each episode with its record, the number done and the total. */
  onEpisode?: (record: EpisodeRecord, done: number, total: number) => void | Promise<void>;
  /** The clock, in milliseconds. @default performance.now */
  now?: () => number;
  /**
   * Episodes in flight at once, each on its own environment (for remote
   * environments: that many connections). Records stay in task order and
   * equal a sequential run's as long as the runner keeps no state between
   * episodes (honing does). @default 1
   */
  concurrency?: number;
  /**
   * The final reward an episode needs to count as a success when rewards
   * are graded (the kit's `successReward`); the report then has a score.
   * Without it, any positive reward is a success.
   */
  successReward?: number;
}

/** What {@linkcode evaluate} returns. */
export interface Evaluation {
  /** Every episode, in task order. */
  records: EpisodeRecord[];
  /** The metrics over all of them. */
  report: EvalReport;
}

/**
 * Runs `run` on every task, each on a fresh environment, and computes the
 * report. Episodes run one after another, in task order, or
 * `concurrency` at a time.
 *
 * @param options The environment factory, tasks, runner and callbacks.
 * @returns Every episode's record and the report.
 *
 * @example Usage
 * ```ts ignore
 * const { report } = await evaluate({
 *   env: kit.name,
 *   createEnv: () => kit.create(),
 *   tasks: kit.tasks!(),
 *   runner: expertRunner(kit),
 * });
 * console.log(report.success_rate);
 * ```
 */
export async function evaluate(options: EvaluateOptions): Promise<Evaluation> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const total = options.tasks.length;
  const records: EpisodeRecord[] = new Array(total);
  let next = 0;
  let done = 0;
  // A pool of lanes, each taking the next task when its episode ends.
  const lane = async () => {
    while (next < total) {
      const index = next++;
      records[index] = await runEpisode(options, options.tasks[index], index, now);
      await options.onEpisode?.(records[index], ++done, total);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 1, total));
  await Promise.all(Array.from({ length: lanes }, lane));
  const seconds = (now() - started) / 1000;
  return {
    records,
    report: summarize(records, {
      env: options.env,
      variant: options.variant ?? "agent",
      seconds,
      graded: options.successReward !== undefined,
    }),
  };
}

async function runEpisode(
  options: EvaluateOptions,
  task: TaskSpec,
  index: number,
  now: () => number,
): Promise<EpisodeRecord> {
  const label = options.labels?.[index] ?? taskLabel(task, index);
  const t0 = now();
  let env: Environment | undefined;
  let tracked: TrackedEnvironment | undefined;
  let outcome: EpisodeOutcome | undefined;
  let error: string | undefined;
  let partial: EpisodeError["outcome"] | undefined;
  let progress: number | undefined;
  try {
    env = options.createEnv();
    if (!options.runner.rawEnvironment) env = tracked = new TrackedEnvironment(env);
    outcome = await options.runner.run(env, task);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    if (e instanceof EpisodeError) partial = e.outcome;
  } finally {
    progress = env?.progressRate;
    try {
      await env?.close?.();
    } catch (e) {
      // A failed close after a good episode still says the environment is in trouble.
      error ??= `Closing the environment failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const reset = tracked?.lastReset;
  const base = {
    index,
    label,
    task: outcome?.taskId ?? reset?.taskId ?? label,
    type: outcome?.taskType ?? reset?.taskType ?? "task",
    seconds: (now() - t0) / 1000,
    ...(typeof progress === "number" && Number.isFinite(progress) ? { progress } : {}),
  };
  if (error !== undefined || outcome === undefined) {
    return {
      ...base,
      success: false,
      reward: 0,
      actions: tracked?.actionsSent ?? 0,
      invalidActions: 0,
      plannedActions: 0,
      skillCalls: 0,
      steps: 0,
      llmCalls: partial?.llmCalls ?? 0,
      ...(partial?.llm ? { llm: partial.llm } : {}),
      error: error ?? "The runner returned no outcome",
    };
  }
  return {
    ...base,
    success: succeeded(outcome, options.successReward),
    reward: outcome.reward,
    actions: outcome.actions,
    invalidActions: outcome.invalidActions,
    plannedActions: outcome.plannedActions ?? 0,
    skillCalls: outcome.skillCalls,
    steps: outcome.steps,
    llmCalls: outcome.llmCalls ?? 0,
    ...(outcome.llm ? { llm: outcome.llm } : {}),
    ...(outcome.stop !== undefined ? { stop: outcome.stop } : {}),
  };
}

/**
 * Whether an episode succeeded: the runner's verdict, and with graded
 * rewards a final reward of at least `successReward`.
 */
export function succeeded(
  outcome: Pick<EpisodeOutcome, "success" | "reward">,
  successReward?: number,
): boolean {
  return outcome.success && (successReward === undefined || outcome.reward >= successReward);
}

/** A task's label when the environment never named it: its id, seed or position. */
export function taskLabel(task: TaskSpec, index: number): string {
  if (task.id !== undefined) return task.id;
  if (task.seed !== undefined) return `seed ${task.seed}`;
  return `task ${index + 1}`;
}

/**
 * Computes the report of a set of episode records.
 *
 * @example Usage
 * ```ts
 * import { summarize } from "./evaluate.ts";
 * const r = summarize([], { env: "toy", variant: "full", seconds: 0 });
 * console.log(r.tasks, r.success_rate); // 0 0
 * ```
 */
export function summarize(
  records: readonly EpisodeRecord[],
  info: { env: string; variant: string; seconds: number; graded?: boolean },
): EvalReport {
  const n = records.length;
  const sum = (f: (r: EpisodeRecord) => number, rs: readonly EpisodeRecord[] = records) =>
    rs.reduce((a, r) => a + f(r), 0);
  const actions = sum((r) => r.actions);
  const skillCalls = sum((r) => r.skillCalls);
  const withProgress = records.filter((r) => r.progress !== undefined);
  const byType: Record<string, TypeMetrics> = {};
  const types = [...new Set(records.map((r) => r.type))];
  for (const type of types) {
    const rs = records.filter((r) => r.type === type);
    const successes = rs.filter((r) => r.success).length;
    byType[type] = {
      tasks: rs.length,
      successes,
      success_rate: ratio(successes, rs.length),
      avg_steps: ratio(sum((r) => r.actions, rs), rs.length),
    };
  }
  return {
    env: info.env,
    variant: info.variant,
    tasks: n,
    success_rate: ratio(records.filter((r) => r.success).length, n),
    score: info.graded ? 100 * ratio(sum((r) => r.reward), n) : null,
    avg_steps: ratio(actions, n),
    invalid_action_rate: ratio(sum((r) => r.invalidActions), actions),
    planned_action_rate: ratio(sum((r) => r.plannedActions), actions),
    // Primitive actions of skill runs per call: recovery actions ride along, as they replace
    // the skill's own.
    steps_per_skill: skillCalls > 0 ? actions / skillCalls : null,
    progress_rate: withProgress.length > 0
      ? sum((r) => r.progress!, withProgress) / withProgress.length
      : null,
    llm_calls: sum((r) => r.llmCalls),
    llm_tokens: sum((r) => (r.llm?.promptTokens ?? 0) + (r.llm?.completionTokens ?? 0)),
    llm_rejected: sum((r) => r.llm?.rejected.length ?? 0),
    seconds: info.seconds,
    by_type: byType,
    node_steps: sum((r) => r.steps),
    skill_calls: skillCalls,
    errors: records.filter((r) => r.error !== undefined).map((r) => ({
      task: r.task,
      label: r.label,
      error: r.error!,
    })),
  };
}

function ratio(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/**
 * Wraps an environment to remember its last reset (task id and type) and
 * count the actions sent, so an episode that fails midway is still reported
 * with what it did.
 */
export class TrackedEnvironment implements Environment {
  readonly #inner: Environment;
  /** The last successful reset, when there was one. */
  lastReset?: ResetResult;
  /** Actions sent since the last reset. */
  actionsSent = 0;
  /** The wrapped environment's admissible actions, when it lists them. */
  readonly admissibleActions?: () => Promise<string[]>;

  /** Wraps `inner`. */
  constructor(inner: Environment) {
    this.#inner = inner;
    if (inner.admissibleActions) this.admissibleActions = () => inner.admissibleActions!();
  }
  /** The wrapped environment's progress rate, when it reports one. */
  get progressRate(): number | undefined {
    return this.#inner.progressRate;
  }
  /** The wrapped environment's name. */
  get name(): string {
    return this.#inner.name;
  }
  /** The wrapped environment's vocabulary. */
  get vocabulary(): Environment["vocabulary"] {
    return this.#inner.vocabulary;
  }
  /** Resets the wrapped environment and remembers the result. */
  async reset(task: TaskSpec): Promise<ResetResult> {
    const r = await this.#inner.reset(task);
    this.lastReset = r;
    this.actionsSent = 0;
    return r;
  }
  /** Sends an action, counting it. */
  step(action: string): Promise<StepResult> {
    this.actionsSent++;
    return this.#inner.step(action);
  }
  /** Closes the wrapped environment. */
  async close(): Promise<void> {
    await this.#inner.close?.();
  }
}
