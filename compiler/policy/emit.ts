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
import {
  type Conjunction,
  existentialText,
  freshName,
  type Literal,
  literalVars,
  renameLiteral,
} from "./conjunction.ts";
import { otherwiseText, type Policy, ruleText, ruleVariables } from "./learn.ts";
import { CLOSER, distanceText, type Mover } from "./movers.ts";
import { ruleLiteralText } from "./rule_text.ts";

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
    const context = {
      goals: policy.goals,
      vocab,
      types: rule.condition.types,
      supplies: policy.supplies,
      gates: policy.gates,
    };
    const decl = vocab.actions[rule.action];
    const params = decl.params.length;
    const plain = (l: Literal, names: readonly string[]) =>
      ruleLiteralText(l, names, policy.movers, policy.chains, context);
    const text = (l: Literal, names: readonly string[]) =>
      l.pred.startsWith(NEAREST)
        ? nearestText(rule.condition, l, names, params, policy.movers, plain)
        : plain(l, names);
    const condition = withNearest(rule.condition, params);
    const names = ruleVariables(rule, vocab);
    const id = head(i);
    nodes.push({
      id,
      kind: "check",
      cond: existentialText(condition, names, 0, text),
      doc: `Rule ${i + 1}: ${
        ruleText(
          rule,
          vocab,
          policy.movers,
          policy.chains,
          policy.goals,
          policy.supplies,
          policy.gates,
        )
      }${rule.otherwise ? ` (${otherwiseText(rule.otherwise)})` : ""}`,
    });
    const vars = decl.params.map((p, k) => scopeName(p.name, rule.condition.types[k]));
    let prev = id;
    let label: Edge["label"] = "yes";
    for (let k = 0; k < params; k++) {
      const bind = `r${i + 1}_bind_${decl.params[k].name}`;
      // The parameters bound so far read as scope variables.
      const scoped = names.map((n, j) => j < k ? vars[j] : n);
      const body = existentialText(condition, scoped, k + 1, text);
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

/** The prefix of a marker literal's predicate: `nearest:<i>`, the rule's closer literal `i` heads for a nearest target. */
const NEAREST = "nearest:";

/**
 * The condition with a marker after each closer literal that heads for a
 * target the rule picks (not one of the action's parameters) by an atom:
 * the target is a nearest one of those the rule could head for (see
 * `nearestText`). The marker names the variables of what the rule says of
 * the target, so it is tested once that holds.
 */
function withNearest(c: Conjunction, params: number): Conjunction {
  const markers: Literal[] = [];
  c.literals.forEach((l, i) => {
    if (!l.pred.startsWith(CLOSER)) return;
    const target = l.args[2];
    const said = targetLiterals(c, l);
    // A target no atom anchors (a place where the key is not) is any
    // place: the nearest ones are next door.
    const anchored = said.some((x) =>
      !x.negated && x.none === undefined && !x.pred.startsWith(CLOSER) &&
      literalVars(x).includes(target)
    );
    if (target >= params && anchored) {
      const vars = new Set([...l.args, ...said.flatMap(literalVars)]);
      markers.push({ pred: `${NEAREST}${i}`, args: [...vars], negated: false });
    }
  });
  return markers.length === 0 ? c : { ...c, literals: [...c.literals, ...markers] };
}

/** What a rule says of a closer literal's target and the rest: its literals but those of the step's destination. */
function targetLiterals(c: Conjunction, closer: Literal): Literal[] {
  return c.literals.filter((x) => x !== closer && !literalVars(x).includes(closer.args[0]));
}

/** The predicate of the comparison a nearest-target marker's text ends with. */
const NEARER = "nearer:";

/**
 * A nearest-target marker's text: no other object satisfying what the rule
 * says of the target, but not of the step's destination, is fewer steps
 * away (other than where the mover stands). With several targets,
 * stepping closer to whichever one some step approaches can go round in
 * circles (one step nearer one key, the next nearer another); stepping
 * closer to a nearest one shrinks the nearest distance with every step.
 */
function nearestText(
  c: Conjunction,
  marker: Literal,
  names: readonly string[],
  params: number,
  movers: readonly Mover[],
  text: (l: Literal, names: readonly string[]) => string,
): string {
  const l = c.literals[Number(marker.pred.slice(NEAREST.length))];
  const [, from, target] = l.args;
  const mover = movers[Number(l.pred.slice(CLOSER.length))];
  const distance = (a: string, t: string) => distanceText(mover, a, t);
  // What the rule says of the target (its literals on the parameters alone
  // hold already), over the variables past the parameters renamed, the
  // target quantified last: what the rule says of it narrows its
  // candidates before any distance is asked for.
  const others = targetLiterals(c, l).filter((x) => literalVars(x).some((v) => v >= params));
  const order = [...new Set(others.flatMap(literalVars))].filter((v) => v >= params && v !== target)
    .sort((a, b) => a - b);
  order.push(target);
  const moved = (v: number) => v < params ? v : params + order.indexOf(v);
  const last = params + order.length - 1;
  // Each literal is written over its own variables (a pending literal
  // reads its variable's type by index), the renamed ones.
  const original = new Map(others.map((x) => [renameLiteral(x, moved), x]));
  const inner: Conjunction = {
    types: [...c.types.slice(0, params), ...order.map((v) => c.types[v])],
    literals: [...original.keys(), { pred: NEARER, args: [last], negated: false }],
  };
  const renamed = names.map((n, i) => i < params ? n : freshName(`${n}_n`, names));
  const nearer = `${renamed[target]} != ${names[from]} and ${
    distance(names[from], renamed[target])
  } < ${distance(names[from], names[target])}`;
  const body = existentialText(
    inner,
    [...names.slice(0, params), ...order.map((v) => renamed[v])],
    params,
    (x) => x.pred === NEARER ? nearer : text(original.get(x)!, renamed),
  );
  return `not (${body})`;
}
