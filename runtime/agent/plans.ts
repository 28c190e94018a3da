/**
 * The agent's ways through a task: the task program of the goal's template
 * (run in passes while a pass achieves something), a template's calls in
 * turn, the goal's pending landmarks (the agenda), the router's steps
 * when no template fits, and look-ahead toward what the goal still asks
 * when the skills have done what they can.
 *
 * @module
 */
import type { AgentEvent } from "./agent_types.ts";
import { formatCall } from "./format_agent_events.ts";
import { forbiddenAtoms, goalAtoms, pendingLandmarkCalls } from "../plan/landmark_agenda.ts";
import { ActionModel } from "../learn/action_model.ts";
import { lookaheadTo } from "../learn/lookahead.ts";
import type { FactView } from "../../dsl/facts.ts";
import { callKey, type Plan, type SkillCall } from "../plan/planner.ts";
import { checkPostcondition } from "../exec/postcondition.ts";
import type { RouteStep } from "../plan/router.ts";
import { initialState, resume, step } from "../exec/step.ts";
import { withValueDomains } from "../exec/value_domains.ts";
import { achieve } from "./achieve.ts";
import { runsUntilTheTaskEnds } from "./_agent_util.ts";
import { actionsSpent, type AgentContext, send, spent } from "./context.ts";
import { renderAction } from "../../dsl/action.ts";
import { own } from "../../dsl/vocabulary.ts";
import { relatedGroundings } from "../learn/related_groundings.ts";

/**
 * Follows a plan: its task program, else its calls. @returns Why it
 * stopped, when it did not end the episode.
 */
export async function* followPlan(
  ctx: AgentContext,
  plan: Plan,
): AsyncGenerator<AgentEvent, string> {
  return plan.program ? yield* runTaskProgram(ctx, plan) : yield* runCalls(ctx, plan);
}

/**
 * The task program: think steps read the live facts (value types as
 * domains); each call is achieved like a template step. A program that
 * ends with the goal unmet runs again while its passes achieve something: a
 * later goal's calls may undo an earlier one's (the order of an unordered
 * loop is free), and the next pass redoes only what no longer holds.
 */
