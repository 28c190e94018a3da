/**
 * The interpreter's driver: a thin async loop around the pure
 * {@linkcode step}. It sends actions to the environment, grounds each
 * observation into the fact store, runs called skills, and reports
 * everything as a stream of events, so tracing, progress display and replay
 * share one code path.
 *
 * @module
 */
import type { FactDelta, FactView, Value } from "../../dsl/facts.ts";
import { formatLiteral } from "../../dsl/facts.ts";
import type { Environment, Grounding, OnlineGrounder } from "../environment.ts";
import type { FactStore } from "../fact_store.ts";
import type { Program } from "./program.ts";
import { checkArgs } from "./args.ts";
import {
  type Budgets,
  type Choice,
  type Diagnosis,
  type EndOutcome,
  initialState,
  otherChoice,
  resume,
  type RunState,
  step,
  type StepContext,
  type StepOutcome,
} from "./step.ts";

/** One event of a run. `depth` is 0 for the outermost skill. */
export type RunEvent =
  | { type: "start"; skill: string; depth: number; args: Record<string, Value> }
  | { type: "think"; skill: string; depth: number; node: string; text: string }
  | {
    type: "act";
    skill: string;
    depth: number;
    node: string;
    action: string;
    /** Sent by look-ahead to make the node's own action possible, not by the node. */
    lookahead?: true;
    /** Sent in place of this action of the node, which the environment rejected. */
    standsFor?: string;
    /**
     * Not sent: the environment rejected it in this same state before, and
     * its answer is recalled (see `InterpreterContext.recall`).
     */
    recalled?: true;
  }
  | {
    type: "observe";
    skill: string;
    depth: number;
    node: string;
    action: string;
    observation: string;
    reward: number;
    done: boolean;
    delta: FactDelta;
    rejected?: string;
    unknown?: string[];
    /** The answer was recalled, not received (the action was not sent). */
    recalled?: true;
  }
  | {
    type: "end";
    skill: string;
    depth: number;
    node: string;
    outcome: "success" | "failure";
    diagnosis?: Diagnosis;
    steps: number;
    actions: number;
  };

/** The result of a run. */
export interface RunResult {
  outcome: "success" | "failure";
  diagnosis?: Diagnosis;
  /** Node evaluations, called skills included. */
  steps: number;
  /** Environment actions sent, called skills included. */
  actions: number;
  /** The environment ended the episode during the run. */
  episodeDone: boolean;
  /** The last reward received. */
  reward: number;
}

/** Skills a program may call, by name. */
export interface SkillResolver {
  get(name: string): Program | undefined;
}

