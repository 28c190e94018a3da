/**
 * The rules a PDDL domain states about its actions, as action-model data:
 * each precondition literal is a confirmed rule, each effect a lifted
 * effect. AgentBoard states the same rules to its agent in the instruction
 * ("pickup <block>: allows the arm to pick up a block from the table if it
 * is clear and the arm is empty"); the agent here reads them from the
 * domain, so look-ahead can plan what a skill's next action needs.
 *
 * @module
 */
import { ACTION_MODEL_FORMAT, type ActionModelData } from "../../runtime/action_model_data.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { EQUALITY, type PddlAtom, type PddlDomain } from "./parse.ts";
import { identifier } from "./vocabulary.ts";

/**
 * The domain's actions as action-model data in `vocab`'s names.
 *
 * @example Usage
 * ```ts ignore
 * const model = ActionModel.fromJSON(pddlActionRules(domain, vocab), vocab);
 * model.unmet(facts, "pickup b2"); // ["clear('b2')"] while b3 is on b2
 * ```
 */
export function pddlActionRules(domain: PddlDomain, vocab: Vocabulary): ActionModelData {
  const actions: ActionModelData["actions"] = {};
  for (const a of domain.actions) {
    const arg = (x: string) =>
      x.startsWith("?") ? identifier(x.slice(1)) : `'${x.replaceAll("'", "\\'")}'`;
    const atom = (x: PddlAtom) => `${identifier(x.pred)}(${x.args.map(arg).join(", ")})`;
    actions[identifier(a.name)] = {
      // Stated, not observed: the counts say the rules are confirmed and the
      // effects known without claiming transitions were seen.
      successes: 0,
      failures: 0,
      observed: 1,
      rules: a.precondition.map((l) => ({
        text: l.pred === EQUALITY
          ? `${arg(l.args[0])} ${l.negated ? "!=" : "=="} ${arg(l.args[1])}`
          : l.negated
          ? `not ${atom(l)}`
          : atom(l),
        confirmed: true,
        covers: 0,
      })),
      effects: { add: a.add.map(atom), remove: a.del.map(atom) },
    };
  }
  return { format: ACTION_MODEL_FORMAT, vocabulary: vocab.name, actions, stated: true };
}