async function* runTaskProgram(ctx: AgentContext, plan: Plan): AsyncGenerator<AgentEvent, string> {
  const { tally, options } = ctx;
  const program = plan.program!;
  let reason = "The plan is finished but the environment did not end the episode";
  for (let pass = 1; !tally.done; pass++) {
    const made = new Set<string>();
    let state = initialState(program, {});
    let finished = false;
    let progressed = false;
    while (!tally.done) {
      const out = step(program, state, {
        facts: withValueDomains(options.kit.vocabulary, ctx.facts).facts,
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
      const skip = ctx.planner.skippable(call, made, ctx.facts);
      made.add(callKey(call));
      if (skip) yield skipped(call, skip.condition!);
      else {
        progressed = true;
        const ok = yield* achieve(ctx, call, 0, [], "template", out.node);
        if (!ok && !tally.done) {
          reason = tally.budget ?? spent(ctx) ?? `${call.skill} could not be achieved`;
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
    if (tally.done || !finished || !progressed || pass >= ctx.limits.maxPasses) break;
    yield {
      type: "decide",
      node: program.skill.entry,
      text: `pass ${
        pass + 1
      }: the program ended with the goal unmet; calls whose postcondition holds are skipped`,
    };
  }
  return reason;
}

/** A template's calls in turn, skipping those whose postcondition holds. */
async function* runCalls(ctx: AgentContext, plan: Plan): AsyncGenerator<AgentEvent, string> {
  for (let i = 0; i < plan.calls.length && !ctx.tally.done; i++) {
    const call = plan.calls[i];
    const skip = ctx.planner.canSkip(plan, i, ctx.facts);
    if (skip) {
      yield skipped(call, skip.condition!);
      continue;
    }
    const ok = yield* achieve(ctx, call, 0, [], "template");
    if (!ok && !ctx.tally.done) {
      return ctx.tally.budget ?? spent(ctx) ??
        `Step ${i + 1} (${call.skill}) could not be achieved`;
    }
  }
  return "The plan is finished but the environment did not end the episode";
}

/**
 * What the goal still asks for, achieved with the skills that state it
 * (see `landmark_agenda.ts`), while a pass achieves something; with
 * `untilRefused`, only until the environment refuses one of their
 * actions: after a plan, skills that do not fit the state it left (a hand
 * to free that no demonstration freed) would regress from there, sending
 * what it refuses and spending the skill calls, and leave look-ahead
 * toward the goal a state further off.
 * @returns Whether anything was achieved.
 */
export async function* agenda(
  ctx: AgentContext,
  why: string,
  untilRefused = false,
): AsyncGenerator<AgentEvent, boolean> {
  if (!untilRefused) return yield* agendaPasses(ctx, why);
  const { tally } = ctx;
  const refusedBefore = tally.invalid;
  ctx.halt = () => tally.invalid > refusedBefore;
  try {
    return yield* agendaPasses(ctx, why);
  } finally {
    ctx.halt = undefined;
  }
}

async function* agendaPasses(ctx: AgentContext, why: string): AsyncGenerator<AgentEvent, boolean> {
  const { tally, options } = ctx;
  let achieved = false;
  for (
    let pass = 1;
    pass <= ctx.limits.maxPasses && !tally.done && spent(ctx) === undefined;
    pass++
  ) {
    const calls = pendingLandmarkCalls(options.kit.vocabulary, options.library, ctx.facts);
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
      if (tally.done || spent(ctx) !== undefined || ctx.halt?.()) break;
      if (checkPostcondition(options.library.get(call.skill)!, call.args, ctx.facts).holds) {
        continue;
      }
      if (yield* achieve(ctx, call, 0, [], "template")) progressed = true;
    }
    achieved ||= progressed;
    if (!progressed) break;
  }
  return achieved;
}

/**
 * Whether the plan's task program calls only skills with no way to end in
 * success: they run until the environment ends the task (a decision list:
 * in each state the first rule that applies acts).
 */
export function runsToTheEnd(ctx: AgentContext, plan: Plan): boolean {
  const calls = plan.program?.skill.nodes.filter((n) => n.kind === "primitive") ?? [];
  return calls.length > 0 && calls.every((n) => {
    const skill = n.kind === "primitive" ? ctx.options.library.get(n.action)?.skill : undefined;
    return skill !== undefined && runsUntilTheTaskEnds(skill);
  });
}

/** Atoms the states of one look-ahead toward the goal hold at most (see `LookaheadOptions`). */
const GOAL_SEARCH_ATOMS = 200_000;

/**
 * When the skills have done what they can and the goal is unmet: a plan
 * the action model predicts reaches the goal (else one of its atoms, in
 * the goal's order), sent as planned actions; the plan then runs again
 * from where the look-ahead left it, while a round gets anywhere. A
 * decision list stuck where no rule applies (a goal relation the
 * demonstrations never asked for: a plank equipped, where they only asked
 * for planks) gets past it this way. A model of demonstrations alone is
 * searched with what held before every demonstrated use of an action,
 * then with only what each action consumes and makes, out of the
 * episode's budget for such searches.
 * @returns Whether it sent anything (explorations' tries included, refused
 *   or not).
 */
export async function* lookaheadToGoal(
  ctx: AgentContext,
  plan?: Plan,
): AsyncGenerator<AgentEvent, boolean> {
  const { tally, facts, options } = ctx;
  if (!(options.actionModel instanceof ActionModel) || options.lookahead === false) return false;
  const vocab = options.kit.vocabulary;
  const before = tally.actions;
  for (
    let round = 1;
    round <= ctx.limits.maxPasses && !tally.done && actionsSpent(ctx) === undefined;
    round++
  ) {
    // With what the episode saw the actions no demonstration showed do.
    const model = ctx.unseen?.model ?? options.actionModel;
    const assumed = !ctx.canLookAhead();
    // Confirmed rules; else what held before every demonstrated use, then
    // only what each action consumes and makes (a goal the demonstrations
    // never asked may need an action on objects they never used it on).
    // Once the episode learned what an unseen action does, first what
    // relates each action's arguments (see `unseen_actions.ts`), out of a
    // budget of its own.
    const guessed = ctx.assumedSearch.nodes > 0;
    const relations = ctx.unseen?.learned || ctx.unseen?.refined ? ctx.unseen : undefined;
    type Kind = "rules" | "relations" | "hypotheses" | "consumed";
    const planners: { kind: Kind; model: ActionModel; shared?: { nodes: number } }[] = !assumed
      ? [{ kind: "rules", model }]
      : [
        ...(relations && relations.search.nodes > 0
          ? [{ kind: "relations" as const, model: relations.relations, shared: relations.search }]
          : []),
        ...(guessed
          ? [
            {
              kind: "hypotheses" as const,
              model: model.assumingHypotheses(),
              shared: ctx.assumedSearch,
            },
            {
              kind: "consumed" as const,
              model: model.assumingConsumed(),
              shared: ctx.assumedSearch,
            },
          ]
          : []),
      ];
    const unmet = goalAtoms(vocab, facts).filter((a) => !facts.has(a));
    const forbidden = forbiddenAtoms(vocab, facts);
    const clear = (f: FactView) => !forbidden.some((a) => f.has(a));
    // Only what the goal forbids is left (a key still lying where the
    // goal wants it gone): a search for a state without it.
    const onlyForbidden = unmet.length === 0;
    if (onlyForbidden && clear(facts)) break;
    let found: string[] | undefined;
    let by: (typeof planners)[number] | undefined;
    for (const planner of planners) {
      // An action the model knows nothing of is tried before a plan of
      // what actions merely consume: that view lets most actions apply
      // anywhere, and its searches on a large state cost seconds for
      // plans the environment mostly refuses.
      if (planner.kind === "consumed" && ctx.unseen?.unexplored()) break;
      if (!planner.model.schemas().some((s) => s.pre.length > 0)) continue;
      const search = (target: typeof unmet) =>
        lookaheadTo(
          planner.model,
          facts,
          target,
          (f) => target.every((a) => f.has(a)) && clear(f),
          {
            maxNodes: 200,
            // A model that assumes little lets many actions apply: a tenth of
            // the usual states' atoms keeps such a search's memory small.
            maxAtoms: GOAL_SEARCH_ATOMS,
            ...(planner.shared ? { shared: planner.shared } : {}),
            ...(planner.kind === "relations" ? { helpfulOnly: true } : {}),
          },
        );
      // The relations view plans a goal atom at a time: its searches run
      // on states the skills could not finish, where a plan for the whole
      // goal is long and each failed try costs seconds.
      if (planner.kind !== "relations" || onlyForbidden) found = search(unmet);
      const alone = planner.kind === "relations" || unmet.length > 1;
      for (let k = 0; !found?.length && alone && k < unmet.length; k++) {
        found = search([unmet[k]]);
      }
      if (found?.length) {
        by = planner;
        break;
      }
    }
    if (!found?.length) {
      // Nothing the model knows gets there: what the demonstrations never
      // did may (an exploration per action and episode, so this ends).
      if (yield* exploreUnseenActions(ctx)) {
        round--;
        continue;
      }
      break;
    }
    yield {
      type: "decide",
      node: "lookahead",
      text: `The skills are stuck with the goal unmet: the action model's plan, ${
        found.join(", ")
      }`,
    };
    let progressed = false;
    let refused: string | undefined;
    for (const action of found) {
      const out = await send(ctx, action, true);
      refused = out.rejected !== undefined ? action : undefined;
      if (refused || tally.done) break;
      progressed = true;
    }
    // A plan of the relations view takes no round of its own and hands
    // nothing back to the skills, which were stuck here (they would undo
    // it): a goal atom at a time, out of its budget; a rejection sharpens
    // the view.
    const learning = by?.kind === "relations";
    if (learning && (progressed || refused) && !tally.done) {
      round--;
      continue;
    }
    // A plan refused at once is the model's mistake, as good as none; what
    // its first action broke is needed after all (the relations view,
    // sharpened a refusal at a time).
    if (!progressed && refused && !tally.done && (yield* exploreUnseenActions(ctx))) {
      round--;
      continue;
    }
    if (!progressed && refused && !tally.done && !learning && ctx.unseen?.refine(facts, refused)) {
      round--;
      continue;
    }
    if (!progressed || tally.done || !plan) break;
    yield* followPlan(ctx, plan);
  }
  return tally.actions > before;
}

/** Tries of one unseen action, accepted or not, in one exploration. */
const TRIES_PER_ACTION = 24;
/** Accepted uses that change the state, per unseen action, before the look-ahead resumes. */
const USES_PER_ACTION = 2;

/**
 * Tries each unseen action not yet explored in this episode on the
 * objects the state relates most, up to a few tries each, stopping at
 * the first uses that change the state. Its sends count as planned.
 *
 * @returns Whether some action was seen to change the state (the model
 *   knows more than before).
 */
export async function* exploreUnseenActions(
  ctx: AgentContext,
): AsyncGenerator<AgentEvent, boolean> {
  const unseen = ctx.unseen;
  if (unseen === undefined) return false;
  const vocab = ctx.options.kit.vocabulary;
  let learned = false;
  for (const name of unseen.unseen) {
    if (unseen.tried(name) || ctx.tally.done || actionsSpent(ctx) !== undefined) continue;
    unseen.markTried(name);
    const decl = own(vocab.actions, name)!;
    let tries = 0;
    let uses = 0;
    for (const args of relatedGroundings(decl.params, ctx.facts, vocab)) {
      if (tries >= TRIES_PER_ACTION || uses >= USES_PER_ACTION) break;
      if (ctx.tally.done || actionsSpent(ctx) !== undefined) break;
      const action = renderAction(decl, args);
      tries++;
      const out = await send(ctx, action, true);
      if (out.rejected === undefined && out.changed) uses++;
    }
    const effects = unseen.model.effects(name);
    const said = effects.add.length + effects.remove.length > 0
      ? `adds ${effects.add.join(", ") || "nothing"}, removes ${
        effects.remove.join(", ") || "nothing"
      }`
      : "no change seen";
    yield {
      type: "decide",
      node: "explore",
      text: `Tried "${name}", which no demonstration showed at work, ${tries} times (${uses} ${
        uses === 1 ? "use" : "uses"
      } changed the state): ${said}`,
    };
    if (uses > 0) learned = true;
  }
  return learned;
}

/**
 * The router's steps, while it chooses some and the budgets last: skill
 * calls are achieved like template steps, raw actions sent as they are.
 * @returns Whether it chose any step.
 */
export async function* route(ctx: AgentContext, why: string): AsyncGenerator<AgentEvent, boolean> {
  const { options, tally } = ctx;
  const history: RouteStep[] = [];
  while (options.router && !tally.done && spent(ctx) === undefined) {
    const choice = await options.router.next({
      goal: ctx.reset.goal,
      why,
      facts: ctx.facts,
      library: options.library,
      history,
    });
    if (choice.kind === "stop") break;
    let outcome: string;
    if (choice.kind === "skill") {
      let diagnosis = "no diagnosis";
      const run = achieve(ctx, { skill: choice.skill, args: choice.args }, 0, [], "route");
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
      const sent = await send(ctx, choice.action, false);
      outcome = sent.rejected !== undefined
        ? `rejected: ${sent.rejected}`
        : `observation: ${sent.observation}`;
    }
    const taken = { choice, outcome };
    history.push(taken);
    yield { type: "route", step: taken };
  }
  return history.length > 0;
}

/** The event of a template step skipped because its postcondition holds. */
function skipped(call: SkillCall, condition: string): AgentEvent {
  return { type: "skip", level: 0, skill: call.skill, args: call.args, condition };
}