/** What a run needs. */
export interface RunContext {
  env: Environment;
  grounder: OnlineGrounder;
  /** The belief state; updated in place as observations arrive. */
  facts: FactStore;
  /** Skills that primitive nodes may call. */
  library?: SkillResolver;
  budgets?: Partial<Budgets>;
  /** Deepest allowed nesting of skill calls. @default 8 */
  maxDepth?: number;
  /**
   * A learned action model: a rejection's diagnosis names the preconditions
   * it knows to be unmet, and with `blockDoomed` an action it predicts to be
   * rejected is not sent at all (it counts as rejected, without a step).
   */
  actionModel?: {
    unmet(facts: FactStore, action: string): string[];
    satisfied?(facts: FactStore, action: string): boolean;
    predict?(facts: FactView, action: string): FactDelta | undefined;
  };
  /**
   * World-model look-ahead: a plan that makes an action's unmet
   * preconditions hold (see `lookahead.ts`). When the action model predicts
   * an action to be rejected, the plan is sent first, then the action.
   */
  lookahead?: (facts: FactStore, action: string) => string[] | undefined;
  /** Do not send actions the action model predicts to be rejected. @default false */
  blockDoomed?: boolean;
  /**
   * The environment's answer to an action it rejected in this same state
   * before (a deterministic world answers the same): the action is not
   * sent again and the run goes on as if that answer had come.
   */
  recall?: (
    facts: FactStore,
    action: string,
  ) => { observation: string; rejected: string } | undefined;
  /**
   * Actions to try in place of one the environment rejected, in order. One
   * it accepts stands for the rejected one when the effects the action model
   * predicted for the rejected action then hold (or it predicted none); one
   * that does something else is reported as a misfit and the next is tried.
   */
  standIns?: {
    for(action: string): string[];
    misfit(action: string, other: string): void;
  };
  /**
   * Why the driver will not send `action` in this state (it was sent from
   * this same state before: the run goes round a cycle), or `undefined`.
   * At a node with a `failed` edge the run takes another choice or follows
   * that edge instead of sending it; elsewhere the action is yielded and
   * the driver refuses it.
   */
  refuse?: (facts: FactStore, action: string) => string | undefined;
  /**
   * Why the driver would rather not send `action` (it foresees a cycle), or
   * `undefined`. Where the node has a `failed` edge the run takes another
   * choice or that edge, as for a refusal; if the run then ends in failure
   * before sending anything, it goes back and sends the action after all
   * (the way out of a dead end may lead back through a state left before).
   */
  avoid?: (facts: FactStore, action: string) => string | undefined;
  /**
   * Do not send an action whose learned effects all hold already (going
   * where the agent is): it counts as done; the same action is sent when it
   * comes again in the same state (a chance outcome the effects do not
   * state: a flip that showed tails). Needs `actionModel.satisfied`.
   * @default false
   */
  skipSatisfied?: boolean;
  choose?: StepContext["choose"];
  /** Picks the next element of a loop (the order of an unordered loop is free). */
  chooseNext?: StepContext["chooseNext"];
}

/**
 * Runs a skill with arguments against an environment, yielding events and
 * returning the result. The environment must already be reset and the fact
 * store initialised from its first observation.
 *
 * @example Usage
 * ```ts ignore
 * const run = runSkill(program, { target: "stick" }, { env, grounder, facts });
 * for (let r = await run.next(); ; r = await run.next()) {
 *   if (r.done) { console.log(r.value.outcome); break; }
 *   console.log(r.value.type);
 * }
 * ```
 */
