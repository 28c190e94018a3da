/**
 * The relations a goal asks for, as the vocabulary declares them: a
 * landmark added when a goal atom of the same arguments holds
 * (`on` with `when: goal_on(a0, a1)`) pairs the goal's predicate with the
 * relation it asks for.
 *
 * @module
 */
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";

/** A relation of the state and the goal predicate that asks for it. */
export interface GoalRelation {
  /** The relation (`on`). */
  pred: string;
  /** The goal's predicate for it (`goal_on`), with the same arguments. */
  goal: string;
}

/**
 * The goal relations of a vocabulary (see the module doc), in the order of
 * its landmarks; a relation with several such landmarks once.
 *
 * @example Usage
 * ```ts ignore
 * goalRelations(vocab); // [{ pred: "on", goal: "goal_on" }, ...]
 * ```
 */
export function goalRelations(vocab: Vocabulary): GoalRelation[] {
  const out: GoalRelation[] = [];
  for (const l of vocab.landmarks ?? []) {
    if (l.on !== "add" || l.when === undefined) continue;
    const arity = vocab.predicates[l.pred]?.params.length;
    const when = parseExpr(l.when);
    if (arity === undefined || !when.ok || when.value.kind !== "call") continue;
    const { name, args } = when.value;
    const sameArgs = args.length === arity &&
      args.every((a, i) => a.kind === "var" && a.name === `a${i}`);
    if (!sameArgs || vocab.predicates[name]?.params.length !== arity) continue;
    if (!out.some((r) => r.pred === l.pred)) out.push({ pred: l.pred, goal: name });
  }
  return out;
}
