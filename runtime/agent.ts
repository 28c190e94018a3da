/**
 * The agent: solves one task with a skill library (DESIGN section 6).
 *
 * It resets the environment, grounds the first observation, takes the plan
 * of the task's template (see `planner.ts`) and achieves each step in turn:
 *
 * 1. a step whose postcondition already holds is skipped;
 * 2. the skill runs in the interpreter, whose events are forwarded;
 * 3. its postcondition is verified against the facts: a skill that ends in
 *    success with its postcondition false counts as failed;
 * 4. a failed call is regressed (see `regression.ts`): subgoals that
 *    produce what the failure named are achieved first (recursively, up to
 *    a depth limit) and the call is retried. A producer of a quantity is
 *    called again while a dry run shows the retry would still start with
 *    the rejected action, asking for less. When a subgoal produced a
 *    substitute (an object related to the one a rejected action asked
 *    for), or the retry asks again for an object a subgoal produced, the
 *    next retry tolerates that action's rejection and continues past it
 *    (see `tolerate.ts`);
 * 5. `select_one` is an existential choice: among several candidates the
 *    agent prefers one related to the objects of the last action, and
 *    after a rejected action whose object was such a choice, the call is
 *    retried without choosing it again;
 * 6. if none of this helps, the `onFailure` hook (reflective planning) may
 *    act; when it reports recovery and the postcondition holds, the plan
 *    continues.
 *
 * The run stops when the environment ends the episode (success when the
 * reward is positive), when a step cannot be achieved, or when the skill
 * call or action budget is spent.
 *
 * @module
 */
import { type Atom, type FactView, formatAtom, type Value } from "../dsl/facts.ts";
import { assertVocabulary } from "../dsl/vocabulary.ts";
import {
  describeTolerated,
  factsAbout,
  failedInnerCall,
  failureOf,
  objectArgs,
  ownRejectedAction,
  rejectedAction,
  rejectedActionFor,
  rejectedNodeFor,
  rejectedObjects,
  relatedTo,
  undone,
} from "./_agent_util.ts";
import type { AgentEvent, AgentFailure, AgentOptions, AgentResult } from "./agent_types.ts";
import { ActionModel } from "./action_model.ts";
import { FactStore } from "./fact_store.ts";
import { lookaheadPlan, lookaheadTo } from "./lookahead.ts";
import { pendingLandmarkCalls } from "./landmark_agenda.ts";
import { formatCall } from "./format_agent_events.ts";
import { type RunEvent, type RunResult, runSkill } from "./interpreter.ts";
import { checkPostcondition, postconditionAtoms } from "./postcondition.ts";
import { findPrimitivePlan } from "./primitive_fallback.ts";
import type { Program } from "./program.ts";
import { callKey, Planner, type SkillCall } from "./planner.ts";
import type { RouteStep } from "./router.ts";
import {
  firstAction,
  firstStep,
  postconditionStatesQuantity as statesQuantity,
  sameActionOnObjects,
  type Subgoal,
} from "./regression.ts";
import { tolerateRejection } from "./tolerate.ts";
import { initialState, resume, step } from "./step.ts";
import { withValueDomains } from "./value_domains.ts";

export type {
  AgentEvent,
  AgentFailure,
  AgentKit,
  AgentOptions,
  AgentResult,
  RecoveryOutcome,
  SkillFailure,
} from "./agent_types.ts";

/** A run of one program within the agent. */
interface Execution {
  result: RunResult;
  events: RunEvent[];
  /** Stopped by the action budget. */
  budget: boolean;
  /** Values a select_one chose among several candidates. */
  contested: ReadonlySet<Value>;
}

interface Tally {
  actions: number;
  skillCalls: number;
  invalid: number;
  /** Actions look-ahead or the fallback search chose (not a skill's own node). */
  planned: number;
  steps: number;
  done: boolean;
  reward: number;
  failures: AgentFailure[];
  budget?: string;
}

