/**
 * What one episode of the agent shares between its parts: the options, the
 * environment and grounder, the belief state, the planner, the limits and
 * the tally of what was spent (see `budget` and `send`).
 *
 * @module
 */
import { matchAction } from "../../dsl/action.ts";
import { assertVocabulary } from "../../dsl/vocabulary.ts";
import { ActionModel } from "../learn/action_model.ts";
import { ActionMemory } from "./action_memory.ts";
import { objectArgs } from "./_agent_util.ts";
import { RefusalReasons } from "./refusal_reasons.ts";
import { StandIns } from "./stand_ins.ts";
import { ChoiceLookahead } from "./choice_lookahead.ts";
import { UnseenActions } from "./unseen_actions.ts";
import type { AgentFailure, AgentOptions, AgentResult } from "./agent_types.ts";
import type { OnlineGrounder, ResetResult } from "../environment.ts";
import { FactStore } from "../fact_store.ts";
import { lookaheadPlan } from "../learn/lookahead.ts";
import { Planner } from "../plan/planner.ts";

/** What the episode has spent and how it stands. */
export interface Tally {
  actions: number;
  skillCalls: number;
  invalid: number;
  /** Actions look-ahead or the fallback search chose (not a skill's own node). */
  planned: number;
  steps: number;
  done: boolean;
  reward: number;
  failures: AgentFailure[];
  /** Why a run was cut short by the budget, when one was. */
  budget?: string;
}

/** The limits of an episode. */
export interface Limits {
  maxSkillCalls: number;
  maxActions: number;
  maxRetries: number;
  maxPasses: number;
}

/** One episode's shared state. */
export interface AgentContext {
  options: AgentOptions;
  limits: Limits;
  planner: Planner;
  grounder: OnlineGrounder;
  facts: FactStore;
  reset: ResetResult;
  tally: Tally;
  /** Whether world-model look-ahead can help (decided on first use). */
  canLookAhead(): boolean;
  /** Look-ahead before a skill's action, when the action model allows it. */
  lookahead?: (facts: FactStore, action: string) => string[] | undefined;
  /** The (state, action) pairs sent so far: what is refused as stuck. */
  memory: ActionMemory;
  /**
   * Expansions left to the episode's fallback searches with assumed rules
   * (see `achieve.ts`): a failed call may come back many times, and each
   * search with guessed rules on a large state costs much.
   */
  assumedSearch: { nodes: number };
  /** Actions to try in place of a rejected one (with a learned action model). */
  standIns?: StandIns;
  /** What the environment's refusals ruled out (with a learned action model). */
  refusals?: RefusalReasons;
  /** Free choices looked ahead in the action model (with look-ahead allowed). */
  choices?: ChoiceLookahead;
  /**
   * What the episode learns of the actions the model knows no effect of
   * (with a learned action model and look-ahead allowed).
   */
  unseen?: UnseenActions;
  /**
   * Whether the calls under way are to give up at once (set while the
   * agenda runs: see `agenda` in `plans.ts`).
   */
  halt?: () => boolean;
}

/** Expansions of an episode's fallback searches with assumed rules (a full search and a half). */
const ASSUMED_SEARCH_NODES = 300;

/**
 * Resets the environment, grounds the first observation and sets up the
 * episode.
 */
export async function startEpisode(options: AgentOptions): Promise<AgentContext> {
  assertVocabulary(options.kit.vocabulary);
  const grounder = options.kit.grounder();
  const reset = await options.env.reset(options.task);
  const facts = new FactStore();
  facts.apply((await grounder.initial(reset.observation, reset.goal)).delta);
  // World-model look-ahead needs an action model that knows some
  // preconditions (one learned from demonstrations alone knows none);
  // decided on first use, so episodes that never need it pay nothing.
  const model = options.actionModel;
  let knowsRules: boolean | undefined;
  const canLookAhead = (): boolean =>
    knowsRules ??= model instanceof ActionModel && options.lookahead !== false &&
      model.schemas().some((s) => s.pre.length > 0);
  return {
    options,
    limits: {
      maxSkillCalls: options.maxSkillCalls ?? 60,
      maxActions: options.maxActions ?? 150,
      maxRetries: options.maxRetries ?? 8,
      maxPasses: options.maxPasses ?? 3,
    },
    planner: new Planner(options.library, options.templates, { maxDepth: options.maxDepth }),
    grounder,
    facts,
    reset,
    tally: {
      actions: 0,
      skillCalls: 0,
      invalid: 0,
      planned: 0,
      steps: 0,
      done: false,
      reward: 0,
      failures: [],
    },
    canLookAhead,
    memory: new ActionMemory(),
    assumedSearch: { nodes: ASSUMED_SEARCH_NODES },
    ...(model instanceof ActionModel
      ? { standIns: new StandIns(model), refusals: new RefusalReasons(model) }
      : {}),
    ...(model instanceof ActionModel && options.lookahead !== false
      ? {
        choices: new ChoiceLookahead(model, options.kit.vocabulary),
        unseen: new UnseenActions(model),
      }
      : {}),
    ...(model instanceof ActionModel
      ? {
        lookahead: (f: FactStore, action: string) =>
          canLookAhead() ? lookaheadPlan(model, f, action) : undefined,
      }
      : {}),
  };
}

