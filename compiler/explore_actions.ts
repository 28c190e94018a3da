/**
 * Exploring the actions no demonstration used. Three small problems may
 * never need an action a larger one does (a block unstacked, a truck
 * driven), and an action model learned from the demonstrations alone then
 * knows nothing of it: no look-ahead can use it. Before compiling, the
 * demonstrations' own problems are replayed and, in their states, such
 * actions are tried on the objects at hand; the uses the environment
 * accepts become short traces (the demonstration's prefix, then the tried
 * action) that the action model learns from. A demonstration's last state
 * takes no action (its episode is over), so where an action no try was
 * accepted for is left, the states one or two demonstrated actions off the
 * plan are tried as well. Skills and policies are still induced from the
 * demonstrations alone.
 *
 * @module
 */
import { matchAction, renderAction } from "../dsl/action.ts";
import type { Trace, TraceStep } from "../dsl/trace.ts";
import type { Environment, EnvironmentKit } from "../runtime/environment.ts";
import type { FactStore } from "../runtime/fact_store.ts";
import { relatedGroundings } from "../runtime/learn/related_groundings.ts";
import { groundTrace } from "./ground.ts";

/** Options of {@linkcode exploreUnusedActions}. */
export interface ExploreOptions {
  /** Options passed to `kit.create` and `kit.grounder`. @default {} */
  envOptions?: Record<string, unknown>;
  /** Accepted uses gathered per action. @default 8 */
  uses?: number;
  /**
   * Tries per action over all states, accepted or not; also the budget of
   * demonstrated actions sent off the plan. @default 400
   */
  tries?: number;
  /** Accepted uses of one action taken from one state. @default 2 */
  usesPerState?: number;
}

/** What {@linkcode exploreUnusedActions} found. */
export interface Exploration {
  /** One trace per accepted use: a demonstration's prefix, then the action. */
  traces: Trace[];
  /** Per action no demonstration used: uses accepted and tries made. */
  actions: { action: string; uses: number; tries: number }[];
}

/**
 * Tries the actions no demonstration used in the demonstrations' states.
 * Each trace's task is reset on a fresh environment and its actions
 * replayed; at every state, each such action is tried on the typed objects
 * the state knows, up to the budgets. An accepted use changes the state,
 * so the task is then reset and the prefix replayed before the next try.
 *
 * @param kit The environment kit (it must create environments).
 * @param traces The demonstrations; each needs the `task.id` it was reset with.
 * @returns The accepted uses as traces and a summary per action.
 *
 * @example Usage
 * ```ts ignore
 * const explored = await exploreUnusedActions(kit, traces, { envOptions: { rules: "learned" } });
 * const compiled = compileTraces(traces, kit, { explored: explored.traces });
 * ```
 */
