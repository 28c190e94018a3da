/**
 * Supplies: what an agent holds that an action uses up, one for each goal
 * atom the action achieves (a spanner, which tightening a nut wears out).
 * A holder has **enough** when it holds at least as many usable things as
 * the goal still asks of the action: the demonstrations, with one nut
 * each, went on as soon as the man carried a spanner; a larger problem
 * with three nuts at the end of a one-way path needs three.
 *
 * In the expression language `enough(m)` is a comparison of two counts:
 * `len(select_all(x: spanner, carrying(m, x) and usable(x))) >=
 * len(select_all(n: nut, goal_tightened(n) and not tightened(n)))`.
 *
 * @module
 */
import { freshName, type StateIndex } from "./conjunction.ts";
import type { GoalRelation } from "./goals.ts";

/** The predicate of an enough literal (one argument, the holder): `enough:<supply index>`. */
export const ENOUGH = "enough:";

/** What a holder holds and an action uses up, and the goal relation each use achieves. */
export interface Supply {
  /** The relation of holder and thing held (`carrying`). */
  holds: string;
  /** The holder's position in it (0 of `carrying(m, s)`); the thing's is the other. */
  holder: number;
  /** The property the action takes away from the thing it uses (`usable`). */
  usable: string;
  /** The type of the things held. */
  type: string;
  /** The one-argument goal relation each use achieves (`tightened`, `goal_tightened`). */
  goal: GoalRelation;
  /** The type of the objects the goal relation is asked of. */
  goalType: string;
}

/** Whether `holder` holds at least as many usable things as the goal still asks. */
export function enough(supply: Supply, state: StateIndex, holder: string): boolean {
  const pattern = supply.holder === 0 ? [holder, undefined] : [undefined, holder];
  let have = 0;
  for (const args of state.atoms(supply.holds, pattern)) {
    if (state.has(supply.usable, [args[1 - supply.holder]])) have++;
  }
  let need = 0;
  for (const [x] of state.atoms(supply.goal.goal, [undefined])) {
    if (!state.has(supply.goal.pred, [x])) need++;
  }
  return have >= need;
}

/** An enough literal as an expression over the holder's name (`names` are taken). */
export function enoughText(
  supply: Supply,
  holder: string,
  names: readonly string[],
  negated: boolean,
): string {
  const x = freshName("h", names);
  const n = freshName("g", names);
  const pair = supply.holder === 0 ? `${holder}, ${x}` : `${x}, ${holder}`;
  const have =
    `len(select_all(${x}: ${supply.type}, ${supply.holds}(${pair}) and ${supply.usable}(${x})))`;
  const need =
    `len(select_all(${n}: ${supply.goalType}, ${supply.goal.goal}(${n}) and not ${supply.goal.pred}(${n})))`;
  return negated ? `${have} < ${need}` : `${have} >= ${need}`;
}
