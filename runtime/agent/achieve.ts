/**
 * Achieving one skill call: run it, verify its postcondition, and on
 * failure carry out the repairs `decide` chooses, in order, until one leads
 * to a retry or none is left (see `decide.ts` for the rules).
 *
 * @module
 */
import { type Atom, type FactView, formatAtom, type Value } from "../../dsl/facts.ts";
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
  undone,
} from "./_agent_util.ts";
import { ActionModel } from "../learn/action_model.ts";
import type { AgentEvent } from "./agent_types.ts";
import type { FactStore } from "../fact_store.ts";
import { lookaheadTo } from "../learn/lookahead.ts";
import { callKey, type SkillCall } from "../plan/planner.ts";
import { checkPostcondition, postconditionAtoms } from "../exec/postcondition.ts";
import { findPrimitivePlan } from "../exec/primitive_fallback.ts";
import type { Program } from "../exec/program.ts";
import {
  firstAction,
  firstStep,
  postconditionStatesQuantity as statesQuantity,
  sameActionOnObjects,
  type Subgoal,
} from "../plan/regression.ts";
import { tolerateRejection } from "../exec/tolerate.ts";
import { goalAtoms } from "../plan/landmark_agenda.ts";
import { type AgentContext, send, spent } from "./context.ts";
import { type AttemptState, decide, type FailureView, type Repair } from "./decide.ts";
import { execute, type Execution } from "./execute.ts";

/** Why a call is made, as its `call` event says. */
export type CallReason = "template" | "subgoal" | "route";

/** One call's attempts so far. */
interface Attempt {
  call: SkillCall;
  level: number;
  stack: readonly string[];
  key: string;
  /** The skill as the library has it. */
  base: Program;
  /** The skill as it runs next (with tolerated rejections). */
  program: Program;
  retries: number;
  reason: CallReason | "retry";
  failedSubgoals: Set<string>;
  /** Values select_one must not choose again: they were in rejected actions. */
  avoid: Set<string>;
  /** Per primitive node: the objects whose rejection the retries tolerate. */
  tolerated: Map<string, Set<string>>;
  /** Objects the subgoals of this call produced (or produced a substitute for). */
  provided: Map<string, { action: string; facts: string }>;
  /** Whether background knowledge was asked, and the facts assumed from its answer. */
  asked: boolean;
  assumed: Atom[];
  /** The task program's node that made the call, when one did. */
  node?: string;
}

/** What a repair led to: run again, try the next repair, or the call's result. */
type Outcome = "retry" | "next" | boolean;

/** Achieves one call: run, verify, then the repairs `decide` chooses. */
export async function* achieve(
  ctx: AgentContext,
  call: SkillCall,
  level: number,
  stack: readonly string[],
  reason: CallReason,
  node?: string,
): AsyncGenerator<AgentEvent, boolean> {
  const base = ctx.options.library.get(call.skill)!;
  const a: Attempt = {
    call,
    level,
    stack,
    key: callKey(call),
    base,
    program: base,
    retries: 0,
    reason,
    failedSubgoals: new Set(),
    avoid: new Set(),
    tolerated: new Map(),
    provided: new Map(),
    asked: false,
    assumed: [],
    ...(node !== undefined ? { node } : {}),
  };
  const { tally } = ctx;
  while (true) {
    const out = spent(ctx);
    if (out !== undefined) {
      tally.budget = out;
      return false;
    }
    if (ctx.halt?.()) return false;
    tally.skillCalls++;
    yield {
      type: "call",
      level,
      skill: call.skill,
      args: call.args,
      reason: a.reason,
      ...(a.node !== undefined ? { node: a.node } : {}),
      ...(a.tolerated.size > 0 ? { tolerate: describeTolerated(a.tolerated) } : {}),
      ...(a.avoid.size > 0 ? { avoid: [...a.avoid] } : {}),
    };
    const heldBefore = goalHeld(ctx, a);
    const acceptedBefore = tally.actions - tally.invalid;
    const run = yield* execute(ctx, a.program, call.args, level, a.avoid);
    if (tally.done) return tally.reward > 0;
    const check = checkPostcondition(base, call.args, ctx.facts);
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
    if (run.budget || ctx.halt?.()) return false;

    const tried = new Set<Repair["kind"]>();
    // A call answering to the task's goal whose actions changed the state
    // and got no nearer to it would go the same way again, were it redone
    // or made to choose differently at one node.
    const stalled = heldBefore !== undefined && tally.actions - tally.invalid > acceptedBefore &&
      goalHeld(ctx, a)! <= heldBefore;
    const view = failureView(ctx, a, run, stalled);
    let outcome: Outcome = "next";
    while (outcome === "next") {
      const repair = decide(attemptState(ctx, a, tried), view);
      tried.add(repair.kind);
      outcome = yield* carryOut(ctx, a, run, repair, check);
    }
    if (outcome !== "retry") return outcome;
    a.retries++;
    a.reason = "retry";
  }
}

