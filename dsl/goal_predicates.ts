/**
 * The predicates a vocabulary's landmarks are conditioned on: in a PDDL
 * vocabulary the goal's own (`goal_on` of `when: goal_on(a0, a1)`), which
 * say what the task's goal asks rather than how the world stands; a
 * hand-written vocabulary may condition a landmark on a world predicate
 * too (`when: holds(a1)`). `goalPredicates` (runtime/plan/landmark_agenda.ts)
 * takes only conditions that are one goal atom over the landmark's
 * arguments.
 *
 * @module
 */
import { callNames } from "./expr/ast.ts";
import { parseExpr } from "./expr/parse.ts";
import { own, type Vocabulary } from "./vocabulary.ts";

/**
 * The predicates the vocabulary's landmark conditions call.
 *
 * @example Usage
 * ```ts
 * import { goalPredicateNames } from "./goal_predicates.ts";
 * const vocab = {
 *   name: "v",
 *   types: { Block: { kind: "object" as const } },
 *   predicates: { on: { params: ["Block", "Block"] }, goal_on: { params: ["Block", "Block"] } },
 *   functions: {},
 *   actions: {},
 *   landmarks: [{ pred: "on", on: "add" as const, when: "goal_on(a0, a1)", skill: "achieve_on" }],
 * };
 * console.log([...goalPredicateNames(vocab)]); // [ "goal_on" ]
 * ```
 */
export function goalPredicateNames(vocab: Vocabulary): ReadonlySet<string> {
  let out = cache.get(vocab);
  if (out !== undefined) return out;
  const names = new Set<string>();
  for (const landmark of vocab.landmarks ?? []) {
    if (landmark.when === undefined) continue;
    const when = parseExpr(landmark.when);
    if (!when.ok) continue;
    for (const name of callNames(when.value)) {
      if (own(vocab.predicates, name)) names.add(name);
    }
  }
  cache.set(vocab, out = names);
  return out;
}
const cache = new WeakMap<Vocabulary, ReadonlySet<string>>();
