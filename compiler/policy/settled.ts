/**
 * Settled objects: what lets a policy build a structure the goal describes
 * from the bottom up. A relation the goal asks for that chains objects
 * (`on(a, b)`, `on(b, c)`: stacks, nestings, trains) gives each object a
 * recursive property: it is **settled** when neither it nor anything below
 * it in the chain stands otherwise than the goal asks: not on what the goal
 * puts it on (`goal_on(z, w)` and not `on(z, w)`), on what the goal puts
 * another on, or on anything where the goal asks it to stand otherwise
 * (`goal_on_table(z)`). The generalised-planning notion of a well-placed block,
 * for any such relation: "stack `x` on `y` if `y` is settled", "take `x`
 * off if it is not", which no conjunction of a few literals can say.
 *
 * In the expression language a settled `x` is: no `z` that `x` reaches
 * along the relation (a `distance` shorter than there are objects) is
 * misplaced.
 *
 * @module
 */
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { freshName, type StateIndex, type TypeIndex } from "./conjunction.ts";
import { type GoalRelation, goalRelations } from "./goals.ts";
import { goalPredicateNames } from "../../dsl/goal_predicates.ts";

/** The prefix of a settled literal's predicate: `settled:<index>` with one argument. */
export const SETTLED = "settled:";

/** A relation the goal asks for that chains objects, and its goal predicate. */
export interface Chain {
  /** The relation (`on`). */
  pred: string;
  /** The goal's predicate for it (`goal_on`), with the same arguments. */
  goal: string;
  /** The type of the objects that stand on others (the relation's first argument). */
  type: string;
  /** The type of what the goal asks them to stand on. */
  below: string;
  /**
   * Other ways the goal may ask an object to stand, never true of one that
   * stands on something (`on_table`): unary goal relations, each with its
   * goal predicate. An object standing on something the goal asks to stand
   * so is misplaced too.
   */
  apart: GoalRelation[];
}

/**
 * The chains of a vocabulary: binary relations with a landmark conditioned
 * on a goal atom of the same arguments (`when: goal_on(a0, a1)`), whose
 * first argument's objects can stand on each other, which chain objects in
 * some of `states` (an object stands on something and something stands on
 * it) or relate objects of one declared type and of one kind (`statics`,
 * the static unary predicates, say the same of both; what the goal asks of
 * an object is no kind of it): `on(?x - block, ?y - block)` where problems
 * of two blocks never stack three; and in none put two on one.
 */
export function findChains(
  vocab: Vocabulary,
  types: TypeIndex,
  states: readonly StateIndex[],
  statics: ReadonlySet<string> = new Set(),
): Chain[] {
  const out: Chain[] = [];
  const relations = goalRelations(vocab);
  // The static unary predicates that hold of an object in a state (its kinds).
  const asked = goalPredicateNames(vocab);
  const kinds = [...statics].filter((p) =>
    vocab.predicates[p]?.params.length === 1 && !asked.has(p)
  );
  const kindsOf = (s: StateIndex, x: string) => kinds.filter((k) => s.has(k, [x])).join();
  for (const { pred, goal } of relations) {
    const decl = vocab.predicates[pred];
    if (decl.params.length !== 2) continue;
    const [type, b] = decl.params;
    if (!types.fits(type, b)) continue;
    const oneType = type === b;
    const chains = states.some((s) => {
      const atoms = s.atoms(pred, [undefined, undefined]);
      const below = new Set(atoms.map((x) => x[1]));
      // Of one declared type, and of one kind too (untyped balls in
      // untyped grippers are told apart by `ball` and `gripper`).
      return atoms.some((x) =>
        below.has(x[0]) || (oneType && kindsOf(s, x[0]) === kindsOf(s, x[1]))
      );
    });
    // One on another: nothing holds two.
    const single = states.every((s) => {
      const below = s.atoms(pred, [undefined, undefined]).map((x) => x[1]);
      return new Set(below).size === below.length;
    });
    if (!chains || !single) continue;
    // Unary relations the demonstrations' goals ask for, which held in some
    // state and never of an object standing on something.
    const apart = relations.filter((r) => {
      const params = vocab.predicates[r.pred].params;
      if (params.length !== 1 || !types.fits(type, params[0])) return false;
      const asked = states.some((s) => s.atoms(r.goal, [undefined]).length > 0);
      const held = states.some((s) => s.atoms(r.pred, [undefined]).length > 0);
      return asked && held &&
        states.every((s) =>
          s.atoms(r.pred, [undefined]).every(([z]) => s.atoms(pred, [z, undefined]).length === 0)
        );
    });
    out.push({ pred, goal, type, below: vocab.predicates[goal].params[1], apart });
  }
  return out;
}

/**
 * Whether `x` is settled along `chain` in `state` (see the module doc),
 * memoised per state.
 */
export function settled(chain: Chain, state: StateIndex, x: string): boolean {
  let memo = memos.get(state)?.get(chain);
  if (!memo) {
    if (!memos.has(state)) memos.set(state, new Map());
    memos.get(state)!.set(chain, memo = new Map());
  }
  const visit = (z: string): boolean => {
    const known = memo!.get(z);
    if (known !== undefined) return known;
    // A cycle is no foundation.
    memo!.set(z, false);
    // Not where the goal wants it, or where the goal wants another.
    const on = state.atoms(chain.pred, [z, undefined]);
    const misplaced =
      state.atoms(chain.goal, [z, undefined]).some(([, w]) => !state.has(chain.pred, [z, w])) ||
      on.some(([, w]) => state.atoms(chain.goal, [undefined, w]).some(([y]) => y !== z)) ||
      (on.length > 0 && chain.apart.some((r) => state.has(r.goal, [z])));
    const v = !misplaced && on.every(([, w]) => visit(w));
    memo!.set(z, v);
    return v;
  };
  return visit(x);
}

const memos = new WeakMap<StateIndex, Map<Chain, Map<string, boolean>>>();

/**
 * The expression of "`x` is settled along `chain`", `x` a variable name
 * (of any type: what does not stand on anything is settled), or with
 * `negated` of "`x` is not settled"; `taken` are names the expression must
 * not rebind.
 */
export function settledText(
  chain: Chain,
  x: string,
  taken: readonly string[],
  negated = false,
): string {
  const [k, z, w, y, u, v, n] = ["k", "z", "w", "y", "u", "v", "n"].map((base) =>
    freshName(base, [...taken, x])
  );
  const t = chain.type;
  const reaches =
    `distance(${u}, ${v}: ${t}, ${chain.pred}(${v}, ${u}), ${z}, ${k}) < len(select_all(${n}: ${t}, true))`;
  const elsewhere = `${chain.goal}(${z}, ${w}) and not ${chain.pred}(${z}, ${w})`;
  const inTheWay =
    `${chain.pred}(${z}, ${w}) and exists(${y}: ${t}, ${chain.goal}(${y}, ${w}) and ${y} != ${z})`;
  // Standing on something where the goal asks it to stand otherwise (on the table).
  const apart = chain.apart.map((r) => ` or (${chain.pred}(${z}, ${w}) and ${r.goal}(${z}))`)
    .join("");
  const misplaced = `exists(${w}: ${chain.below}, (${elsewhere}) or (${inTheWay})${apart})`;
  const unsettled =
    `exists(${k}: ${t}, ${k} == ${x} and exists(${z}: ${t}, ${reaches} and ${misplaced}))`;
  return negated ? unsettled : `not ${unsettled}`;
}
