/**
 * A skill seen as an action: the form in which a call to a skill appears in
 * a higher-level trace (a task program's demonstration, or a segment that
 * calls the skill on a subgoal).
 *
 * @module
 */
import type { ActionDecl, Vocabulary } from "../dsl/vocabulary.ts";
import type { Param } from "../dsl/graph/schema.ts";

/** A callable skill: name and parameters. */
export interface SkillHead {
  name: string;
  params: readonly Param[];
}

/**
 * The action form of a skill at the task level: `name(p1={p1}, p2={p2})`,
 * so a call renders to text that parses back unambiguously.
 *
 * @example Usage
 * ```ts
 * import { skillAction } from "./skill_action.ts";
 * console.log(skillAction({ name: "place", params: [{ name: "item", type: "Item" }] }).template);
 * // place(item={item})
 * ```
 */
export function skillAction(head: SkillHead): ActionDecl {
  return {
    template: `${head.name}(${head.params.map((p) => `${p.name}={${p.name}}`).join(", ")})`,
    params: head.params.map((p) => ({ name: p.name, type: p.type })),
    doc: `Call the skill ${head.name}.`,
  };
}

const callNames = new WeakMap<Vocabulary, ReadonlySet<string>>();

/**
 * Marks which actions of a vocabulary are skill calls (see `nest.ts`), so
 * lifting can treat a call as a producer of what its postcondition says.
 */
export function markCalls(vocab: Vocabulary, names: Iterable<string>): Vocabulary {
  callNames.set(vocab, new Set(names));
  return vocab;
}

/** The actions of a vocabulary that are skill calls (none unless marked). */
export function callActions(vocab: Vocabulary): ReadonlySet<string> {
  return callNames.get(vocab) ?? new Set();
}
