/**
 * The agent's types: what it needs, what its `onFailure` hook receives and
 * returns, its events and its result (see `agent.ts`).
 *
 * @module
 */
import type { FactDelta, Value } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { Environment, OnlineGrounder, TaskSpec } from "../environment.ts";
import type { FactStore } from "../fact_store.ts";
import type { RunContext, RunEvent, RunResult } from "../exec/interpreter.ts";
import type { SkillLibrary } from "../store/library.ts";
import type { Program } from "../exec/program.ts";
import type { Plan, SkillCall } from "../plan/planner.ts";
import type { Subgoal } from "../plan/regression.ts";
import type { Router, RouteStep } from "../plan/router.ts";
import type { KnowledgeSource } from "../knowledge.ts";
import type { Budgets } from "../exec/step.ts";
import type { TaskTemplate } from "../store/task_template.ts";

/** What the agent needs of an environment kit. */
export interface AgentKit {
  readonly vocabulary: Vocabulary;
  grounder(): OnlineGrounder;
}

/** A failed skill call, handed to the `onFailure` hook. */
export interface SkillFailure {
  skill: string;
  args: Record<string, Value>;
  /** The program as run. */
  program: Program;
  result: RunResult;
  /** The events of the failed run. */
  events: RunEvent[];
  /** The belief state (the hook keeps it up to date when it acts). */
  facts: FactStore;
  /** The environment, positioned where the skill failed. */
  env: Environment;
  /** The grounder the agent uses. */
  grounder: OnlineGrounder;
  /** Regression depth of the call (0: a template step). */
  level: number;
}

/** What the `onFailure` hook reports. */
export interface RecoveryOutcome {
  /** The hook achieved what the failed skill was for. */
  recovered: boolean;
  /** Environment actions it sent. */
  actions: number;
  /** Actions the environment rejected among them. @default 0 */
  invalidActions?: number;
  /** The environment ended the episode while the hook acted. */
  episodeDone?: boolean;
  /** The last reward the hook received. */
  reward?: number;
}

/** Options of `runAgent` (see `agent.ts`). */
export interface AgentOptions {
  env: Environment;
  kit: AgentKit;
  library: SkillLibrary;
  templates: readonly TaskTemplate[];
  task: TaskSpec;
  /** Skill calls allowed (template steps, subgoals and retries). @default 60 */
  maxSkillCalls?: number;
  /** Environment actions allowed. @default 150 */
  maxActions?: number;
  /** Deepest goal regression. @default 6 */
  maxDepth?: number;
  /** Retries of one call after its subgoals were achieved. @default 8 */
  maxRetries?: number;
  /** Interpreter budgets of each skill run. */
  budgets?: Partial<Budgets>;
  /**
   * A learned action model: skill runs skip actions whose effects already
   * hold and name unmet preconditions in their diagnoses.
   */
  actionModel?: RunContext["actionModel"];
  /**
   * Before an action the action model (an `ActionModel`) predicts to be
   * rejected, plan its preconditions with the model and send that plan
   * first (see `lookahead.ts`); and where a skill chooses among several
   * objects, play each way on in the model and leave one that ends in a
   * dead end (see `choice_lookahead.ts`). @default true
   */
  lookahead?: boolean;
  /**
   * Runs of a task program: one that ends with the environment's goal unmet
   * runs again (skipping what holds) while a pass achieves something.
   * @default 3
   */
  maxPasses?: number;
  /**
   * Receives every action the skills send: the state before it, whether the
   * environment accepted it and the fact change (to learn from experience).
   */
  onTransition?: (transition: {
    facts: FactStore;
    action: string;
    ok: boolean;
    delta?: FactDelta;
  }) => void;
  /** Reflective planning: called when regression cannot repair a failed call. */
  onFailure?: (failure: SkillFailure) => Promise<RecoveryOutcome | undefined>;
  /**
   * Asked for skill calls and raw actions, step by step, when no template
   * fits the goal (see `router.ts`); without it the agent stops there.
   */
  router?: Router;
  /**
   * Asked when a call fails and nothing else repairs it: facts to assume,
   * verified by retrying the call (and retracted when the retry fails).
   */
  knowledge?: KnowledgeSource;
}

/** A failed call, as recorded in the result. */
export interface AgentFailure {
  skill: string;
  args: Record<string, Value>;
  level: number;
  /** `failure`: ended at a failure; `verification`: succeeded without its postcondition; `budget`: stopped by the action budget. */
  kind: "failure" | "verification" | "budget";
  message: string;
  /** The node where it ended. */
  node?: string;
  /** The diagnosis condition, or the postcondition that does not hold. */
  condition?: string;
}

/** The result of an agent run. */
export interface AgentResult {
  /** The environment ended the episode with a positive reward. */
  success: boolean;
  reward: number;
  /** Environment actions sent (recovery included). */
  actions: number;
  /** Skill calls made (template steps, subgoals and retries). */
  skillCalls: number;
  /** Actions the environment rejected. */
  invalidActions: number;
  /**
   * Actions the agent planned with its action model (look-ahead before a
   * skill's action, the last-resort search), not sent by a skill's node.
   */
  plannedActions: number;
  /** Interpreter node evaluations. */
  steps: number;
  failures: AgentFailure[];
  /** Why the run stopped. */
  stop: string;
}

/** One event of an agent run. `level` is the regression depth (0: template steps). */
export type AgentEvent =
  | {
    type: "task";
    taskId: string;
    goal: string;
    observation: string;
    taskType?: string;
    facts: number;
  }
  | {
    type: "plan";
    template: string;
    matchedBy: Plan["matchedBy"];
    sequence: number;
    calls: SkillCall[];
    /** The task program followed instead of `calls`, by name. */
    program?: string;
  }
  /** A think step of the task program (a binding, a check, a loop step). */
  | { type: "decide"; node: string; text: string }
  | { type: "skip"; level: number; skill: string; args: Record<string, Value>; condition: string }
  | {
    type: "call";
    level: number;
    skill: string;
    args: Record<string, Value>;
    reason: "template" | "subgoal" | "retry" | "route";
    /** The task program's node that made the call, when one did. */
    node?: string;
    /** On a retry: the nodes whose rejection is tolerated, with their objects. */
    tolerate?: string;
    /** On a retry: values select_one no longer chooses (they were in rejected actions). */
    avoid?: string[];
  }
  | { type: "run"; level: number; event: RunEvent }
  | {
    type: "verify";
    level: number;
    skill: string;
    args: Record<string, Value>;
    outcome: "success" | "failure";
    post?: string;
    condition?: string;
    holds: boolean;
    error?: string;
  }
  | ({ type: "regress"; level: number; skill: string } & Subgoal)
  | {
    type: "recover";
    level: number;
    skill: string;
    recovered: boolean;
    actions: number;
    holds: boolean;
    condition?: string;
  }
  | {
    /** Primitive actions tried as the last resort, and whether the postcondition then held. */
    type: "fallback";
    level: number;
    skill: string;
    plan: string[];
    holds: boolean;
  }
  /** Facts a knowledge source offered, assumed for a retry of the call. */
  | { type: "assume"; level: number; skill: string; source: string; facts: string[] }
  /** Assumed facts taken back: the retry failed too. */
  | { type: "retract"; level: number; skill: string; facts: string[] }
  /** A step the router chose (no template fits), and what came of it. */
  | { type: "route"; step: RouteStep }
  | { type: "stop"; success: boolean; reason: string };
