/**
 * The landmark agenda: what the goal still asks for, as skill calls. A
 * vocabulary's landmark `p` with condition `goal_p(a0, a1)` says "p(a0, a1)
 * ends a subgoal when the goal asks for it"; every such atom that is false
 * now is pending, and a skill whose postcondition is `p` over its
 * parameters achieves it. The agent turns to the agenda when the task's
 * program cannot go on (a goal unlike the demonstrated ones: two wheels to
 * stow and none to mount) or no template fits the task at all.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { Atom, AtomArg, FactView, Value } from "../../dsl/facts.ts";
import { own, type Vocabulary } from "../../dsl/vocabulary.ts";
import type { SkillLibrary } from "../store/library.ts";
import type { SkillCall } from "./planner.ts";
import { postconditionOf } from "../exec/postcondition.ts";

/**
 * The calls that would achieve the landmark atoms the goal asks for and
 * that are false in `facts`, in landmark then fact order; a pending atom
 * no skill's postcondition states is left out.
 *
 * @example Usage
 * ```ts ignore
 * for (const call of pendingLandmarkCalls(vocab, library, facts)) console.log(call.skill, call.args);
 * ```
 */
export function pendingLandmarkCalls(
  vocab: Vocabulary,
  library: SkillLibrary,
  facts: FactView,
): SkillCall[] {
  const out: SkillCall[] = [];
  for (const landmark of vocab.landmarks ?? []) {
    if (landmark.on !== "add" || landmark.when === undefined) continue;
    const when = parseExpr(landmark.when);
    if (!when.ok || when.value.kind !== "call") continue;
    const positions = argPositions(when.value);
    const arity = own(vocab.predicates, landmark.pred)?.params.length;
    if (!positions || [...new Set(positions)].length !== arity) continue;
    if (positions.some((j) => j >= arity)) continue;
    const producers = library.programs().flatMap((program) => {
      const post = postconditionOf(program);
      if (typeof post !== "object" || post.kind !== "call" || post.name !== landmark.pred) {
        return [];
      }
      const params = post.args.map((a) => a.kind === "var" ? a.name : undefined);
      if (params.some((p) => p === undefined)) return [];
      return [{ skill: program.skill.name, params: params as string[] }];
    });
    if (producers.length === 0) continue;
    for (const goal of facts.query(when.value.name, positions.map(() => null))) {
      const args: AtomArg[] = [];
      positions.forEach((j, i) => args[j] = goal.args[i]);
      const atom: Atom = { pred: landmark.pred, args };
      if (facts.has(atom)) continue;
      const { skill, params } = producers[0];
      const callArgs: Record<string, Value> = {};
      params.forEach((p, i) => callArgs[p] = args[i]);
      out.push({ skill, args: callArgs });
    }
  }
  return out;
}

/** For `goal_p(a0, a1)`: the landmark argument each position holds, or undefined. */
function argPositions(when: Extract<Expr, { kind: "call" }>): number[] | undefined {
  const out: number[] = [];
  for (const a of when.args) {
    const m = a.kind === "var" ? /^a(\d+)$/.exec(a.name) : null;
    if (!m) return undefined;
    out.push(Number(m[1]));
  }
  return out;
}