export async function exploreUnusedActions(
  kit: EnvironmentKit,
  traces: readonly Trace[],
  options: ExploreOptions = {},
): Promise<Exploration> {
  const { envOptions = {}, uses = 8, tries = 400, usesPerState = 2 } = options;
  const vocab = kit.vocabulary;
  const grounder = kit.grounder(envOptions);
  const used = new Set<string>();
  for (const t of traces) {
    for (const s of t.steps) {
      const name = matchAction(vocab, s.action)?.action;
      if (name !== undefined) used.add(name);
    }
  }
  const unused = Object.entries(vocab.actions).filter(([name]) => !used.has(name));
  const tally = new Map(unused.map(([name]) => [name, { uses: 0, tries: 0 }]));
  const out: Trace[] = [];
  const open = () => unused.some(([name]) => needs(name));
  const needs = (name: string) => {
    const t = tally.get(name)!;
    return t.uses < uses && t.tries < tries;
  };
  const demonstrated = Object.entries(vocab.actions).filter(([name]) => used.has(name));
  const aside = { sends: 0 };
  // First the demonstrations' states; then, while an action no try was
  // accepted for is left, the states one or two demonstrated actions off
  // them (a block stacked elsewhere than the plan did, to be unstacked).
  for (const offPlan of [false, true]) {
    for (const trace of traces) {
      if (!open() || trace.task.id === undefined) continue;
      if (offPlan && !unused.some(([name]) => tally.get(name)!.uses === 0 && needs(name))) break;
      await walk(trace, trace.task.id, offPlan);
    }
  }
  return {
    traces: out,
    actions: unused.map(([action]) => ({ action, ...tally.get(action)! })),
  };

  async function walk(trace: Trace, id: string, offPlan: boolean): Promise<void> {
    const task = { id, ...(trace.task.seed !== undefined ? { seed: trace.task.seed } : {}) };
    let env: Environment = kit.create(envOptions);
    // Back to the state after `prefix`: an accepted try changed it.
    const restore = async (prefix: readonly TraceStep[]) => {
      await env.close?.();
      env = kit.create(envOptions);
      await env.reset(task);
      for (const s of prefix) await env.step(s.action);
    };
    // Sends `action` in the state after `prefix` (`facts`): the step and
    // the state after it when the environment accepted it and it changed
    // something (a truck driven where it stands teaches no effect, and a
    // search would try it everywhere).
    const send = async (prefix: readonly TraceStep[], facts: FactStore, action: string) => {
      const { observation, reward, done } = await env.step(action);
      const g = grounder.step(facts, action, observation);
      if (g.rejected !== undefined && !done) return undefined;
      if (g.delta.add.length === 0 && g.delta.remove.length === 0 && !done) return undefined;
      const after = facts.clone();
      after.apply(g.delta);
      return { steps: [...prefix, { action, observation, reward, done }], after, done };
    };
    // Tries the unused actions in the state after `prefix`; from a state
    // an accepted try reached, once more (what a truck loaded lets
    // unload), then back.
    const explore = async (prefix: TraceStep[], facts: FactStore, depth: number) => {
      for (const [name, decl] of unused) {
        let taken = 0;
        for (const args of relatedGroundings(decl.params, facts, vocab)) {
          if (!needs(name) || taken >= usesPerState) break;
          tally.get(name)!.tries++;
          const sent = await send(prefix, facts, renderAction(decl, args));
          if (!sent) continue;
          tally.get(name)!.uses++;
          taken++;
          out.push({
            ...trace,
            steps: sent.steps,
            success: false,
            source: `exploration of ${name} in ${id}`,
          });
          if (depth < 2 && !sent.done && open()) await explore(sent.steps, sent.after, depth + 1);
          await restore(prefix);
        }
      }
    };
    // Demonstrated actions other than the plan's, up to two in a row (a
    // block picked up and stacked where the plan did not), each followed
    // by the unused ones; out of one budget of sends for all the problems.
    const stepAside = async (prefix: TraceStep[], facts: FactStore, depth: number) => {
      let taken = 0;
      for (const [, decl] of demonstrated) {
        for (const args of relatedGroundings(decl.params, facts, vocab)) {
          if (taken >= usesPerState || aside.sends >= tries || !open()) return;
          const action = renderAction(decl, args);
          if (action === trace.steps[prefix.length]?.action) continue;
          aside.sends++;
          const sent = await send(prefix, facts, action);
          if (!sent) continue;
          if (!sent.done) {
            taken++;
            await explore(sent.steps, sent.after, 2);
            if (depth < 2) await stepAside(sent.steps, sent.after, depth + 1);
          }
          await restore(prefix);
        }
      }
    };
    try {
      const grounded = groundTrace(trace, grounder);
      await env.reset(task);
      for (let i = 0; i <= trace.steps.length && open(); i++) {
        const prefix = trace.steps.slice(0, i);
        if (offPlan) await stepAside(prefix, grounded.states[i], 1);
        else await explore(prefix, grounded.states[i], 1);
        if (i < trace.steps.length) {
          const { done } = await env.step(trace.steps[i].action);
          if (done) break;
        }
      }
    } finally {
      await env.close?.();
    }
  }
}

/**
 * One line on an exploration: each action no demonstration used, with its
 * accepted uses and tries.
 *
 * @example Usage
 * ```ts
 * import { describeExploration } from "./explore_actions.ts";
 * console.log(describeExploration({ traces: [], actions: [{ action: "unstack", uses: 8, tries: 30 }] }));
 * // explored what no demonstration did: unstack accepted 8 of 30 tries
 * ```
 */
export function describeExploration(exploration: Exploration): string {
  if (exploration.actions.length === 0) return "every action was demonstrated: nothing to explore";
  return `explored what no demonstration did: ${
    exploration.actions.map((a) => `${a.action} accepted ${a.uses} of ${a.tries} tries`).join(", ")
  }`;
}
