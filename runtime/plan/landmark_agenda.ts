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
  const producers = new Map<string, { skill: string; params: string[] } | undefined>();
  const out: SkillCall[] = [];
  for (const atom of goalAtoms(vocab, facts)) {
    if (facts.has(atom)) continue;
    if (!producers.has(atom.pred)) producers.set(atom.pred, producerOf(library, atom.pred));
    const producer = producers.get(atom.pred);
    if (producer === undefined) continue;
    const callArgs: Record<string, Value> = {};
    producer.params.forEach((p, i) => callArgs[p] = atom.args[i]);
    out.push({ skill: producer.skill, args: callArgs });
  }
  return out;
}

/**
 * The landmark atoms the goal asks for, held or not: `p(a0, a1)` of each
 * `goal_p(a0, a1)` fact of a landmark `p` with that condition, in landmark
 * then fact order.
 *
 * @example Usage
 * ```ts ignore
 * const done = goalAtoms(vocab, facts).every((atom) => facts.has(atom));
 * ```
 */
export function goalAtoms(vocab: Vocabulary, facts: FactView): Atom[] {
  return landmarkAtoms(goalLandmarks(vocab).add, facts);
}

/**
 * The landmark atoms the goal asks to be false, held or not: `p(a0)` of
 * each `goal_false_p(a0)` fact of a landmark `p` on removal with that
 * condition, in landmark then fact order.
 *
 * @example Usage
 * ```ts ignore
 * const violated = forbiddenAtoms(vocab, facts).some((atom) => facts.has(atom));
 * ```
 */
export function forbiddenAtoms(vocab: Vocabulary, facts: FactView): Atom[] {
  return landmarkAtoms(goalLandmarks(vocab).remove, facts);
}

/** The atoms of `landmarks` their conditions' facts name. */
function landmarkAtoms(landmarks: readonly GoalLandmark[], facts: FactView): Atom[] {
  const out: Atom[] = [];
  for (const { pred, goal, positions } of landmarks) {
    for (const fact of facts.query(goal, positions.map(() => null))) {
      const args: AtomArg[] = [];
      positions.forEach((j, i) => args[j] = fact.args[i]);
      out.push({ pred, args });
    }
  }
  return out;
}

/** A landmark `pred` whose condition is one goal fact naming each of its arguments. */
interface GoalLandmark {
  pred: string;
  /** The goal predicate of the condition. */
  goal: string;
  /** The landmark argument each of the goal fact's positions holds. */
  positions: number[];
}

/**
 * The vocabulary's goal landmarks, on addition and on removal, their
 * conditions parsed once per vocabulary: `goalAtoms` runs at every choice
 * the agent looks ahead.
 */
function goalLandmarks(vocab: Vocabulary): Record<"add" | "remove", GoalLandmark[]> {
  let lists = goalLandmarkCache.get(vocab);
  if (lists !== undefined) return lists;
  lists = { add: [], remove: [] };
  for (const landmark of vocab.landmarks ?? []) {
    if (landmark.when === undefined) continue;
    const when = parseExpr(landmark.when);
    if (!when.ok || when.value.kind !== "call") continue;
    const positions = argPositions(when.value);
    const arity = own(vocab.predicates, landmark.pred)?.params.length;
    if (!positions || [...new Set(positions)].length !== arity) continue;
    if (positions.some((j) => j >= arity)) continue;
    lists[landmark.on].push({ pred: landmark.pred, goal: when.value.name, positions });
  }
  goalLandmarkCache.set(vocab, lists);
  return lists;
}
const goalLandmarkCache = new WeakMap<Vocabulary, Record<"add" | "remove", GoalLandmark[]>>();

/**
 * The goal predicates of a vocabulary: those its landmarks' conditions
 * name (PDDL's `goal_at`, `goal_false_visited`).
 *
 * @example Usage
 * ```ts ignore
 * goalPredicates(kit.vocabulary).has("goal_at"); // true
 * ```
 */
export function goalPredicates(vocab: Vocabulary): Set<string> {
  const { add, remove } = goalLandmarks(vocab);
  return new Set([...add, ...remove].map((l) => l.goal));
}

/** The first skill whose postcondition is `pred` over its parameters, with them in order. */
function producerOf(
  library: SkillLibrary,
  pred: string,
): { skill: string; params: string[] } | undefined {
  for (const program of library.programs()) {
    const post = postconditionOf(program);
    if (typeof post !== "object" || post.kind !== "call" || post.name !== pred) continue;
    const params = post.args.map((a) => a.kind === "var" ? a.name : undefined);
    if (params.some((p) => p === undefined)) continue;
    return { skill: program.skill.name, params: params as string[] };
  }
  return undefined;
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