/** The call's state as `decide` reads it. */
function attemptState(
  ctx: AgentContext,
  a: Attempt,
  tried: ReadonlySet<Repair["kind"]>,
): AttemptState {
  const { options } = ctx;
  return {
    level: a.level,
    maxDepth: ctx.planner.maxDepth,
    retries: a.retries,
    maxRetries: ctx.limits.maxRetries,
    tried,
    knowledge: a.assumed.length > 0
      ? "assumed"
      : !options.knowledge
      ? "none"
      : a.asked
      ? "asked"
      : "available",
    hook: options.onFailure !== undefined,
    fallback: options.actionModel?.predict !== undefined && a.base.skill.doc.post !== undefined,
  };
}

/**
 * How many of the task goal's atoms hold, for a call with no postcondition
 * of its own (a task program or decision list answers to the task's goal).
 */
function goalHeld(ctx: AgentContext, a: Attempt): number | undefined {
  if (a.base.skill.doc.post !== undefined) return undefined;
  const { facts } = ctx;
  return goalAtoms(a.base.vocab, facts).filter((atom) => facts.has(atom)).length;
}

/** What the failed run shows, read from its events and the facts. */
function failureView(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
  stalled: boolean,
): FailureView {
  const { facts } = ctx;
  const vocab = a.base.vocab;
  return {
    askedAgain() {
      // The same action again although the facts about its object changed: the
      // skill does not read them (were they unchanged, more would be needed).
      const object = [...a.provided.keys()].find((o) => {
        const before = a.provided.get(o)!;
        const last = rejectedActionFor(run.events, o, vocab);
        if (last !== before.action || factsAbout(facts, o) === before.facts) return false;
        const node = rejectedNodeFor(run.events.slice(-2), o, vocab);
        return node !== undefined && !a.tolerated.get(node)?.has(o);
      });
      if (object === undefined) return undefined;
      return { node: rejectedNodeFor(run.events, object, vocab)!, object };
    },
    innerCall() {
      const inner = failedInnerCall(run.events);
      if (inner === undefined || ctx.options.library.get(inner.skill) === undefined) {
        return undefined;
      }
      const key = callKey(inner);
      if (key === a.key || a.stack.includes(key) || a.failedSubgoals.has(key)) return undefined;
      return inner;
    },
    redoable() {
      if (stalled || ownRejectedAction(run.events) === undefined) return false;
      const first = firstStep(a.program, a.call.args, facts);
      return first !== undefined && undone(first, run.events, ctx.options.library, facts);
    },
    otherChoices() {
      if (stalled) return [];
      const refused = run.refused === undefined ? [] : objectArgs(run.refused, vocab);
      return [...new Set([...rejectedObjects(run.events, vocab), ...refused])].filter((o) =>
        run.contested.has(o) && !a.avoid.has(o)
      );
    },
  };
}

/** Carries out one repair. */
async function* carryOut(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
  repair: Repair,
  check: ReturnType<typeof checkPostcondition>,
): AsyncGenerator<AgentEvent, Outcome> {
  switch (repair.kind) {
    case "tolerate":
      tolerate(ctx, a, repair.node, repair.object);
      return "retry";
    case "inner": {
      const ok = yield* achieve(ctx, repair.call, a.level + 1, [...a.stack, a.key], "subgoal");
      if (ctx.tally.done) return ctx.tally.reward > 0;
      if (ok) return "retry";
      a.failedSubgoals.add(callKey(repair.call));
      return "next";
    }
    case "regress":
      return yield* regress(ctx, a, run);
    case "redo":
      return "retry";
    case "avoid":
      for (const o of repair.objects) a.avoid.add(o);
      return "retry";
    case "retract":
      ctx.facts.apply({ add: [], remove: a.assumed });
      yield {
        type: "retract",
        level: a.level,
        skill: a.call.skill,
        facts: a.assumed.map(formatAtom),
      };
      a.assumed = [];
      return "next";
    case "ask":
      return yield* ask(ctx, a, run, check);
    case "hook":
      return yield* hook(ctx, a, run);
    case "fallback":
      return yield* fallback(ctx, a, run);
    case "give-up":
      return false;
  }
}

