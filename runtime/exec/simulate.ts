/**
 * A run played out in a model of the world instead of the environment: the
 * pure {@linkcode step} with each action's effects predicted by an action
 * model and applied to a copy of the facts. It tells where a way of going on
 * leads (the goal, a dead end where the skill fails, or somewhere the model
 * cannot say) before the agent commits to it.
 *
 * @module
 */
import type { FactDelta, FactView } from "../../dsl/facts.ts";
import type { FactStore } from "../fact_store.ts";
import type { Program } from "./program.ts";
import { type Budgets, resume, type RunState, step, type StepContext } from "./step.ts";

/** Where a simulated run ended. */
export type SimulationEnd =
  /** The goal holds. */
  | "goal"
  /**
   * The skill failed (no rule applies, a check ruled it out) before the
   * goal held, or the goal can no longer hold.
   */
  | "dead end"
  /**
   * The model cannot tell: an action it has no effects for, a skill call, a
   * state seen before (the real agent breaks such cycles), or the action
   * budget spent.
   */
  | "unknown";

/** What a simulation needs. */
export interface SimulationOptions {
  /** Predicts an action's fact change; `undefined` when it cannot. */
  predict(facts: FactView, action: string): FactDelta | undefined;
  /** Whether the goal holds in `facts`. */
  goal(facts: FactView): boolean;
  /**
   * Whether the goal can no longer hold from `facts` (an atom it forbids
   * made true for good): the way is then a dead end.
   */
  doomed?(facts: FactView): boolean;
  /** Simulated actions at most. */
  maxActions: number;
  /** Picks among several `select_one` candidates; the first otherwise. */
  choose?: StepContext["choose"];
  budgets?: Partial<Budgets>;
}

/** How a simulated run ended, and the actions it simulated. */
export interface Simulation {
  end: SimulationEnd;
  actions: number;
  /**
   * The run came back to facts it had already reached (an `"unknown"` end):
   * a skill that decides by the facts alone would go round again.
   */
  cycle?: boolean;
}

/**
 * Plays `program` on from `state` in `facts` (changed in place: pass a
 * copy), each action's effects predicted.
 *
 * @example Usage
 * ```ts ignore
 * const { end } = simulate(program, state, facts.clone(), {
 *   predict: (f, a) => model.predict(f, a),
 *   goal: (f) => f.has({ pred: "at", args: ["home"] }),
 *   maxActions: 30,
 * });
 * ```
 */
export function simulate(
  program: Program,
  state: RunState,
  facts: FactStore,
  options: SimulationOptions,
): Simulation {
  // Without a chooser `select_one` takes its first candidate, as it finds it.
  const ctx: StepContext = {
    facts,
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.choose ? { choose: options.choose } : {}),
  };
  const seen = new Set<string>([facts.fingerprint()]);
  let actions = 0;
  let outcome = step(program, state, ctx);
  while (true) {
    switch (outcome.kind) {
      case "think":
        outcome = step(program, outcome.state, ctx);
        break;
      case "call":
        return { end: "unknown", actions };
      case "end": {
        const end = outcome.outcome === "failure"
          ? "dead end"
          : options.goal(facts)
          ? "goal"
          : "unknown";
        return { end, actions };
      }
      case "act": {
        const delta = options.predict(facts, outcome.action);
        if (delta === undefined) return { end: "unknown", actions };
        facts.apply(delta);
        actions++;
        if (options.goal(facts)) return { end: "goal", actions };
        if (options.doomed?.(facts)) return { end: "dead end", actions };
        const key = facts.fingerprint();
        if (seen.has(key)) return { end: "unknown", actions, cycle: true };
        if (actions >= options.maxActions) return { end: "unknown", actions };
        seen.add(key);
        const next = resume(program, outcome.state, { ok: true });
        outcome = next.kind === "continue" ? step(program, next.state, ctx) : next;
        break;
      }
    }
  }
}