export async function* runSkill(
  program: Program,
  args: Record<string, Value>,
  ctx: RunContext,
  depth = 0,
  callers: readonly string[] = [],
): AsyncGenerator<RunEvent, RunResult> {
  const skill = program.skill.name;
  // This call, as its callers' calls are kept: a call of one of them again is a cycle.
  const active = [...callers, callKeyOf(skill, args)];
  const argErrors = checkArgs(program.skill.params, args, program.vocab);
  let state: RunState = initialState(program, args);
  // Actions skipped as no-ops, by state: skipped again in the same state, the skill is
  // going round (its effects were not all the model knows, a chance outcome): send it.
  const skipped = new Set<string>();
  // The first action avoided since the last one sent: sent after all if nothing else is.
  let avoided: Extract<StepOutcome, { kind: "act" }> | undefined;
  let sendAvoided = false;
  yield { type: "start", skill, depth, args };
  if (argErrors.length > 0) {
    return yield* finish(
      skill,
      depth,
      {
        kind: "end",
        node: program.skill.entry,
        outcome: "failure",
        diagnosis: { node: program.skill.entry, message: argErrors.join("; ") },
        state,
      },
      0,
      0,
      false,
      0,
    );
  }
  let actions = 0;
  let extraSteps = 0;
  let reward = 0;
  const stepCtx: StepContext = {
    facts: ctx.facts,
    budgets: ctx.budgets,
    choose: ctx.choose,
    ...(ctx.chooseNext ? { chooseNext: ctx.chooseNext } : {}),
  };
  const next = (r: ReturnType<typeof resume>): StepOutcome =>
    r.kind === "continue" ? step(program, r.state, stepCtx) : r;
  const observed = (
    node: string,
    action: string,
    result: { observation: string; reward: number; done: boolean },
    grounding: Grounding,
  ): RunEvent => ({
    type: "observe",
    skill,
    depth,
    node,
    action,
    observation: result.observation,
    reward: result.reward,
    done: result.done,
    delta: grounding.delta,
    ...(grounding.rejected !== undefined ? { rejected: grounding.rejected } : {}),
    ...(grounding.unknown?.length ? { unknown: grounding.unknown } : {}),
  });
  /** Sends an action, grounds its observation into the facts, and builds its event. */
  const send = async (node: string, action: string) => {
    const result = await ctx.env.step(action);
    actions++;
    avoided = undefined;
    reward = result.reward;
    const grounding = await ctx.grounder.step(ctx.facts, action, result.observation);
    ctx.facts.apply(grounding.delta);
    return { result, grounding, event: observed(node, action, result, grounding) };
  };
  /** The end when the environment ended the episode at `at`'s action. */
  const ended = (at: { node: string; state: RunState }, reward: number): EndOutcome =>
    reward > 0 ? { kind: "end", node: at.node, outcome: "success", state: at.state } : {
      kind: "end",
      node: at.node,
      outcome: "failure",
      diagnosis: { node: at.node, message: "The environment ended the episode" },
      state: at.state,
    };
  /**
   * Sends stand-ins for the rejected `action` until one does what `action`
   * was meant to; `undefined` when the environment accepted none.
   */
  async function* standIn(
    node: string,
    action: string,
  ): AsyncGenerator<
    RunEvent,
    { done: boolean; answer: Parameters<typeof resume>[2] } | undefined
  > {
    const meant = ctx.actionModel?.predict?.(ctx.facts, action);
    let accepted: string | undefined;
    for (const other of ctx.standIns?.for(action) ?? []) {
      if (ctx.recall?.(ctx.facts, other)) continue;
      yield { type: "act", skill, depth, node, action: other, standsFor: action };
      const sent = await send(node, other);
      yield sent.event;
      if (sent.result.done) return { done: true, answer: { ok: true } };
      if (sent.grounding.rejected !== undefined) continue;
      const did = meant === undefined ||
        (meant.add.every((a) => ctx.facts.has(a)) && meant.remove.every((a) => !ctx.facts.has(a)));
      if (did) return { done: false, answer: { ok: true } };
      ctx.standIns!.misfit(action, other);
      accepted = other;
    }
    if (accepted === undefined) return undefined;
    return {
      done: false,
      answer: {
        ok: false,
        reason: `"${accepted}", accepted in place of it, did not do what it was meant to`,
        action,
      },
    };
  }
  const anotherChoice = (node: string, why: string, choice: Choice): RunEvent => ({
    type: "think",
    skill,
    depth,
    node,
    text: `${why}: another choice at "${choice.node}" than ${
      choice.tried.map(formatLiteral).join(", ")
    }`,
  });
  let outcome: StepOutcome = step(program, state, stepCtx);
  while (true) {
    switch (outcome.kind) {
      case "end":
        if (avoided && outcome.outcome === "failure") {
          yield {
            type: "think",
            skill,
            depth,
            node: avoided.node,
            text: `No other way: sending "${avoided.action}" after all`,
          };
          outcome = avoided;
          avoided = undefined;
          sendAvoided = true;
          break;
        }
        return yield* finish(skill, depth, outcome, extraSteps, actions, false, reward);
      case "think":
        yield { type: "think", skill, depth, node: outcome.node, text: outcome.text };
        state = outcome.state;
        outcome = step(program, state, stepCtx);
        break;
      case "act": {
        state = outcome.state;
        const action = outcome.action;
        const skipKey = ctx.skipSatisfied && ctx.actionModel?.satisfied?.(ctx.facts, action)
          ? `${ctx.facts.fingerprint()}\u0000${action}`
          : undefined;
        if (skipKey !== undefined && !skipped.has(skipKey)) {
          skipped.add(skipKey);
          yield {
            type: "think",
            skill,
            depth,
            node: outcome.node,
            text: `skip "${action}": its effects already hold`,
          };
          // Skipping is no progress: the think budgets keep counting (a loop of skips ends).
          outcome = next(resume(program, outcome.unsent, { ok: true }));
          break;
        }
        let unmet = ctx.actionModel?.unmet(ctx.facts, action) ?? [];
        if (unmet.length > 0 && ctx.lookahead) {
          for (const pre of ctx.lookahead(ctx.facts, action) ?? []) {
            yield { type: "act", skill, depth, node: outcome.node, action: pre, lookahead: true };
            const sent = await send(outcome.node, pre);
            yield sent.event;
            if (sent.result.done) {
              const end = ended(outcome, reward);
              return yield* finish(skill, depth, end, extraSteps, actions, true, reward);
            }
            if (sent.grounding.rejected !== undefined) break;
          }
          unmet = ctx.actionModel?.unmet(ctx.facts, action) ?? [];
        }
        // Why the environment rejected the action, sent now or recalled from before.
        let rejected: string | undefined;
        let done = false;
        const recalled = ctx.recall?.(ctx.facts, action);
        if (recalled) {
          yield { type: "act", skill, depth, node: outcome.node, action, recalled: true };
          yield {
            type: "observe",
            skill,
            depth,
            node: outcome.node,
            action,
            observation: recalled.observation,
            reward: 0,
            done: false,
            delta: { add: [], remove: [] },
            rejected: recalled.rejected,
            recalled: true,
          };
          rejected = recalled.rejected;
        } else {
          const hasFailed = program.out.get(outcome.node)?.failed !== undefined;
          let refused = hasFailed ? ctx.refuse?.(ctx.facts, action) : undefined;
          if (refused === undefined && hasFailed && !sendAvoided) {
            refused = ctx.avoid?.(ctx.facts, action);
            if (refused !== undefined) avoided ??= outcome;
          }
          sendAvoided = false;
          if (refused !== undefined) {
            // Not sent: another object where the run chose one, else the failed edge.
            const other = otherChoice(program, outcome.unsent, ctx.facts);
            if (other !== undefined) {
              yield anotherChoice(outcome.node, `Refused: ${refused}`, other.choice);
              outcome = next(other);
              break;
            }
            yield {
              type: "think",
              skill,
              depth,
              node: outcome.node,
              text: `Refused: ${refused}`,
            };
            outcome = next(resume(program, outcome.unsent, { ok: false, reason: refused, action }));
            break;
          }
          yield { type: "act", skill, depth, node: outcome.node, action };
          if (ctx.blockDoomed && unmet.length > 0) {
            outcome = next(resume(program, state, {
              ok: false,
              reason: `not sent: the action model predicts it fails (unmet: ${unmet.join(", ")})`,
              action,
            }));
            break;
          }
          const { result, grounding, event } = await send(outcome.node, action);
          yield event;
          done = result.done;
          if (grounding.rejected !== undefined) {
            rejected = unmet.length > 0
              ? `${grounding.rejected} (unmet: ${unmet.join(", ")})`
              : grounding.rejected;
          }
        }
        const stood = rejected !== undefined && !done
          ? yield* standIn(outcome.node, action)
          : undefined;
        if (done || stood?.done) {
          const end = ended(outcome, reward);
          return yield* finish(skill, depth, end, extraSteps, actions, true, reward);
        }
        outcome = next(
          resume(
            program,
            state,
            rejected === undefined ? { ok: true } : stood?.answer ?? {
              ok: false,
              reason: rejected,
              action,
            },
          ),
        );
        break;
      }
      case "call": {
        state = outcome.state;
        const callee = ctx.library?.get(outcome.skill);
        const maxDepth = ctx.maxDepth ?? 8;
        // The same call being achieved further up would recurse until a budget is spent.
        const cycle = active.includes(callKeyOf(outcome.skill, outcome.args));
        const message = !callee
          ? `Unknown skill "${outcome.skill}"`
          : depth + 1 > maxDepth
          ? `Skill call depth ${maxDepth} exceeded calling "${outcome.skill}"`
          : cycle
          ? `Cycle: ${outcome.skill}(${
            Object.entries(outcome.args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")
          }) is already being achieved by a caller`
          : undefined;
        // Another way: another object where the skill chose one since it last acted.
        const other = cycle ? otherChoice(program, outcome.unsent, ctx.facts) : undefined;
        if (other !== undefined) {
          yield anotherChoice(outcome.node, message!, other.choice);
          outcome = next(other);
          break;
        }
        if (!callee || message !== undefined) {
          return yield* finish(
            skill,
            depth,
            {
              kind: "end",
              node: outcome.node,
              outcome: "failure",
              diagnosis: { node: outcome.node, message: message! },
              state,
            },
            extraSteps,
            actions,
            false,
            reward,
          );
        }
        const sub = yield* runSkill(callee, outcome.args, ctx, depth + 1, active);
        actions += sub.actions;
        extraSteps += sub.steps;
        reward = sub.reward;
        if (sub.episodeDone) {
          const end: StepOutcome = {
            kind: "end",
            node: outcome.node,
            outcome: sub.outcome,
            ...(sub.diagnosis ? { diagnosis: sub.diagnosis } : {}),
            state,
          };
          return yield* finish(skill, depth, end, extraSteps, actions, true, reward);
        }
        const reason = sub.diagnosis
          ? `${sub.diagnosis.message}${
            sub.diagnosis.condition ? ` (${sub.diagnosis.condition})` : ""
          }`
          : "failed";
        // A call that failed without acting left the world as it was: where
        // the skill chose an object for it, another may lead elsewhere.
        const retry = sub.outcome === "failure" && sub.actions === 0 &&
            program.out.get(outcome.node)?.failed === undefined
          ? otherChoice(program, outcome.unsent, ctx.facts)
          : undefined;
        if (retry !== undefined) {
          yield anotherChoice(outcome.node, `${outcome.skill} failed: ${reason}`, retry.choice);
          outcome = next(retry);
          break;
        }
        outcome = next(
          resume(
            program,
            state,
            sub.outcome === "success" ? { ok: true } : {
              ok: false,
              reason: `skill "${outcome.skill}" failed at node "${sub.diagnosis?.node}": ${reason}`,
              action: `${outcome.skill}(${JSON.stringify(outcome.args)})`,
            },
          ),
        );
        break;
      }
    }
  }
}

