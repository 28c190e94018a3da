/**
 * Action relations: the relations an action's arguments stood in every time
 * the action was applied (`adjacent(from, thru)`, `at(ball, room)`), read
 * from an action model's rules. Lifting keeps an argument's selection within
 * them (see `liftAction`): a selection learned from a few examples can pick
 * an object for a reason that was a coincidence of those examples, and an
 * object the action's own arguments are not related to as they always were
 * makes the action fail.
 *
 * @module
 */
import { parseExpr } from "../dsl/expr/parse.ts";
import { own, type Vocabulary } from "../dsl/vocabulary.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";

/** A predicate over two or more of an action's parameters, true whenever it was applied. */
export interface ActionRelation {
  pred: string;
  /** The action's parameter names, in the predicate's argument order. */
  params: string[];
}

/** Action name to its relations. */
export type ActionRelations = ReadonlyMap<string, readonly ActionRelation[]>;

/**
 * The relations among each action's parameters that the model's rules
 * state as plain atoms (confirmed rules and hypotheses alike).
 *
 * @example Usage
 * ```ts ignore
 * const relations = actionRelations(model, vocab);
 * relations.get("drive"); // [{ pred: "adjacent", params: ["from", "thru"] }, ...]
 * ```
 */
export function actionRelations(model: ActionModel, vocab: Vocabulary): ActionRelations {
  const out = new Map<string, ActionRelation[]>();
  for (const action of model.actions()) {
    const decl = own(vocab.actions, action);
    if (!decl) continue;
    const names = new Set(decl.params.map((p) => p.name));
    const found: ActionRelation[] = [];
    for (const rule of model.rules(action)) {
      const parsed = parseExpr(rule.text);
      if (!parsed.ok) continue;
      const e = parsed.value;
      if (e.kind !== "call" || !own(vocab.predicates, e.name)) continue;
      const params = e.args.map((a) => a.kind === "var" && names.has(a.name) ? a.name : "");
      if (params.includes("") || new Set(params).size < 2) continue;
      found.push({ pred: e.name, params });
    }
    if (found.length > 0) out.set(action, found);
  }
  return out;
}
