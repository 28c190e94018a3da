/**
 * Plan polishing for demonstrations: a satisficing planner's plan may take
 * detours (`move r9 r14`, `move r14 r18` where `move r9 r18` does), and a
 * learner reads every detour as a decision to imitate. Two classic
 * post-processing steps remove them, each keeping the plan valid and its
 * goal reached:
 *
 * - **shortcuts**: where one action leads from a state of the plan to a
 *   later state of it, that action replaces the steps between;
 * - **action elimination** (Nakhost and Müller): an action is dropped, with
 *   the later actions that then no longer apply, when the rest still
 *   reaches the goal.
 *
 * @module
 */
import type { Fact, GroundAction, PddlWorld } from "./world.ts";

/** Options of {@linkcode polishPlan}. */
export interface PolishOptions {
  /** Facts the plan must reach instead of the world's goal. */
  goal?: readonly Fact[];
  /** Longest plan polished (the shortcut search is quadratic in its length). @default 400 */
  maxLength?: number;
  /**
   * Most objects of a problem whose plan is searched for shortcuts (each
   * state's applicable actions are enumerated); larger ones only have
   * actions eliminated. @default 100
   */
  maxShortcutObjects?: number;
}

/**
 * A plan without detours (see the module doc); `plan` itself when it is
 * longer than `maxLength`.
 *
 * @example Usage
 * ```ts ignore
 * const plan = polishPlan(world, world.initial(), planPddl(world)!);
 * ```
 */
export function polishPlan(
  world: PddlWorld,
  start: ReadonlySet<Fact>,
  plan: readonly GroundAction[],
  options: PolishOptions = {},
): GroundAction[] {
  if (plan.length > (options.maxLength ?? 400)) return [...plan];
  const reached = options.goal
    ? (s: ReadonlySet<Fact>) => options.goal!.every((f) => s.has(f))
    : (s: ReadonlySet<Fact>) => world.satisfied(s);
  let current = [...plan];
  const shortcuts = world.objects.size <= (options.maxShortcutObjects ?? 100);
  for (let changed = true; changed;) {
    changed = false;
    const shorter = (shortcuts ? shortcut(world, start, current) : undefined) ??
      eliminate(world, start, current, reached);
    if (shorter) {
      current = shorter;
      changed = true;
    }
  }
  return current;
}

/** The states a plan passes through, `start` first. */
function statesOf(world: PddlWorld, start: ReadonlySet<Fact>, plan: readonly GroundAction[]) {
  const states: ReadonlySet<Fact>[] = [start];
  for (const g of plan) states.push(world.apply(g, states[states.length - 1]));
  return states;
}

function sameState(a: ReadonlySet<Fact>, b: ReadonlySet<Fact>): boolean {
  if (a.size !== b.size) return false;
  for (const f of a) if (!b.has(f)) return false;
  return true;
}

/** The plan with its longest one-action shortcut taken, or `undefined` when there is none. */
function shortcut(
  world: PddlWorld,
  start: ReadonlySet<Fact>,
  plan: readonly GroundAction[],
): GroundAction[] | undefined {
  const states = statesOf(world, start, plan);
  for (let i = 0; i < plan.length - 1; i++) {
    const next = world.applicable(states[i]).map((g) => ({ g, s: world.apply(g, states[i]) }));
    for (let j = plan.length; j >= i + 2; j--) {
      const found = next.find((n) => sameState(n.s, states[j]));
      if (found) return [...plan.slice(0, i), found.g, ...plan.slice(j)];
    }
  }
  return undefined;
}

/** The plan with one action eliminated (and what then no longer applies), or `undefined`. */
function eliminate(
  world: PddlWorld,
  start: ReadonlySet<Fact>,
  plan: readonly GroundAction[],
  reached: (s: ReadonlySet<Fact>) => boolean,
): GroundAction[] | undefined {
  const states = statesOf(world, start, plan);
  for (let i = 0; i < plan.length; i++) {
    let s = states[i];
    const kept: GroundAction[] = [];
    for (let j = i + 1; j < plan.length; j++) {
      if (!world.holds(plan[j], s)) continue;
      s = world.apply(plan[j], s);
      kept.push(plan[j]);
    }
    if (reached(s)) return [...plan.slice(0, i), ...kept];
  }
  return undefined;
}