async function* finish(
  skill: string,
  depth: number,
  end: Extract<StepOutcome, { kind: "end" }>,
  extraSteps: number,
  actions: number,
  episodeDone: boolean,
  reward: number,
): AsyncGenerator<RunEvent, RunResult> {
  const steps = end.state.steps + extraSteps;
  yield {
    type: "end",
    skill,
    depth,
    node: end.node,
    outcome: end.outcome,
    ...(end.diagnosis ? { diagnosis: end.diagnosis } : {}),
    steps,
    actions,
  };
  return {
    outcome: end.outcome,
    ...(end.diagnosis ? { diagnosis: end.diagnosis } : {}),
    steps,
    actions,
    episodeDone,
    reward,
  };
}

/**
 * Drains a run, returning its events and result.
 *
 * @example Usage
 * ```ts ignore
 * const { events, result } = await collectRun(runSkill(program, args, ctx));
 * ```
 */
export async function collectRun(
  run: AsyncGenerator<RunEvent, RunResult>,
  onEvent?: (event: RunEvent) => void,
): Promise<{ events: RunEvent[]; result: RunResult }> {
  const events: RunEvent[] = [];
  while (true) {
    const r = await run.next();
    if (r.done) return { events, result: r.value };
    events.push(r.value);
    onEvent?.(r.value);
  }
}

/** A call's identity: the skill and its arguments. */
function callKeyOf(skill: string, args: Readonly<Record<string, Value>>): string {
  return `${skill}(${JSON.stringify(Object.entries(args).sort(([a], [b]) => a < b ? -1 : 1))})`;
}