/** From now on the call's runs tolerate the rejection of `object` at `node`. */
function tolerate(ctx: AgentContext, a: Attempt, node: string, object: string): void {
  const objects = a.tolerated.get(node) ?? new Set<string>();
  objects.add(object);
  a.tolerated.set(node, objects);
  a.program = tolerateRejection(
    a.base,
    new Map([...a.tolerated].map(([n, o]) => [n, [...o]])),
    ctx.options.library,
  );
}

/** Achieves the first subgoal regression proposes that succeeds; then the call runs again. */
async function* regress(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
): AsyncGenerator<AgentEvent, Outcome> {
  const { tally, facts } = ctx;
  const vocab = a.base.vocab;
  const subgoals = ctx.planner.regress(
    { program: a.program, args: a.call.args, result: run.result, events: run.events },
    facts,
    { exclude: new Set([...a.stack, a.key, ...a.failedSubgoals]) },
  );
  const deeper = [...a.stack, a.key];
  let achieved: Subgoal | undefined;
  let askedFor = { action: "", facts: "" };
  for (const sub of subgoals) {
    if (spent(ctx) !== undefined) break;
    askedFor = {
      action: rejectedActionFor(run.events, sub.object, vocab) ?? "",
      facts: factsAbout(facts, sub.object),
    };
    yield { type: "regress", level: a.level, skill: a.call.skill, ...sub };
    const before = tally.actions;
    const ok = yield* achieve(ctx, sub.call, a.level + 1, deeper, "subgoal");
    if (tally.done) return tally.reward > 0;
    // A producer of "more" must have acted, or the retry would fail the same way.
    if (ok && (!sub.more || tally.actions > before)) {
      achieved = sub;
      break;
    }
    a.failedSubgoals.add(callKey(sub.call));
  }
  if (!achieved) return "next";
  a.provided.set(achieved.object, askedFor);
  // While the retry would start with the action that was rejected, on the same
  // objects but asking for less (the skill reads the quantity, and the gap
  // persists), a producer of a quantity is called again instead.
  let last = rejectedAction(run.events);
  let repeats = 0;
  while (
    achieved.via === "object" && last !== undefined &&
    statesQuantity(ctx.options.library.get(achieved.call.skill)!) &&
    repeats < ctx.limits.maxRetries && spent(ctx) === undefined
  ) {
    const next = firstAction(a.program, a.call.args, facts);
    if (next === undefined || next === last) break;
    if (!sameActionOnObjects(vocab, next, last)) break;
    last = next;
    repeats++;
    const more = { ...achieved, more: true };
    yield { type: "regress", level: a.level, skill: a.call.skill, ...more };
    const before = tally.actions;
    const ok = yield* achieve(ctx, more.call, a.level + 1, deeper, "subgoal");
    if (tally.done) return tally.reward > 0;
    if (!ok || tally.actions === before) break;
  }
  const node = rejectedNodeFor(run.events, achieved.object, vocab);
  if (achieved.via === "related" && node !== undefined) tolerate(ctx, a, node, achieved.object);
  return "retry";
}

/**
 * Background knowledge: the facts offered no way, so ask how and assume the
 * answer; the retry verifies it by acting (and `retract` takes it back).
 */
async function* ask(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
  check: ReturnType<typeof checkPostcondition>,
): AsyncGenerator<AgentEvent, Outcome> {
  const { facts } = ctx;
  a.asked = true;
  const answer = await ctx.options.knowledge!.ask({
    goal: ctx.reset.goal,
    skill: a.call.skill,
    args: a.call.args,
    need: check.condition ?? check.post ?? a.call.skill,
    diagnosis: run.result.diagnosis?.message ?? "no diagnosis",
    objects: [
      ...new Set([
        ...Object.values(a.call.args).filter((v): v is string => typeof v === "string"),
        ...rejectedObjects(run.events, a.base.vocab),
      ]),
    ],
    facts,
  });
  a.assumed = answer?.add.filter((x) => !facts.has(x)) ?? [];
  if (!answer || a.assumed.length === 0) return "next";
  facts.apply({ add: a.assumed, remove: [], objects: answer.objects ?? {} });
  yield {
    type: "assume",
    level: a.level,
    skill: a.call.skill,
    source: answer.source,
    facts: a.assumed.map(formatAtom),
  };
  return "retry";
}

