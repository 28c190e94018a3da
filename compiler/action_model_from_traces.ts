/**
 * Learning an action model from recorded traces: every step, grounded (with
 * hindsight), is a transition: the state before, the action, whether the
 * environment accepted it, and its fact change.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { ActionModel, type Transition } from "../runtime/learn/action_model.ts";
import { type GroundedTrace, groundTrace } from "./ground.ts";

/**
 * The transitions of grounded traces.
 *
 * @example Usage
 * ```ts ignore
 * const model = learnActionModelFromTraces(traces, kit);
 * ```
 */
export function transitionsOf(traces: readonly Trace[], kit: EnvironmentKit): Transition[] {
  return transitionsOfGrounded(traces.map((t) => groundTrace(t, kit.grounder())));
}

/** The transitions of traces already grounded. */
function transitionsOfGrounded(grounded: readonly GroundedTrace[]): Transition[] {
  const out: Transition[] = [];
  for (const g of grounded) {
    g.steps.forEach((s, i) => {
      out.push({
        facts: g.states[i],
        action: s.action,
        ok: s.rejected === undefined,
        ...(s.rejected === undefined ? { delta: s.delta } : {}),
      });
    });
  }
  return out;
}

/**
 * Learns an action model from the steps of recorded traces, starting from
 * the rules the kit states (`kit.actionRules`) when it states some (a kit
 * may be told to state none, e.g. a PDDL kit with `rules: "learned"`).
 */
export function learnActionModelFromTraces(
  traces: readonly Trace[],
  kit: EnvironmentKit,
): ActionModel {
  return learnFrom(transitionsOf(traces, kit), kit);
}

/** {@linkcode learnActionModelFromTraces} for traces already grounded. */
export function learnActionModelFromGrounded(
  grounded: readonly GroundedTrace[],
  kit: EnvironmentKit,
): ActionModel {
  return learnFrom(transitionsOfGrounded(grounded), kit);
}

/**
 * The transitions explored traces teach: the last step of each (a
 * demonstration's prefix, then an action tried; see `explore_actions.ts`),
 * whose prefix the demonstrations already gave.
 */
export function exploredTransitions(
  explored: readonly Trace[],
  kit: EnvironmentKit,
): Transition[] {
  const grounder = kit.grounder();
  return explored.flatMap((t) => transitionsOfGrounded([groundTrace(t, grounder)]).slice(-1));
}

function learnFrom(transitions: Transition[], kit: EnvironmentKit): ActionModel {
  const stated = kit.actionRules?.();
  if (!stated) return ActionModel.learn(kit.vocabulary, transitions);
  return ActionModel.fromJSON(stated, kit.vocabulary).update(transitions);
}
