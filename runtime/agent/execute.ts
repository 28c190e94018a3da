/**
 * One skill run inside the agent: the interpreter's events forwarded, the
 * tally kept, an action over the budget never sent, `select_one` choices
 * that avoid values already refuted, and loops that visit first what the
 * facts link to the call.
 *
 * @module
 */
import type { Value } from "../../dsl/facts.ts";
import { objectArgs, relatedTo, runsUntilTheTaskEnds } from "./_agent_util.ts";
import type { AgentEvent } from "./agent_types.ts";
import type { FactStore } from "../fact_store.ts";
import { type RunContext, type RunEvent, type RunResult, runSkill } from "../exec/interpreter.ts";
import type { Program } from "../exec/program.ts";
import type { AgentContext } from "./context.ts";
import { ActionMemory } from "./action_memory.ts";

/** A run of one program within the agent. */
export interface Execution {
  result: RunResult;
  events: RunEvent[];
  /** Stopped by the action budget. */
  budget: boolean;
  /** Values a select_one chose among several candidates. */
  contested: ReadonlySet<Value>;
  /** The action the run was stopped before because the agent is stuck (see `action_memory.ts`). */
  refused?: string;
}

/** Runs one program, forwarding its events; stops before an action over the budget. */
export async function* execute(
  ctx: AgentContext,
  program: Program,
  args: Record<string, Value>,
  level: number,
  avoid: ReadonlySet<string>,
): AsyncGenerator<AgentEvent, Execution> {
  const { options, facts, tally } = ctx;
  const maxActions = ctx.limits.maxActions;
  const events: RunEvent[] = [];
  const contested = new Set<Value>();
  let focus: string[] = [];
  let before: FactStore | undefined;
  let stateBefore: string | undefined;
  // The next action follows a choice the look-ahead changed: it counts as planned.
  let steered = false;
  // What the look-ahead changed, said before the run's next event.
  let looked: { node: string; text: string } | undefined;
  const decisionList = runsUntilTheTaskEnds(program.skill);
  const run = runSkill(program, args, {
    env: options.env,
    grounder: ctx.grounder,
    facts,
    library: options.library,
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.actionModel ? { actionModel: options.actionModel, skipSatisfied: true } : {}),
    ...(ctx.lookahead ? { lookahead: ctx.lookahead } : {}),
    // An action the demonstrations never used may do what a rejected one was meant to.
    ...(ctx.standIns ? { standIns: ctx.standIns } : {}),
    // A rejection in this same state is recalled, not asked again. In a
    // decision list so is one for a reason the action breaks too (see
    // `refusal_reasons.ts`): the next rule acts. Other skills' repairs
    // learn from the world's own answer (a family of items is crafted,
    // not fetched), so they ask it.
    recall: (f, action) =>
      ctx.memory.recall(ActionMemory.stateKey(f), action) ??
        (decisionList ? ctx.refusals?.recall(f, action) : undefined),
    // A cycle: where the skill has another way (a failed edge), it takes it.
    refuse: (f, action) => ctx.memory.refusal(ActionMemory.stateKey(f), action),
    // A cycle foreseen: another way first, this one if there is none.
    ...(options.actionModel
      ? {
        avoid: (f: FactStore, action: string) =>
          backTo(ctx.memory, options.actionModel!, f, action),
      }
      : {}),
    // select_one is an existential choice: take a candidate not ruled out by an
    // earlier rejection, preferably one related to the objects just acted on, and
    // remember which values were chosen among several.
    // A choice whose way the action model sees end in a dead end takes another.
    choose: (candidates, _expr, at) => {
      if (candidates.length < 2) return candidates[0];
      const allowed = candidates.filter((c) => typeof c !== "string" || !avoid.has(c));
      const pool = allowed.length > 0 ? allowed : candidates;
      let pick = pool.find((c) => typeof c === "string" && relatedTo(facts, c, focus)) ??
        pool[0];
      if (at && ctx.choices) {
        const other = ctx.choices.choose([pick, ...pool.filter((c) => c !== pick)], at, facts);
        if (other !== pick) {
          steered = true;
          looked = {
            node: at.node,
            text: `looked ahead: taking ${String(pick)} ends in a dead end; ${
              String(other)
            } instead`,
          };
        }
        pick = other;
      }
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
    if (looked) {
      yield { type: "decide", ...looked };
      looked = undefined;
    }
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
    if (e.type === "act" && e.recalled) {
      // Not sent: no action is spent.
    } else if (e.type === "act") {
      // The facts now are the state before the action.
      stateBefore = ActionMemory.stateKey(facts);
      const refusal = ctx.memory.refusal(stateBefore, e.action);
      if (refusal !== undefined) {
        const result: RunResult = {
          outcome: "failure",
          diagnosis: { node: e.node, message: `Stuck: ${refusal}` },
          steps: events.filter((x) => x.type === "think" || x.type === "act").length,
          actions: events.filter((x) => x.type === "observe").length,
          episodeDone: false,
          reward: tally.reward,
        };
        await run.return(result);
        tally.steps += result.steps;
        return { result, events, budget: false, contested, refused: e.action };
      }
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
      if (e.lookahead || steered) tally.planned++;
      steered = false;
    } else if (e.type === "observe" && !e.recalled) {
      if (e.rejected !== undefined) {
        tally.invalid++;
        ctx.unseen?.rejected(ctx.facts, e.action);
        ctx.refusals?.record(ctx.facts, e.action, {
          observation: e.observation,
          rejected: e.rejected,
        });
      }
      if (stateBefore !== undefined) {
        ctx.memory.record(
          stateBefore,
          e.action,
          e.rejected !== undefined
            ? { observation: e.observation, rejected: e.rejected }
            : undefined,
          e.delta,
          objectArgs(e.action, options.kit.vocabulary),
        );
      }
      stateBefore = undefined;
      if (e.done) {
        tally.done = true;
        tally.reward = e.reward;
      }
    }
    events.push(e);
    yield { type: "run", level, event: e };
  }
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

/**
 * Why `action` would undo the last action (its learned effects, applied to
 * `facts`, give the state the last action was sent from: a block put back
 * where it was just taken from) or an earlier one whose atoms no action
 * changed since (a parcel put back where one truck took it from while
 * others drove), or `undefined`. Not every state seen before: avoiding
 * those sent long failing episodes round longer. An action predicted to
 * change nothing is never avoided: it may be one that only looks.
 */
function backTo(
  memory: ActionMemory,
  model: NonNullable<RunContext["actionModel"]>,
  facts: FactStore,
  action: string,
): string | undefined {
  const delta = model.predict?.(facts, action);
  if (!delta || (delta.add.length === 0 && delta.remove.length === 0)) return undefined;
  if (memory.previous === facts.fingerprintAfter(delta)) {
    return `"${action}" would undo the last action (a cycle); not sent`;
  }
  const undone = memory.undone(facts, delta);
  return undone === undefined
    ? undefined
    : `"${action}" would undo "${undone}", which nothing changed since (a cycle); not sent`;
}
