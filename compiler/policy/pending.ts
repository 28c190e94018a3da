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

/** The predicate of a pending literal (one argument). */
export const PENDING = "pending:";

/** A goal relation with its arguments' types. */
export interface PendingGoal extends GoalRelation {
  params: string[];
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

/** Whether a goal atom naming `x` does not hold in `state`. */
export function pending(goals: readonly PendingGoal[], state: StateIndex, x: string): boolean {
  for (const g of goals) {
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
      const names = others.map((_, i) => i === j ? x : freshName(`y${i}`, [...taken, x]));
      const atom = `${g.goal}(${names.join(", ")}) and not ${g.pred}(${names.join(", ")})`;
      const bound = others.flatMap((p, i) => p === undefined ? [] : [`${names[i]}: ${p}`]);
      parts.push(bound.reduceRight((body, b) => `exists(${b}, ${body})`, atom));
    });
  }
  const text = parts.length === 0 ? "false" : parts.map((p) => `(${p})`).join(" or ");
  return negated ? `not (${text})` : `(${text})`;
}
