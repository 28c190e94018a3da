/**
 * Loop precedence from demonstrations: the order in which a demonstrator
 * visited the elements of an unordered loop, read as a relation of the task.
 * Blocks of a tower are stacked from the bottom: in every demonstration the
 * block that goes on another was handled after it. Induction looks for a
 * binary predicate `P` of the task's description (no step changes it) with
 * `P(x, y)` holding for some visited pair where `x` came after `y`, and for
 * no pair in the other order; the loop then takes its elements in that
 * precedence (`LoopNode.after`) on any task, however many there are.
 *
 * @module
 */
import { matchAction } from "../dsl/action.ts";
import type { Value } from "../dsl/facts.ts";
import { parseExpr } from "../dsl/expr/parse.ts";
import { evalExpr } from "../dsl/expr/eval.ts";
import type { LoopNode, Skill } from "../dsl/graph/schema.ts";
import { isObjectType, type Vocabulary } from "../dsl/vocabulary.ts";
import type { GroundedTrace } from "./ground.ts";

/** One demonstration of a program. */
export interface OrderDemo {
  /** Its trace at the program's level (`states[0]`: where the program starts). */
  trace: GroundedTrace;
}

/**
 * The program with a precedence on each top-level loop over objects whose
 * demonstrations show one (see the module doc); loops without one are left
 * as they are.
 *
 * @param skill The induced program.
 * @param demos Its demonstrations, as task-level traces.
 * @param vocab The vocabulary the program is written in.
 * @param changed Predicates some demonstration step changed (not candidates).
 */
export function withLoopOrder(
  skill: Skill,
  demos: readonly OrderDemo[],
  vocab: Vocabulary,
  changed: ReadonlySet<string>,
): Skill {
  const nodes = skill.nodes.map((n) =>
    n.kind === "loop" && !n.after ? orderLoop(n, skill, demos, vocab, changed) : n
  );
  return nodes.every((n, i) => n === skill.nodes[i]) ? skill : { ...skill, nodes };
}

function orderLoop(
  node: LoopNode,
  skill: Skill,
  demos: readonly OrderDemo[],
  vocab: Vocabulary,
  changed: ReadonlySet<string>,
): LoopNode {
  const over = parseExpr(node.over);
  if (!over.ok) return node;
  /** Per demonstration: the entry state and the visited elements in order. */
  const visits: { trace: GroundedTrace; order: string[] }[] = [];
  for (const { trace } of demos) {
    const r = evalExpr(over.value, { vocab, facts: trace.states[0], scope: {} });
    if (!r.ok || !Array.isArray(r.value)) continue;
    const items = new Set(r.value.filter((v): v is string => typeof v === "string"));
    const order: string[] = [];
    for (const step of trace.steps) {
      const m = matchAction(vocab, step.action);
      for (const v of Object.values(m?.args ?? {})) {
        if (typeof v === "string" && items.has(v) && !order.includes(v)) order.push(v);
      }
    }
    if (order.length > 1) visits.push({ trace, order });
  }
  if (visits.length === 0) return node;
  const used = new Set(skill.nodes.flatMap((n) => "var" in n ? [n.var] : []));
  let other = `${node.var}_before`;
  for (let k = 2; used.has(other); k++) other = `${node.var}_before${k}`;
  let best: { cond: string; support: number } | undefined;
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    if (decl.params.length !== 2 || changed.has(pred)) continue;
    if (!decl.params.every((t) => isObjectType(vocab, t))) continue;
    // P(x, y) with x the element visited later, then the converse.
    for (const later of [0, 1]) {
      let support = 0;
      let violated = false;
      for (const { trace, order } of visits) {
        const facts = trace.states[0];
        order.forEach((x, i) =>
          order.forEach((y, j) => {
            if (i === j) return;
            const args: Value[] = later === 0 ? [x, y] : [y, x];
            if (!facts.has({ pred, args: args as string[] })) return;
            if (i > j) support++;
            else violated = true;
          })
        );
      }
      if (violated || support === 0 || (best && best.support >= support)) continue;
      const cond = later === 0
        ? `${pred}(${node.var}, ${other})`
        : `${pred}(${other}, ${node.var})`;
      best = { cond, support };
    }
  }
  return best ? { ...node, after: { var: other, cond: best.cond } } : node;
}
