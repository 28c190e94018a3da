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
import {
  actionText,
  bindingOf,
  type Fact,
  type GroundAction,
  groundAtom,
  type PddlWorld,
} from "./world.ts";

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

/** Whether two states hold the same facts. */
export function sameState(a: ReadonlySet<Fact>, b: ReadonlySet<Fact>): boolean {
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
  // No action changes more facts than it has effects.
  const most = Math.max(0, ...world.domain.actions.map((a) => a.add.length + a.del.length));
  const steps = plan.map((_, k) => change(states[k], states[k + 1]));
  for (let i = 0; i < plan.length - 1; i++) {
    // What each later state differs from this one in, kept step by step
    // (where it is little enough for one action to do).
    const plus = new Set<Fact>();
    const minus = new Set<Fact>();
    const apart: (Change | undefined)[] = [];
    for (let j = i + 1; j <= plan.length; j++) {
      for (const f of steps[j - 1].deleted) if (!plus.delete(f)) minus.add(f);
      for (const f of steps[j - 1].added) if (!minus.delete(f)) plus.add(f);
      apart[j] = plus.size + minus.size <= most
        ? { added: [...plus], deleted: [...minus] }
        : undefined;
    }
    // The applicable actions, where needed, once per state.
    let listed: GroundAction[] | undefined;
    const applicable = () => listed ??= world.applicable(states[i]);
    for (let j = plan.length; j >= i + 2; j--) {
      const diff = apart[j];
      const found = diff && oneStep(world, states[i], states[j], diff, applicable);
      if (found) return [...plan.slice(0, i), found, ...plan.slice(j)];
    }
  }
  return undefined;
}

/** The facts one state has and another has not, each way. */
interface Change {
  added: Fact[];
  deleted: Fact[];
}

function change(from: ReadonlySet<Fact>, to: ReadonlySet<Fact>): Change {
  const added: Fact[] = [];
  const deleted: Fact[] = [];
  for (const f of to) if (!from.has(f)) added.push(f);
  for (const f of from) if (!to.has(f)) deleted.push(f);
  return { added, deleted };
}

/**
 * The first action, in the order of `applicable()` (the actions applicable
 * in `from`), that leads from `from` to `to`, which differ by `diff`. Found from the difference:
 * an action's effects must make every change, so its parameters are bound
 * by matching effects to changed facts (the others from `from`, as its
 * applicable actions are found), and only those actions are tried, not
 * every applicable one (an untyped grid's `unlock` has thousands of
 * bindings per state).
 */
function oneStep(
  world: PddlWorld,
  from: ReadonlySet<Fact>,
  to: ReadonlySet<Fact>,
  diff: Change,
  applicable: () => readonly GroundAction[],
): GroundAction | undefined {
  // No change: an action that changes nothing, as the applicable ones tell.
  if (diff.added.length + diff.deleted.length === 0) {
    return applicable().find((g) => sameState(world.apply(g, from), to));
  }
  // Only applicable actions are tried (`applicableWith`, below).
  const leads = (g: GroundAction) => {
    const binding = bindingOf(g);
    const adds = new Set(g.action.add.map((a) => groundAtom(a, binding)));
    const dels = new Set(g.action.del.map((a) => groundAtom(a, binding)));
    for (const a of adds) dels.delete(a);
    return [...adds].every((a) => to.has(a)) && [...dels].every((d) => !to.has(d)) &&
      diff.added.every((a) => adds.has(a)) && diff.deleted.every((d) => dels.has(d));
  };
  const changes = [
    ...diff.added.map((f) => ({ fact: f.split(" "), add: true })),
    ...diff.deleted.map((f) => ({ fact: f.split(" "), add: false })),
  ];
  const found: GroundAction[] = [];
  const seen = new Set<string>();
  for (const action of world.domain.actions) {
    for (const binding of explaining(action, changes, 0, new Map())) {
      for (const g of world.applicableWith(action, binding, from)) {
        const key = actionText(g);
        if (seen.has(key) || !leads(g)) continue;
        seen.add(key);
        found.push(g);
      }
    }
  }
  if (found.length <= 1) return found[0];
  // Several lead there (an argument no effect names): the first the
  // applicable ones list, as a search of them all would find.
  const keys = new Set(found.map(actionText));
  return applicable().find((g) => keys.has(actionText(g)));
}

/**
 * The bindings of `action`'s parameters under which an effect of it makes
 * each of `changes` from the `k`-th on (an added fact by an add effect, a
 * deleted one by a delete effect).
 */
function* explaining(
  action: GroundAction["action"],
  changes: readonly { fact: string[]; add: boolean }[],
  k: number,
  binding: Map<string, string>,
): Generator<Map<string, string>> {
  if (k === changes.length) {
    yield new Map(binding);
    return;
  }
  const [pred, ...args] = changes[k].fact;
  for (const effect of changes[k].add ? action.add : action.del) {
    if (effect.pred !== pred || effect.args.length !== args.length) continue;
    const set: string[] = [];
    const fits = effect.args.every((term, i) => {
      if (!term.startsWith("?")) return term === args[i];
      const bound = binding.get(term);
      if (bound !== undefined) return bound === args[i];
      binding.set(term, args[i]);
      set.push(term);
      return true;
    });
    if (fits) yield* explaining(action, changes, k + 1, binding);
    for (const term of set) binding.delete(term);
  }
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