/** Reflective planning: the `onFailure` hook acts where the skill failed. */
async function* hook(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
): AsyncGenerator<AgentEvent, Outcome> {
  const { tally, facts } = ctx;
  const outcome = await ctx.options.onFailure!({
    skill: a.call.skill,
    args: a.call.args,
    program: a.program,
    result: run.result,
    events: run.events,
    facts,
    env: ctx.options.env,
    grounder: ctx.grounder,
    level: a.level,
  });
  if (!outcome) return "next";
  tally.actions += outcome.actions;
  tally.invalid += outcome.invalidActions ?? 0;
  if (outcome.episodeDone) {
    tally.done = true;
    tally.reward = outcome.reward ?? 0;
  }
  const after = checkPostcondition(a.base, a.call.args, facts);
  yield {
    type: "recover",
    level: a.level,
    skill: a.call.skill,
    recovered: outcome.recovered,
    actions: outcome.actions,
    holds: after.holds,
    ...(after.condition !== undefined ? { condition: after.condition } : {}),
  };
  if (tally.done) return tally.reward > 0;
  if (outcome.recovered && after.holds) return true;
  // A recovery that fixed one step (or revealed what the skill was missing)
  // is followed by the whole skill again.
  if (outcome.recovered && a.retries < ctx.limits.maxRetries && spent(ctx) === undefined) {
    return "retry";
  }
  return "next";
}

/**
 * Last resort: primitive actions that the action model predicts make the
 * postcondition true: look-ahead toward its atoms when the model knows its
 * actions' schemas, else a short search over the objects of the call and of
 * its last actions.
 */
async function* fallback(
  ctx: AgentContext,
  a: Attempt,
  run: Execution,
): AsyncGenerator<AgentEvent, Outcome> {
  const { tally, facts } = ctx;
  const model = ctx.options.actionModel!;
  // Without a confirmed rule (a model of demonstrations alone) the search
  // assumes what held before every demonstrated use of an action, while the
  // episode's budget for such searches lasts; then the short search below.
  const searchable = model instanceof ActionModel && ctx.options.lookahead !== false;
  const assumed = searchable && !ctx.canLookAhead();
  const planner = !searchable
    ? undefined
    : !assumed
    ? model
    : ctx.assumedSearch.nodes > 0
    ? model.assumingHypotheses()
    : undefined;
  const target = planner !== undefined && planner.schemas().some((s) => s.pre.length > 0) &&
    postconditionAtoms(a.base, a.call.args);
  const objects = new Set<string>();
  for (const v of Object.values(a.call.args) as Value[]) {
    if (typeof v === "string") objects.add(v);
  }
  for (const e of run.events.slice(-6)) {
    if (e.type === "act") { for (const o of objectArgs(e.action, a.base.vocab)) objects.add(o); }
  }
  // When no rule is confirmed, the short search keeps at least to what an
  // action's own effects vouch for (it removes what held, it adds what did
  // not): a disc moved from under itself would only be refused. Not to every
  // hypothesis: what merely held in every demonstration (no fetched item was
  // craftable) is what this last resort must be free to break.
  const guarded = assumed && model instanceof ActionModel ? model.assumingConsumed() : undefined;
  const holds = (f: FactView) => checkPostcondition(a.base, a.call.args, f).holds;
  const plan = target && planner
    // A smaller budget than before an action: this search is longer and
    // rarely succeeds late.
    ? lookaheadTo(planner, facts, target, holds, {
      maxNodes: 200,
      ...(assumed ? { shared: ctx.assumedSearch } : {}),
    })
    : findPrimitivePlan(
      a.base.vocab,
      facts,
      {
        unmet: (f, x) => (guarded ?? model).unmet(f as FactStore, x),
        predict: (f, x) => model.predict?.(f, x),
      },
      [...objects],
      holds,
    );
  if (!plan) return false;
  for (const action of plan) {
    const sent = await send(ctx, action, true);
    if (sent.rejected !== undefined || tally.done) break;
  }
  const after = checkPostcondition(a.base, a.call.args, facts);
  yield { type: "fallback", level: a.level, skill: a.call.skill, plan, holds: after.holds };
  if (tally.done) return tally.reward > 0;
  return after.holds;
}
