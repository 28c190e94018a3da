/**
 * The agent: solves one task with a skill library (DESIGN section 6). It
 * resets the environment, grounds the first observation and follows the
 * plan of the task's template (`planner.ts`), achieving each call
 * (`achieve.ts`: run, verify, and the repairs `decide.ts` chooses); then
 * what the goal still asks for (the landmark agenda), then look-ahead in
 * the action model toward it. When no template
 * fits, the agenda and the router (`router.ts`) are all it has. It stops
 * when the environment ends the episode (success when the reward is
 * positive), when a step cannot be achieved, or when a budget is spent.
 *
 * @module
 */
import type { AgentEvent, AgentOptions, AgentResult } from "./agent_types.ts";
import { actionsSpent, endedBecause, finish, spent, startEpisode } from "./context.ts";
import { agenda, followPlan, lookaheadToGoal, route, runsToTheEnd } from "./plans.ts";

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
  const ctx = await startEpisode(options);
  const { tally, reset } = ctx;
  yield {
    type: "task",
    taskId: reset.taskId,
    goal: reset.goal,
    observation: reset.observation,
    ...(reset.taskType !== undefined ? { taskType: reset.taskType } : {}),
    facts: ctx.facts.size,
  };
  let reason: string;
  const planned = ctx.planner.plan(ctx.facts, reset.taskType);
  if (!planned.ok) {
    // No template fits: the goal's pending landmarks, then the router.
    const agendaHelped = yield* agenda(ctx, "No template fits");
    const routed = !tally.done && (yield* route(ctx, planned.error));
    const looked = !tally.done && actionsSpent(ctx) === undefined && (yield* lookaheadToGoal(ctx));
    reason = routed || agendaHelped || looked
      ? `${planned.error}; the goal's pending subgoals did not finish the task`
      : planned.error;
  } else {
    const plan = planned.value;
    yield {
      type: "plan",
      template: plan.template.type,
      matchedBy: plan.matchedBy,
      sequence: plan.sequence,
      calls: plan.calls,
      ...(plan.program ? { program: plan.program.skill.name } : {}),
    };
    reason = yield* followPlan(ctx, plan);
    // After skills that run until the task ends (a decision list), the
    // agenda's skills meet a state no demonstration led to.
    const untilRefused = runsToTheEnd(ctx, plan);
    if (
      !tally.done && spent(ctx) === undefined &&
      (yield* agenda(ctx, "The plan is done", untilRefused))
    ) {
      reason = `${reason}; then the goal's pending subgoals were achieved without ending it`;
    }
    // Also once the skills spent their calls (see `actionsSpent`).
    if (!tally.done && actionsSpent(ctx) === undefined && (yield* lookaheadToGoal(ctx, plan))) {
      reason = `${reason}; then look-ahead toward the goal did not end it`;
    }
  }
  if (tally.done) reason = endedBecause(tally);
  const result = finish(ctx, reason);
  yield { type: "stop", success: result.success, reason };
  return result;
}
