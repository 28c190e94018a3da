/**
 * Grounding whole traces: the grounder turns the first observation and each
 * (action, observation) into fact changes, giving the state sequence
 * `s_0, a_0, s_1, ..., s_H` that induction works on.
 *
 * The grounder is always asked, even when a step records `facts`: skills
 * are later run with the same grounder, so induction must see exactly the
 * facts the runtime will see.
 *
 * @module
 */
import type { FactDelta } from "../dsl/facts.ts";
import type { Trace } from "../dsl/trace.ts";
import type { Grounder } from "../runtime/environment.ts";
import { FactStore } from "../runtime/fact_store.ts";

/** One grounded step. */
export interface GroundedStep {
  /** The action sent. */
  action: string;
  /** The observation received. */
  observation: string;
  /** The grounder's fact change for this step. */
  delta: FactDelta;
  /** Set when the observation says the action was rejected: the reason. */
  rejected?: string;
  /** The trace step's annotations (e.g. `think:` lines), when any. */
  annotations?: string[];
}

/** A trace with its state sequence. */
export interface GroundedTrace {
  /** The trace grounded. */
  trace: Trace;
  /**
   * `states[0]`: the facts of the first observation and goal;
   * `states[i + 1]`: the facts after step `i`. Each is an independent store.
   */
  states: FactStore[];
  /** The grounded steps, one per trace step. */
  steps: GroundedStep[];
  /** Observation text the grounder did not understand; step -1 is the first observation. */
  unknown: { step: number; text: string }[];
}

/**
 * Grounds a whole trace: `states.length === steps.length + 1`.
 *
 * @param trace The trace.
 * @param grounder The environment's grounder.
 * @returns The states, grounded steps and any text the grounder did not understand.
 *
 * @example Usage
 * ```ts
 * import { groundTrace } from "./ground.ts";
 * import type { Grounder } from "../runtime/environment.ts";
 * const grounder: Grounder = {
 *   initial: () => ({ delta: { add: [{ pred: "started", args: [] }], remove: [] } }),
 *   step: (_facts, action) => ({ delta: { add: [{ pred: "done", args: [action] }], remove: [] } }),
 * };
 * const trace = {
 *   format: "skillc/trace@1" as const, env: "demo", task: {}, goal: "g", initial: "i",
 *   steps: [{ action: "wave", observation: "You wave." }],
 * };
 * const g = groundTrace(trace, grounder);
 * console.log(g.states.length, g.states[1].has({ pred: "done", args: ["wave"] })); // 2 true
 * ```
 */
export function groundTrace(trace: Trace, grounder: Grounder): GroundedTrace {
  const store = new FactStore();
  const unknown: GroundedTrace["unknown"] = [];
  const first = grounder.initial(trace.initial, trace.goal);
  store.apply(first.delta);
  for (const text of first.unknown ?? []) unknown.push({ step: -1, text });
  const states = [store.clone()];
  const steps: GroundedStep[] = [];
  trace.steps.forEach((s, i) => {
    // What the step's success proves about the state before it.
    const repair = grounder.hindsight?.(store, s.action, s.observation);
    if (repair && (repair.add.length > 0 || repair.remove.length > 0)) {
      store.apply(repair);
      states[i] = store.clone();
    }
    const g = grounder.step(store, s.action, s.observation);
    // A step that changed nothing shares the state before it: states are
    // never modified, and a long run of such steps must not cost a copy each.
    states.push(store.apply(g.delta) ? store.clone() : states[states.length - 1]);
    const step: GroundedStep = { action: s.action, observation: s.observation, delta: g.delta };
    if (g.rejected !== undefined) step.rejected = g.rejected;
    if (s.annotations?.length) step.annotations = [...s.annotations];
    steps.push(step);
    for (const text of g.unknown ?? []) unknown.push({ step: i, text });
  });
  return { trace, states, steps, unknown };
}

/**
 * Indices of the steps the environment accepted (not rejected).
 *
 * @example Usage
 * ```ts ignore
 * acceptedSteps(groundTrace(trace, grounder)); // [0, 2, 3] when step 1 was rejected
 * ```
 */
export function acceptedSteps(g: GroundedTrace): number[] {
  return g.steps.flatMap((s, i) => s.rejected === undefined ? [i] : []);
}

/**
 * Makes equal states of grounded traces one object (states are never
 * modified): a demonstration recorded twice then shares its states, so
 * whatever induction remembers per state (literals, truths) serves both,
 * and its segments are recognisably copies (see `copyClasses`).
 * States are equal when their objects and atoms are, in the same order.
 *
 * @example Usage
 * ```ts ignore
 * const grounded = shareStates(traces.map((t) => groundTrace(t, kit.grounder())));
 * ```
 */
export function shareStates(grounded: GroundedTrace[]): GroundedTrace[] {
  const canonical = new Map<string, FactStore>();
  const canonicalOf = new Map<FactStore, FactStore>();
  for (const g of grounded) {
    g.states = g.states.map((state) => {
      const known = canonicalOf.get(state);
      if (known) return known;
      const key = JSON.stringify(state.toJSON());
      const first = canonical.get(key) ?? state;
      canonical.set(key, first);
      canonicalOf.set(state, first);
      return first;
    });
  }
  return grounded;
}
