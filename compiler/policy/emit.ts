/**
 * A decision list as a skill graph: a loop whose head tries the rules in
 * order. Each rule is a CheckOp (`exists` a binding of its variables that
 * satisfies its condition), DataOps that bind the action's parameters
 * (`select_one`, the free choice), and the PrimitiveOp that acts; after
 * acting the run goes back to the first rule. An action the environment
 * rejects, or the agent refuses as a cycle, leaves the next rules their
 * turn (its `failed` edge). When no rule applies the skill ends at a
 * failure that says so.
 *
 * ```
 * rule_1 --no--> rule_2 --no--> ... --no--> stuck (failure)
 *   |yes     ^     |yes
 * bind...    |   bind...
 *   |        |     |
 * act_1 -failed    act_2 -> rule_1
 *   |next
 *   v
 * rule_1
 * ```
 *
 * @module
 */
import type { Edge, Node, Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { existentialText, type Literal } from "./conjunction.ts";
import { otherwiseText, type Policy, ruleText, ruleVariables } from "./learn.ts";
import { ruleLiteralText } from "./movers.ts";

/**
 * The skill of a decision list (see the module doc).
 *
 * @param name The skill's name.
 * @param post The skill's postcondition (e.g. the goal holds), when known.
 *
 * @example Usage
 * ```ts ignore
 * const skill = policySkill(learnPolicy(examples, grounded, vocab), vocab, "solve");
 * ```
 */
export function policySkill(
  policy: Policy,
  vocab: Vocabulary,
  name: string,
  post?: string,
): Skill {
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const head = (i: number) => i < policy.rules.length ? `rule_${i + 1}` : "stuck";
  // A variable keeps one type in the shared scope: a name another rule
  // binds with another type gets a suffix.
  const typeOf = new Map<string, string>();
  const scopeName = (base: string, type: string) => {
    let n = base;
    for (let k = 2; typeOf.has(n) && typeOf.get(n) !== type; k++) n = `${base}_${k}`;
    typeOf.set(n, type);
    return n;
  };
  policy.rules.forEach((rule, i) => {
    const context = { goals: policy.goals, vocab, types: rule.condition.types };
    const text = (l: Literal, names: readonly string[]) =>
      ruleLiteralText(l, names, policy.movers, policy.chains, context);
    const names = ruleVariables(rule, vocab);
    const decl = vocab.actions[rule.action];
    const params = decl.params.length;
    const id = head(i);
    nodes.push({
      id,
      kind: "check",
      cond: existentialText(rule.condition, names, 0, text),
      doc: `Rule ${i + 1}: ${ruleText(rule, vocab, policy.movers, policy.chains, policy.goals)}${
        rule.otherwise ? ` (${otherwiseText(rule.otherwise)})` : ""
      }`,
    });
    const vars = decl.params.map((p, k) => scopeName(p.name, rule.condition.types[k]));
    let prev = id;
    let label: Edge["label"] = "yes";
    for (let k = 0; k < params; k++) {
      const bind = `r${i + 1}_bind_${decl.params[k].name}`;
      // The parameters bound so far read as scope variables.
      const scoped = names.map((n, j) => j < k ? vars[j] : n);
      const body = existentialText(rule.condition, scoped, k + 1, text);
      nodes.push({
        id: bind,
        kind: "data",
        var: vars[k],
        expr: `select_one(${names[k]}: ${rule.condition.types[k]}, ${body})`,
      });
      edges.push({ from: prev, to: bind, label });
      prev = bind;
      label = "next";
    }
    const act = `r${i + 1}_${rule.action}`;
    nodes.push({
      id: act,
      kind: "primitive",
      action: rule.action,
      args: Object.fromEntries(decl.params.map((p, k) => [p.name, vars[k]])),
    });
    edges.push({ from: prev, to: act, label });
    edges.push({ from: act, to: head(0), label: "next" });
    // An action rejected, or refused as a cycle, leaves the next rules their turn.
    edges.push({ from: act, to: head(i + 1), label: "failed" });
    edges.push({ from: id, to: head(i + 1), label: "no" });
  });
  nodes.push({
    id: "stuck",
    kind: "terminal",
    outcome: "failure",
    message: "No rule of the decision list applies in this state",
  });
  return {
    format: "skillc/skill@1",
    name,
    vocabulary: vocab.name,
    params: [],
    doc: {
      summary: `A decision list of ${policy.rules.length} rules learned from ${policy.examples} ` +
        `demonstrated decisions${
          policy.uncovered.length > 0 ? ` (${policy.uncovered.length} of them not reproduced)` : ""
        }: in each state the first rule that applies acts, then the list starts again.`,
      ...(post !== undefined ? { post } : {}),
    },
    entry: head(0),
    nodes,
    edges,
  };
}