/**
 * The action budget, in words, when it is spent; `undefined` while it
 * lasts. Look-ahead toward the goal sends actions, not skill calls: it
 * still has its turn after skills spent their calls going round (a
 * regression sending what the state refuses).
 */
export function actionsSpent(ctx: AgentContext): string | undefined {
  const { tally, limits } = ctx;
  return tally.actions >= limits.maxActions
    ? `Action budget of ${limits.maxActions} spent`
    : undefined;
}

/** Which budget is spent, in words; `undefined` while both last. */
export function spent(ctx: AgentContext): string | undefined {
  const { tally, limits } = ctx;
  if (tally.skillCalls >= limits.maxSkillCalls) {
    return `Skill call budget of ${limits.maxSkillCalls} spent`;
  }
  return actionsSpent(ctx);
}

/**
 * Sends one action the agent chose itself (not a skill's node), grounds its
 * observation and counts it; an action the memory refuses as stuck is not
 * sent and comes back rejected with the reason.
 *
 * An action of one the model knew no effect of is recorded for
 * `ctx.unseen` (see `unseen_actions.ts`).
 *
 * @returns The observation, the grounder's rejection, if any, and whether
 *   the grounded state changed.
 */
export async function send(
  ctx: AgentContext,
  action: string,
  planned: boolean,
): Promise<{ observation: string; rejected?: string; changed?: boolean }> {
  const { tally } = ctx;
  const key = ActionMemory.stateKey(ctx.facts);
  const recalled = ctx.memory.recall(key, action);
  if (recalled) return recalled;
  // A planned action is a course searched from here, not the skills going round.
  const refused = ctx.memory.refusal(key, action, { planned });
  if (refused !== undefined) return { observation: "", rejected: refused };
  const name = ctx.unseen && matchAction(ctx.options.kit.vocabulary, action)?.action;
  const before = name && ctx.unseen!.unseen.has(name) ? ctx.facts.clone() : undefined;
  const step = await ctx.options.env.step(action);
  tally.actions++;
  if (planned) tally.planned++;
  const g = await ctx.grounder.step(ctx.facts, action, step.observation);
  if (before) {
    ctx.unseen!.record(
      { facts: before, action, ok: g.rejected === undefined, delta: g.delta },
      name!,
    );
  }
  ctx.facts.apply(g.delta);
  if (step.done) {
    tally.done = true;
    tally.reward = step.reward;
  }
  if (g.rejected !== undefined) {
    tally.invalid++;
    ctx.unseen?.rejected(ctx.facts, action);
    ctx.refusals?.record(ctx.facts, action, {
      observation: step.observation,
      rejected: g.rejected,
    });
  }
  ctx.memory.record(
    key,
    action,
    g.rejected !== undefined ? { observation: step.observation, rejected: g.rejected } : undefined,
    g.delta,
    objectArgs(action, ctx.options.kit.vocabulary),
    planned,
  );
  return {
    observation: step.observation,
    ...(g.rejected !== undefined ? { rejected: g.rejected } : {}),
    changed: g.delta.add.length + g.delta.remove.length > 0,
  };
}

/** The result of the episode, stopped for `reason`. */
export function finish(ctx: AgentContext, reason: string): AgentResult {
  const { tally } = ctx;
  return {
    success: tally.done && tally.reward > 0,
    reward: tally.reward,
    actions: tally.actions,
    skillCalls: tally.skillCalls,
    invalidActions: tally.invalid,
    plannedActions: tally.planned,
    steps: tally.steps,
    failures: tally.failures,
    stop: reason,
  };
}

/** Why the episode ended, when the environment ended it. */
export function endedBecause(tally: Tally): string {
  return tally.reward > 0
    ? `The environment reports success (reward ${tally.reward})`
    : "The environment ended the episode without reward";
}
