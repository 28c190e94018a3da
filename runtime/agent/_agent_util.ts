/**
 * Helpers of the agent: reading rejected actions off run events, relating
 * choices to the objects in focus, and recording failures.
 *
 * @module
 */
import { matchAction } from "../../dsl/action.ts";
import { formatAtom } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { AgentFailure } from "./agent_types.ts";
import type { FactStore } from "../fact_store.ts";
import type { RunEvent, RunResult } from "../exec/interpreter.ts";
import { callKey, type SkillCall } from "../plan/planner.ts";
import type { SkillLibrary } from "../store/library.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { checkPostcondition } from "../exec/postcondition.ts";
import { type firstStep, postconditionStatesQuantity } from "../plan/regression.ts";

/** The record of a failed call: a failure, a verification failure (success without its postcondition) or a stop by the budget. */
export function failureOf(
  call: SkillCall,
  level: number,
  result: RunResult,
  budget: boolean,
  post: string | undefined,
): AgentFailure {
  const base = { skill: call.skill, args: call.args, level };
  if (result.outcome === "success") {
    return {
      ...base,
      kind: "verification",
      message: "The skill ended in success but its postcondition does not hold",
      ...(post !== undefined ? { condition: post } : {}),
    };
  }
  const d = result.diagnosis;
  return {
    ...base,
    kind: budget ? "budget" : "failure",
    message: d?.message ?? "The skill failed",
    ...(d?.node !== undefined ? { node: d.node } : {}),
    ...(d?.condition !== undefined ? { condition: d.condition } : {}),
  };
}

/** The objects (string arguments) of the last rejected action of a run. */
export function rejectedObjects(events: readonly RunEvent[], vocab: Vocabulary): string[] {
  const action = rejectedAction(events);
  return action === undefined ? [] : objectArgs(action, vocab);
}

/** The string arguments of an action. */
export function objectArgs(action: string, vocab: Vocabulary): string[] {
  const match = matchAction(vocab, action);
  return Object.values(match?.args ?? {}).filter((v): v is string => typeof v === "string");
}

/** Whether some fact relates `value` to one of `focus` (both among its arguments). */
export function relatedTo(facts: FactStore, value: string, focus: readonly string[]): boolean {
  if (focus.length === 0 || focus.includes(value)) return false;
  return facts.atomsAbout(value).some((atom) =>
    atom.args.some((a) => typeof a === "string" && focus.includes(a))
  );
}

/** The last rejected action of a run. */
export function rejectedAction(events: readonly RunEvent[]): string | undefined {
  const last = events.findLast((e) => e.type === "observe" && e.rejected !== undefined);
  return last?.type === "observe" ? last.action : undefined;
}

/** The call depth of the run's own skill (its events include those of the skills it called). */
function ownDepth(events: readonly RunEvent[]): number {
  return events.find((e) => e.type === "start")?.depth ?? 0;
}

/** The last rejected action the run's own skill sent (not a skill it called). */
export function ownRejectedAction(events: readonly RunEvent[]): string | undefined {
  const depth = ownDepth(events);
  const last = events.findLast((e) =>
    e.type === "observe" && e.rejected !== undefined && e.depth === depth
  );
  return last?.type === "observe" ? last.action : undefined;
}

/**
 * The call the run's own skill made last that failed, with its arguments:
 * the direct child (depth one below the run's) whose failure ended the run.
 */
export function failedInnerCall(
  events: readonly RunEvent[],
): SkillCall | undefined {
  const depth = ownDepth(events);
  const end = events.findLastIndex((e) =>
    e.type === "end" && e.depth === depth + 1 && e.outcome === "failure"
  );
  if (end < 0) return undefined;
  for (let i = end; i >= 0; i--) {
    const e = events[i];
    if (e.type === "start" && e.depth === depth + 1) return { skill: e.skill, args: { ...e.args } };
  }
  return undefined;
}

/** The last rejected action of the run's own skill that named `object`. */
function lastRejection(
  events: readonly RunEvent[],
  object: string,
  vocab: Vocabulary,
): Extract<RunEvent, { type: "observe" }> | undefined {
  const depth = ownDepth(events);
  const hit = events.findLast((e) =>
    e.type === "observe" && e.rejected !== undefined && e.depth === depth &&
    Object.values(matchAction(vocab, e.action)?.args ?? {}).includes(object)
  );
  return hit?.type === "observe" ? hit : undefined;
}

/** The node of the run's own skill whose last rejected action named `object`. */
export function rejectedNodeFor(
  events: readonly RunEvent[],
  object: string,
  vocab: Vocabulary,
): string | undefined {
  return lastRejection(events, object, vocab)?.node;
}

/** The last rejected action of the run's own skill that named `object`. */
export function rejectedActionFor(
  events: readonly RunEvent[],
  object: string,
  vocab: Vocabulary,
): string | undefined {
  return lastRejection(events, object, vocab)?.action;
}

/** The facts that mention `object`, as one canonical text (to tell whether they changed). */
export function factsAbout(facts: FactStore, object: string): string {
  return facts.atoms().filter((a) => a.args.includes(object)).map(formatAtom).sort().join("; ");
}

/** `node (object, ...); ...`, for the trace. */
export function describeTolerated(tolerated: ReadonlyMap<string, ReadonlySet<string>>): string {
  return [...tolerated].map(([node, objects]) => `${node} (${[...objects].join(", ")})`).join("; ");
}

/**
 * Whether the run made `first` (a dry run's next step) succeed and its
 * effect is gone since: a call whose postcondition no longer holds (or
 * states a quantity, which may have dropped below what the caller needs
 * although some is left), an action a fact it added no longer holds of.
 */
export function undone(
  first: NonNullable<ReturnType<typeof firstStep>>,
  events: readonly RunEvent[],
  library: SkillLibrary,
  facts: FactStore,
): boolean {
  if (first.kind === "call") {
    const callee = library.get(first.skill);
    const key = callKey(first);
    const open: SkillCall[] = [];
    let made = false;
    for (const e of events) {
      if (e.type === "start") open[e.depth] = { skill: e.skill, args: e.args };
      else if (e.type === "end" && e.outcome === "success" && open[e.depth]) {
        if (callKey(open[e.depth]) === key) made = true;
      }
    }
    return made && callee !== undefined &&
      (postconditionStatesQuantity(callee) || !checkPostcondition(callee, first.args, facts).holds);
  }
  const done = events.findLast((e) =>
    e.type === "observe" && e.rejected === undefined && e.action === first.action
  );
  return done?.type === "observe" && done.delta.add.some((a) => !facts.has(a));
}

/**
 * Whether a skill has no way to end in success: it runs until the
 * environment ends the task (a decision list: in each state the first rule
 * that applies acts).
 */
export function runsUntilTheTaskEnds(skill: Skill): boolean {
  return !skill.nodes.some((n) => n.kind === "terminal" && n.outcome === "success");
}