/**
 * Runs the agent on one task, yielding events and returning the result.
 *
 * @example Usage
 * ```ts ignore
 * const run = runAgent({ env, kit: textcraftKit, library, templates, task: { seed: 3, options: { depth: 3 } } });
 * for (let r = await run.next(); ; r = await run.next()) {
 *   if (r.done) { console.log(r.value.success, r.value.actions); break; }
 *   if (r.value.type === "call") console.log(r.value.skill, r.value.args);
 * }
 * ```
 */
export async function* runAgent(options: AgentOptions): AsyncGenerator<AgentEvent, AgentResult> {
  const { env, library } = options;
  assertVocabulary(options.kit.vocabulary);
  const maxSkillCalls = options.maxSkillCalls ?? 60;
  const maxActions = options.maxActions ?? 150;
  const maxRetries = options.maxRetries ?? 8;
  const planner = new Planner(library, options.templates, { maxDepth: options.maxDepth });
  const grounder = options.kit.grounder();
  const reset = await env.reset(options.task);
  const facts = new FactStore();
  facts.apply((await grounder.initial(reset.observation, reset.goal)).delta);
  const tally: Tally = {
    actions: 0,
    skillCalls: 0,
    invalid: 0,
    planned: 0,
    steps: 0,
    done: false,
    reward: 0,
    failures: [],
  };
  const finish = (reason: string): AgentResult => ({
    success: tally.done && tally.reward > 0,
    reward: tally.reward,
    actions: tally.actions,
    skillCalls: tally.skillCalls,
    invalidActions: tally.invalid,
    plannedActions: tally.planned,
    steps: tally.steps,
    failures: tally.failures,
    stop: reason,
  });
  yield {
    type: "task",
    taskId: reset.taskId,
    goal: reset.goal,
    observation: reset.observation,
    ...(reset.taskType !== undefined ? { taskType: reset.taskType } : {}),
    facts: facts.size,
  };

  const spent = (): string | undefined => {
    if (tally.skillCalls >= maxSkillCalls) return `Skill call budget of ${maxSkillCalls} spent`;
    if (tally.actions >= maxActions) return `Action budget of ${maxActions} spent`;
    return undefined;
  };

  const maxPasses = options.maxPasses ?? 3;
  // World-model look-ahead needs an action model that knows some
  // preconditions (one learned from demonstrations alone knows none);
  // decided on first use, so episodes that never need it pay nothing.
  const model = options.actionModel;
  let knowsRules: boolean | undefined;
  const canLookAhead = (): boolean =>
    knowsRules ??= model instanceof ActionModel && options.lookahead !== false &&
      model.schemas().some((s) => s.pre.length > 0);
  const lookahead = model instanceof ActionModel
    ? (f: FactStore, action: string) => canLookAhead() ? lookaheadPlan(model, f, action) : undefined
    : undefined;

  /** Runs one program, forwarding its events; stops before an action over the budget. */
  async function* execute(
    program: Program,
    args: Record<string, Value>,
    level: number,
    avoid: ReadonlySet<string>,
  ): AsyncGenerator<AgentEvent, Execution> {
    const events: RunEvent[] = [];
    const contested = new Set<Value>();
    let focus: string[] = [];
    let before: FactStore | undefined;
    const run = runSkill(program, args, {
      env,
      grounder,
      facts,
      library,
      ...(options.budgets ? { budgets: options.budgets } : {}),
      ...(options.actionModel ? { actionModel: options.actionModel, skipSatisfied: true } : {}),
      ...(lookahead ? { lookahead } : {}),
      // select_one is an existential choice: take a candidate not ruled out by an
      // earlier rejection, preferably one related to the objects just acted on, and
      // remember which values were chosen among several.
      choose: (candidates) => {
        if (candidates.length < 2) return candidates[0];
        const allowed = candidates.filter((c) => typeof c !== "string" || !avoid.has(c));
        const pool = allowed.length > 0 ? allowed : candidates;
        const pick = pool.find((c) => typeof c === "string" && relatedTo(facts, c, focus)) ??
          pool[0];
        contested.add(pick);
        return pick;
      },
      // The order of a loop is free: visit first the elements the facts link
      // to the call's arguments (a place known to be able to hold the item).
      chooseNext: (_loop, items, from) => {
        const linked = linkedValues(facts, args);
        for (let i = from; i < items.length; i++) {
          const v = items[i];
          if (typeof v === "string" && linked.has(v)) return i;
        }
        return from;
      },
    });
    while (true) {
      const r = await run.next();
      if (r.done) {
        tally.steps += r.value.steps;
        return { result: r.value, events, budget: false, contested };
      }
      const e = r.value;
      if (e.type === "act") focus = objectArgs(e.action, program.vocab);
      if (options.onTransition) {
        // The interpreter yields an action before sending it: the facts now are the state before.
        if (e.type === "act") before = facts.clone();
        else if (e.type === "observe" && before) {
          options.onTransition({
            facts: before,
            action: e.action,
            ok: e.rejected === undefined,
            ...(e.rejected === undefined ? { delta: e.delta } : {}),
          });
          before = undefined;
        }
      }
      if (e.type === "act") {
        if (tally.actions >= maxActions) {
          tally.budget = `Action budget of ${maxActions} spent`;
          const result: RunResult = {
            outcome: "failure",
            diagnosis: { node: e.node, message: `${tally.budget} before "${e.action}"` },
            steps: events.filter((x) => x.type === "think" || x.type === "act").length,
            actions: events.filter((x) => x.type === "observe").length,
            episodeDone: false,
            reward: tally.reward,
          };
          await run.return(result);
          tally.steps += result.steps;
          return { result, events, budget: true, contested };
        }
        tally.actions++;
        if (e.lookahead) tally.planned++;
      } else if (e.type === "observe") {
        if (e.rejected !== undefined) tally.invalid++;
        if (e.done) {
          tally.done = true;
          tally.reward = e.reward;
        }
      }
      events.push(e);
      yield { type: "run", level, event: e };
    }
  }

  /** Achieves one call: run, verify, regress and retry, then the hook. */
  async function* achieve(
    call: SkillCall,
    level: number,
    stack: readonly string[],
    reason: "template" | "subgoal" | "route",
  ): AsyncGenerator<AgentEvent, boolean> {
    const base = library.get(call.skill)!;
    const key = callKey(call);
    const failedSubgoals = new Set<string>();
    /** Values select_one must not choose again: they were in rejected actions. */
    const avoid = new Set<string>();
    let program = base;
    /** Per primitive node: the objects whose rejection the retries tolerate. */
    const tolerated = new Map<string, Set<string>>();
    /** Objects the subgoals of this call produced (or produced a substitute for). */
    const provided = new Map<string, { action: string; facts: string }>();
    const tolerate = (node: string, object: string): Program => {
      const objects = tolerated.get(node) ?? new Set<string>();
      objects.add(object);
      tolerated.set(node, objects);
      return tolerateRejection(base, new Map([...tolerated].map(([n, o]) => [n, [...o]])), library);
    };
    let retries = 0;
    let attempt: "template" | "subgoal" | "retry" | "route" = reason;
    /** Whether the knowledge source was asked, and the facts assumed from its answer. */
    let asked = false;
    let assumed: Atom[] = [];
    while (true) {
      const out = spent();
      if (out !== undefined) {
        tally.budget = out;
        return false;
      }
      tally.skillCalls++;
      yield {
        type: "call",
        level,
        skill: call.skill,
        args: call.args,
        reason: attempt,
        ...(tolerated.size > 0 ? { tolerate: describeTolerated(tolerated) } : {}),
        ...(avoid.size > 0 ? { avoid: [...avoid] } : {}),
      };
      const run = yield* execute(program, call.args, level, avoid);
      if (tally.done) return tally.reward > 0;
      const check = checkPostcondition(base, call.args, facts);
      yield {
        type: "verify",
        level,
        skill: call.skill,
        args: call.args,
        outcome: run.result.outcome,
        ...(check.post !== undefined ? { post: check.post } : {}),
        ...(check.condition !== undefined ? { condition: check.condition } : {}),
        holds: check.holds,
        ...(check.error !== undefined ? { error: check.error } : {}),
      };
      if (run.result.outcome === "success" && check.holds) return true;
      tally.failures.push(failureOf(call, level, run.result, run.budget, check.condition));
      if (run.budget) return false;

      // The retry asked again for an object a subgoal already provided: the skill
      // fetches it regardless of what is held, so its rejection is tolerated next time.
      if (retries < maxRetries) {
        const again = [...provided.keys()].find((o) => {
          // The same action again although the facts about its object changed: the
          // skill does not read them (were they unchanged, more would be needed).
          const before = provided.get(o)!;
          const last = rejectedActionFor(run.events, o, base.vocab);
          if (last !== before.action || factsAbout(facts, o) === before.facts) return false;
          const node = rejectedNodeFor(run.events.slice(-2), o, base.vocab);
          return node !== undefined && !tolerated.get(node)?.has(o);
        });
        if (again !== undefined) {
          const node = rejectedNodeFor(run.events, again, base.vocab)!;
          program = tolerate(node, again);
          retries++;
          attempt = "retry";
          continue;
        }
      }

      // A call the skill made failed: that call is achieved on its own first, with
      // all of this recovery, then the skill runs again.
      const inner = failedInnerCall(run.events);
      if (
        inner !== undefined && level < planner.maxDepth && retries < maxRetries &&
        library.get(inner.skill) !== undefined
      ) {
        const innerKey = callKey(inner);
        if (innerKey !== key && !stack.includes(innerKey) && !failedSubgoals.has(innerKey)) {
          const ok = yield* achieve(inner, level + 1, [...stack, key], "subgoal");
          if (tally.done) return tally.reward > 0;
          if (ok) {
            retries++;
            attempt = "retry";
            continue;
          }
          failedSubgoals.add(innerKey);
        }
      }

      if (level < planner.maxDepth && retries < maxRetries) {
        const subgoals = planner.regress(
          { program, args: call.args, result: run.result, events: run.events },
          facts,
          { exclude: new Set([...stack, key, ...failedSubgoals]) },
        );
        let achieved: Subgoal | undefined;
        let askedFor = { action: "", facts: "" };
        for (const sub of subgoals) {
          if (spent() !== undefined) break;
          askedFor = {
            action: rejectedActionFor(run.events, sub.object, base.vocab) ?? "",
            facts: factsAbout(facts, sub.object),
          };
          yield { type: "regress", level, skill: call.skill, ...sub };
          const before = tally.actions;
          const ok = yield* achieve(sub.call, level + 1, [...stack, key], "subgoal");
          if (tally.done) return tally.reward > 0;
          // A producer of "more" must have acted, or the retry would fail the same way.
          if (ok && (!sub.more || tally.actions > before)) {
            achieved = sub;
            break;
          }
          failedSubgoals.add(callKey(sub.call));
        }
        if (achieved) {
          provided.set(achieved.object, askedFor);
          // While the retry would start with the action that was rejected, on the same
          // objects but asking for less (the skill reads the quantity, and the gap
          // persists), a producer of a quantity is called again instead.
          let last = rejectedAction(run.events);
          let repeats = 0;
          while (
            achieved.via === "object" && last !== undefined &&
            statesQuantity(library.get(achieved.call.skill)!) &&
            repeats < maxRetries && spent() === undefined
          ) {
            const next = firstAction(program, call.args, facts);
            if (next === undefined || next === last) break;
            if (!sameActionOnObjects(base.vocab, next, last)) break;
            last = next;
            repeats++;
            const more = { ...achieved, more: true };
            yield { type: "regress", level, skill: call.skill, ...more };
            const before = tally.actions;
            const ok = yield* achieve(more.call, level + 1, [...stack, key], "subgoal");
            if (tally.done) return tally.reward > 0;
            if (!ok || tally.actions === before) break;
          }
          retries++;
          attempt = "retry";
          const node = rejectedNodeFor(run.events, achieved.object, base.vocab);
          if (achieved.via === "related" && node !== undefined) {
            program = tolerate(node, achieved.object);
          }
          continue;
        }
      }

      // A later step used up what an earlier one provided (the tool crafted
      // second consumed the ingot crafted first): when the skill would now start
      // by redoing a step whose effect is gone, it runs again.
      if (retries < maxRetries && ownRejectedAction(run.events) !== undefined) {
        const first = firstStep(program, call.args, facts);
        if (first !== undefined && undone(first, run.events, library, facts)) {
          retries++;
          attempt = "retry";
          continue;
        }
      }

      // Choose differently: an object of the rejected action was one of several candidates.
      if (retries < maxRetries) {
        const other = rejectedObjects(run.events, base.vocab).filter((o) =>
          run.contested.has(o) && !avoid.has(o)
        );
        if (other.length > 0) {
          for (const o of other) avoid.add(o);
          retries++;
          attempt = "retry";
          continue;
        }
      }

      // Background knowledge: the facts offered no way, so ask how and
      // assume the answer; the retry verifies it by acting, and a retry that
      // fails as well takes it back.
      if (assumed.length > 0) {
        facts.apply({ add: [], remove: assumed });
        yield { type: "retract", level, skill: call.skill, facts: assumed.map(formatAtom) };
        assumed = [];
      } else if (options.knowledge && !asked && retries < maxRetries) {
        asked = true;
        const answer = await options.knowledge.ask({
          goal: reset.goal,
          skill: call.skill,
          args: call.args,
          need: check.condition ?? check.post ?? call.skill,
          diagnosis: run.result.diagnosis?.message ?? "no diagnosis",
          objects: [
            ...new Set([
              ...Object.values(call.args).filter((v): v is string => typeof v === "string"),
              ...rejectedObjects(run.events, base.vocab),
            ]),
          ],
          facts,
        });
        assumed = answer?.add.filter((a) => !facts.has(a)) ?? [];
        if (answer && assumed.length > 0) {
          facts.apply({ add: assumed, remove: [], objects: answer.objects ?? {} });
          yield {
            type: "assume",
            level,
            skill: call.skill,
            source: answer.source,
            facts: assumed.map(formatAtom),
          };
          retries++;
          attempt = "retry";
          continue;
        }
      }

      if (options.onFailure) {
        const outcome = await options.onFailure({
          skill: call.skill,
          args: call.args,
          program,
          result: run.result,
          events: run.events,
          facts,
          env,
          grounder,
          level,
        });
        if (outcome) {
          tally.actions += outcome.actions;
          tally.invalid += outcome.invalidActions ?? 0;
          if (outcome.episodeDone) {
            tally.done = true;
            tally.reward = outcome.reward ?? 0;
          }
          const after = checkPostcondition(base, call.args, facts);
          yield {
            type: "recover",
            level,
            skill: call.skill,
            recovered: outcome.recovered,
            actions: outcome.actions,
            holds: after.holds,
            ...(after.condition !== undefined ? { condition: after.condition } : {}),
          };
          if (tally.done) return tally.reward > 0;
          if (outcome.recovered && after.holds) return true;
          // A recovery that fixed one step (or revealed what the skill was
          // missing) is followed by the whole skill again.
          if (outcome.recovered && retries < maxRetries && spent() === undefined) {
            retries++;
            attempt = "retry";
            continue;
          }
        }
      }

      // Last resort: primitive actions that the action model predicts make the
      // postcondition true: look-ahead toward its atoms when the model knows its
      // actions' schemas, else a short search over the objects of the call and
      // of its last actions.
      const model = options.actionModel;
      const target = canLookAhead() && postconditionAtoms(base, call.args);
      if (model?.predict && base.skill.doc.post !== undefined) {
        const objects = new Set<string>();
        for (const v of Object.values(call.args)) if (typeof v === "string") objects.add(v);
        for (const e of run.events.slice(-6)) {
          if (e.type === "act") {
            for (const o of objectArgs(e.action, base.vocab)) objects.add(o);
          }
        }
        const holds = (f: FactView) => checkPostcondition(base, call.args, f).holds;
        const plan = target && model instanceof ActionModel
          // A smaller budget than before an action: this search is longer and
          // rarely succeeds late.
          ? lookaheadTo(model, facts, target, holds, { maxNodes: 200 })
          : findPrimitivePlan(
            base.vocab,
            facts,
            {
              unmet: (f, a) => model.unmet(f as FactStore, a),
              predict: (f, a) => model.predict?.(f, a),
            },
            [...objects],
            holds,
          );
        if (plan) {
          for (const action of plan) {
            const step = await env.step(action);
            tally.actions++;
            tally.planned++;
            const g = await grounder.step(facts, action, step.observation);
            facts.apply(g.delta);
            if (step.done) {
              tally.done = true;
              tally.reward = step.reward;
            }
            if (g.rejected !== undefined) {
              tally.invalid++;
              break;
            }
            if (tally.done) break;
          }
          const after = checkPostcondition(base, call.args, facts);
          yield { type: "fallback", level, skill: call.skill, plan, holds: after.holds };
          if (tally.done) return tally.reward > 0;
          if (after.holds) return true;
        }
      }
      return false;
    }
  }

  /**
   * What the goal still asks for, achieved with the skills that state it
   * (see `landmark_agenda.ts`), while a pass achieves something.
   * @returns Whether anything was achieved.
   */
  async function* agenda(why: string): AsyncGenerator<AgentEvent, boolean> {
    let achieved = false;
    for (let pass = 1; pass <= maxPasses && !tally.done && spent() === undefined; pass++) {
      const calls = pendingLandmarkCalls(options.kit.vocabulary, library, facts);
      if (calls.length === 0) break;
      yield {
        type: "decide",
        node: "agenda",
        text: `${why}: achieving what the goal still asks for, ${
          calls.map((c) => formatCall(c.skill, c.args)).join(", ")
        }`,
      };
      let progressed = false;
      for (const call of calls) {
        if (tally.done || spent() !== undefined) break;
        if (checkPostcondition(library.get(call.skill)!, call.args, facts).holds) continue;
        if (yield* achieve(call, 0, [], "template")) progressed = true;
      }
      achieved ||= progressed;
      if (!progressed) break;
    }
    return achieved;
  }

  /**
   * The router's steps, while it chooses some and the budgets last: skill
   * calls are achieved like template steps, raw actions sent as they are.
   * @returns Whether it chose any step.
   */
  async function* route(why: string): AsyncGenerator<AgentEvent, boolean> {
    const history: RouteStep[] = [];
    while (options.router && !tally.done && spent() === undefined) {
      const choice = await options.router.next({ goal: reset.goal, why, facts, library, history });
      if (choice.kind === "stop") break;
      let outcome: string;
      if (choice.kind === "skill") {
        let diagnosis = "no diagnosis";
        const run = achieve({ skill: choice.skill, args: choice.args }, 0, [], "route");
        let r = await run.next();
        for (; !r.done; r = await run.next()) {
          const e = r.value;
          if (e.type === "run" && e.level === 0 && e.event.type === "end" && e.event.diagnosis) {
            diagnosis = e.event.diagnosis.message;
          }
          yield e;
        }
        outcome = r.value ? "success" : `failure: ${diagnosis}`;
      } else {
        const step = await env.step(choice.action);
        tally.actions++;
        const g = await grounder.step(facts, choice.action, step.observation);
        facts.apply(g.delta);
        if (step.done) {
          tally.done = true;
          tally.reward = step.reward;
        }
        if (g.rejected !== undefined) tally.invalid++;
        outcome = g.rejected !== undefined
          ? `rejected: ${g.rejected}`
          : `observation: ${step.observation}`;
      }
      const taken = { choice, outcome };
      history.push(taken);
      yield { type: "route", step: taken };
    }
    return history.length > 0;
  }

  const planned = planner.plan(facts, reset.taskType);
  if (!planned.ok) {
    const agendaHelped = yield* agenda("No template fits");
    const helped = (!tally.done && (yield* route(planned.error))) || agendaHelped;
    const reason = tally.done
      ? tally.reward > 0
        ? `The environment reports success (reward ${tally.reward})`
        : "The environment ended the episode without reward"
      : helped
      ? `${planned.error}; the goal's pending subgoals did not finish the task`
      : planned.error;
    const result = finish(reason);
    yield { type: "stop", success: result.success, reason };
    return result;
  }
  const plan = planned.value;
  yield {
    type: "plan",
    template: plan.template.type,
    matchedBy: plan.matchedBy,
    sequence: plan.sequence,
    calls: plan.calls,
    ...(plan.program ? { program: plan.program.skill.name } : {}),
  };
  let reason = "The plan is finished but the environment did not end the episode";
  if (plan.program) {
    // The task program: think steps read the live facts (value types as
    // domains); each call is achieved like a template step.
    const program = plan.program;
    // A program that ends with the goal unmet runs again while its passes
    // achieve something: a later goal's calls may undo an earlier one's (the
    // order of an unordered loop is free), and the next pass redoes only
    // what no longer holds.
    for (let pass = 1; !tally.done; pass++) {
      const made = new Set<string>();
      let state = initialState(program, {});
      let finished = false;
      let progressed = false;
      while (!tally.done) {
        const out = step(program, state, {
          facts: withValueDomains(options.kit.vocabulary, facts).facts,
          ...(options.budgets ? { budgets: options.budgets } : {}),
        });
        if (out.kind === "think") {
          tally.steps++;
          yield { type: "decide", node: out.node, text: out.text };
          state = out.state;
          continue;
        }
        if (out.kind === "end") {
          if (out.outcome === "failure") {
            reason = `The task program failed at "${out.node}": ${
              out.diagnosis?.message ?? "no diagnosis"
            }`;
          } else finished = true;
          break;
        }
        if (out.kind === "act") {
          reason = `The task program sends a raw action "${out.action}"; only skill calls are run`;
          break;
        }
        const call: SkillCall = { skill: out.skill, args: out.args };
        // A call already made is a repeated subgoal: its postcondition cannot tell the two apart.
        const skip = planner.skippable(call, made, facts);
        made.add(callKey(call));
        if (skip) yield skipped(call, skip.condition!);
        else {
          progressed = true;
          const ok = yield* achieve(call, 0, [], "template");
          if (!ok && !tally.done) {
            reason = tally.budget ?? spent() ?? `${call.skill} could not be achieved`;
            break;
          }
        }
        const next = resume(program, out.state, { ok: true });
        if (next.kind !== "continue") {
          reason = next.diagnosis?.message ?? "The task program ended";
          break;
        }
        state = next.state;
      }
      if (tally.done || !finished || !progressed || pass >= maxPasses) break;
      yield {
        type: "decide",
        node: program.skill.entry,
        text: `pass ${
          pass + 1
        }: the program ended with the goal unmet; calls whose postcondition holds are skipped`,
      };
    }
  }
  for (let i = 0; !plan.program && i < plan.calls.length && !tally.done; i++) {
    const call = plan.calls[i];
    const skip = planner.canSkip(plan, i, facts);
    if (skip) {
      yield skipped(call, skip.condition!);
      continue;
    }
    const ok = yield* achieve(call, 0, [], "template");
    if (!ok && !tally.done) {
      reason = tally.budget ?? spent() ?? `Step ${i + 1} (${call.skill}) could not be achieved`;
      break;
    }
  }
  if (!tally.done && spent() === undefined && (yield* agenda("The plan is done"))) {
    reason = `${reason}; then the goal's pending subgoals were achieved without ending it`;
  }
  if (tally.done) {
    reason = tally.reward > 0
      ? `The environment reports success (reward ${tally.reward})`
      : "The environment ended the episode without reward";
  }
  const result = finish(reason);
  yield { type: "stop", success: result.success, reason };
  return result;
}

/** The event of a template step skipped because its postcondition holds. */
function skipped(call: SkillCall, condition: string): AgentEvent {
  return { type: "skip", level: 0, skill: call.skill, args: call.args, condition };
}

/** Values that share an atom with one of the call's string arguments. */
function linkedValues(facts: FactStore, args: Record<string, Value>): Set<string> {
  const values = new Set(Object.values(args).filter((v): v is string => typeof v === "string"));
  const out = new Set<string>();
  if (values.size === 0) return out;
  for (const atom of facts.atoms()) {
    if (!atom.args.some((a) => typeof a === "string" && values.has(a))) continue;
    for (const a of atom.args) if (typeof a === "string" && !values.has(a)) out.add(a);
  }
  return out;
}
