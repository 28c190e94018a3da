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
import {
  eitherTypes,
  EQUALITY,
  type PddlAtom,
  type PddlDomain,
  type PddlFormula,
  type PddlLiteral,
  plannedEffects,
} from "./parse.ts";
import { identifier, typeName } from "./vocabulary.ts";

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
    const atom = (x: PddlAtom) => atomText(x, arg);
    const effects = plannedEffects(a);
    actions[identifier(a.name)] = {
      // Stated, not observed: the counts say the rules are confirmed and the
      // effects known without claiming transitions were seen.
      successes: 0,
      failures: 0,
      observed: 1,
      rules: [
        ...a.precondition.map((l) => literalText(l, arg)),
        ...(a.condition ?? []).map((f) => conditionText(f, arg, domain)),
      ].map((text) => ({ text, confirmed: true, covers: 0 })),
      // An effect by chance is stated as its most likely outcome, as the expert plans.
      effects: { add: effects.add.map(atom), remove: effects.del.map(atom) },
    };
  }
  return { format: ACTION_MODEL_FORMAT, vocabulary: vocab.name, actions, stated: true };
}

/** An atom as an expression: `on(x, 'b1')`. */
function atomText(x: PddlAtom, arg: (x: string) => string): string {
  return `${identifier(x.pred)}(${x.args.map(arg).join(", ")})`;
}

/** A literal as an expression: `on(x, y)`, `not on(x, y)`, `x != y`. */
function literalText(l: PddlLiteral, arg: (x: string) => string): string {
  if (l.pred === EQUALITY) return `${arg(l.args[0])} ${l.negated ? "!=" : "=="} ${arg(l.args[1])}`;
  return l.negated ? `not ${atomText(l, arg)}` : atomText(l, arg);
}

/**
 * A condition as one expression; quantifiers range over their type
 * (`forall(y: block, not on(y, x))`).
 *
 * @throws {RangeError} For a quantifier over an `either` type, which no vocabulary type names.
 */
function conditionText(f: PddlFormula, arg: (x: string) => string, domain: PddlDomain): string {
  const text = (g: PddlFormula): string => {
    switch (g.op) {
      case "literal":
        return literalText(g.literal, arg);
      case "not":
        return `not (${text(g.item)})`;
      case "and":
      case "or":
        return g.items.length === 0
          ? String(g.op === "and")
          : g.items.map((x) => `(${text(x)})`).join(` ${g.op} `);
      default:
        return g.vars.reduceRight((body, v) => {
          if (eitherTypes(v.type).length > 1) {
            throw new RangeError(
              `PDDL rules: a quantifier over "${v.name} - (either ${
                eitherTypes(v.type).join(" ")
              })" is not stated as a rule`,
            );
          }
          return `${g.op}(${identifier(v.name.slice(1))}: ${
            typeName(v.type, domain.types)
          }, ${body})`;
        }, text(g.body));
    }
  };
  return text(f);
}
