/**
 * Pending objects: what the goal still asks something of. An object is
 * **pending** when a goal atom that names it does not hold yet
 * (`goal_at(x, l)` and not `at(x, l)`, `goal_holding(x)` and not
 * `holding(x)`): the objects still to be worked on, whatever their kind and
 * whichever relation the goal asks of each. A few small demonstrations
 * otherwise tell them apart by the kinds they happened to show (the pawn
 * moved, not the bear).
 *
 * In the expression language a pending `x` is a disjunction, one part per
 * goal relation and argument position of `x`'s type.
 *
 * @module
 */
import { isAssignable, type Vocabulary } from "../../dsl/vocabulary.ts";
import { freshName, type StateIndex } from "./conjunction.ts";
import { type GoalRelation, goalRelations } from "./goals.ts";
import type { GroundedTrace } from "../ground.ts";

/** The predicate of a pending literal (one argument). */
export const PENDING = "pending:";

/** A goal relation with its arguments' types. */
export interface PendingGoal extends GoalRelation {
  params: string[];
  /**
   * Relations whose goal atoms every demonstration achieved before any of
   * this one's: an atom of this relation is pending only once none of
   * theirs is (what the goal wants held is picked up last).
   */
  after?: PendingGoal[];
}

/**
 * The goal relations of a vocabulary with their arguments' types (see
 * {@linkcode goalRelations}).
 */
export function pendingGoals(vocab: Vocabulary): PendingGoal[] {
  return goalRelations(vocab)
    .filter((r) => vocab.predicates[r.pred].params.length > 0)
    .map((r) => ({ ...r, params: [...vocab.predicates[r.pred].params] }));
}

/**
 * The goal relations with the order the demonstrations kept between them:
 * a relation comes `after` another when, in every demonstration whose goal
 * asks for both, each of its goal atoms became true after the last of the
 * other's did (and at least one demonstration asks for both).
 */
export function orderGoals(
  goals: readonly PendingGoal[],
  traces: readonly GroundedTrace[],
): PendingGoal[] {
  // For each trace and relation: the steps at which one of its goal atoms became true.
  const achieved = traces.map((t) => {
    const steps = new Map<string, number[]>();
    for (const g of goals) {
      const asked = t.states[0].query(g.goal, g.params.map(() => null));
      const list: number[] = [];
      t.states.slice(1).forEach((state, i) => {
        const before = t.states[i];
        if (
          asked.some((a) =>
            state.has({ pred: g.pred, args: a.args }) &&
            !before.has({ pred: g.pred, args: a.args })
          )
        ) list.push(i);
      });
      if (asked.length > 0) steps.set(g.goal, list);
    }
    return steps;
  });
  const before = (a: PendingGoal, b: PendingGoal): boolean => {
    let shown = false;
    for (const steps of achieved) {
      const sa = steps.get(a.goal);
      const sb = steps.get(b.goal);
      if (!sa?.length || !sb?.length) continue;
      if (Math.max(...sb) >= Math.min(...sa)) return false;
      shown = true;
    }
    return shown;
  };
  return goals.map((g) => {
    const after = goals.filter((o) => o !== g && before(g, o));
    return after.length > 0 ? { ...g, after } : g;
  });
}

/** `g`'s goal atom over `args` that does not hold, as text. */
function unmet(g: PendingGoal, args: readonly string[]): string {
  return `${g.goal}(${args.join(", ")}) and not ${g.pred}(${args.join(", ")})`;
}

/** Whether some goal atom of `g` does not hold in `state`. */
function unachieved(g: PendingGoal, state: StateIndex): boolean {
  return state.atoms(g.goal, g.params.map(() => undefined)).some((args) =>
    !state.has(g.pred, args)
  );
}

/** Whether a goal atom naming `x` does not hold in `state`. */
export function pending(goals: readonly PendingGoal[], state: StateIndex, x: string): boolean {
  for (const g of goals) {
    if (g.after?.some((b) => unachieved(b, state))) continue;
    for (let j = 0; j < g.params.length; j++) {
      const pattern: (string | undefined)[] = g.params.map(() => undefined);
      pattern[j] = x;
      for (const args of state.atoms(g.goal, pattern)) {
        if (!state.has(g.pred, args)) return true;
      }
    }
  }
  return false;
}

/**
 * The expression of "`x` is pending", `x` a variable name of type `type`,
 * or with `negated` of "`x` is not pending"; `taken` are names the
 * expression must not rebind.
 */
export function pendingText(
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  x: string,
  type: string,
  taken: readonly string[],
  negated = false,
): string {
  const parts: string[] = [];
  for (const g of goals) {
    g.params.forEach((t, j) => {
      if (!isAssignable(vocab, type, t) && !isAssignable(vocab, t, type)) return;
      const others = g.params.map((p, i) => i === j ? undefined : p);
      // An object of a wider type than the relation's place stands there
      // as one of the narrower type (a surface that is a crate).
      const cast = isAssignable(vocab, type, t) ? undefined : freshName("c", [...taken, x]);
      const self = cast ?? x;
      const names = others.map((_, i) =>
        i === j ? self : freshName(`y${i}`, [...taken, x, ...(cast ? [cast] : [])])
      );
      // The relations to achieve first: none of their goal atoms is left.
      const first = (g.after ?? []).map((b) => {
        const zs = b.params.map((_, i) => freshName(`z${i}`, [...taken, x, ...names]));
        return ` and not ${
          zs.reduceRight((inner, z, i) => `exists(${z}: ${b.params[i]}, ${inner})`, unmet(b, zs))
        }`;
      }).join("");
      const atom = `${unmet(g, names)}${first}`;
      const bound = others.flatMap((p, i) => p === undefined ? [] : [`${names[i]}: ${p}`]);
      const part = bound.reduceRight((body, b) => `exists(${b}, ${body})`, atom);
      parts.push(cast ? `exists(${cast}: ${t}, ${cast} == ${x} and ${part})` : part);
    });
  }
  const text = parts.length === 0 ? "false" : parts.map((p) => `(${p})`).join(" or ");
  return negated ? `not (${text})` : `(${text})`;
}
