/**
 * A run-time variant of a skill in which some rejections of one primitive
 * node are tolerated: the node gets a `failed` edge to a check that the
 * action was about one of the given objects; if so the run continues where
 * the node's `next` edge leads, otherwise it fails as before.
 *
 * The agent uses it when retrying a call whose rejected action asked for
 * an object that a subgoal has since provided: a related one (a member of
 * the family the action named, which the library can produce when the
 * family itself cannot be had), or the object itself when the skill asks
 * for it again regardless of what is held. The skill's later steps read
 * the facts, which now hold what the action was to fetch. The variant is
 * never written to the library; postcondition verification still judges
 * the retry.
 *
 * @module
 */
import { own } from "../../dsl/vocabulary.ts";
import { freshIds } from "../../dsl/graph/ids.ts";
import { literalExpr } from "../../dsl/expr/vars.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { compileSkill, type Program, type SkillSignature } from "./program.ts";

const cache = new WeakMap<Program, Map<string, Program>>();

/**
 * The program with the rejections of each node of `tolerated` tolerated
 * when one of its arguments is one of the node's objects. Nodes that are
 * no primitive with a `next` edge, already have a `failed` edge, or have
 * no argument that can name an object are left as they are; `program`
 * itself is returned when nothing changes or the variant does not compile.
 * Cached.
 *
 * @param program The skill.
 * @param tolerated Primitive node -> the objects whose rejection is tolerated there
 * (the ones a substitute was produced for).
 * @param library The skills the program may call, e.g. a `SkillLibrary` (for compiling the variant).
 *
 * @example Usage
 * ```ts ignore
 * const lenient = tolerateRejection(program, new Map([["get", ["planks"]]]), library);
 * ```
 */
export function tolerateRejection(
  program: Program,
  tolerated: ReadonlyMap<string, readonly string[]>,
  library: { programs(): readonly Program[] },
): Program {
  const key = JSON.stringify(
    [...tolerated].map(([n, objects]) => [n, [...objects].sort()]).sort(),
  );
  const byKey = cache.get(program) ?? new Map<string, Program>();
  cache.set(program, byKey);
  const hit = byKey.get(key);
  if (hit) return hit;
  const variant = build(program, tolerated, library) ?? program;
  byKey.set(key, variant);
  return variant;
}

function build(
  program: Program,
  tolerated: ReadonlyMap<string, readonly string[]>,
  library: { programs(): readonly Program[] },
): Program | undefined {
  const skill: Skill = structuredClone(program.skill);
  const fresh = freshIds(skill.nodes.map((n) => n.id));
  let changed = false;
  for (const [node, objects] of tolerated) {
    const out = program.out.get(node);
    const decl = program.nodes.get(node);
    if (decl?.kind !== "primitive" || out?.next === undefined || out.failed !== undefined) continue;
    const action = own(program.vocab.actions, decl.action);
    // Only arguments of object or value types can name an object.
    const params = (action?.params ?? []).filter((p) => p.type !== "Num" && decl.args[p.name]);
    const tests = params.flatMap((p) =>
      objects.map((o) => `(${decl.args[p.name]}) == ${printExpr(literalExpr(o))}`)
    );
    if (tests.length === 0) continue;
    const check = fresh(`tolerate_${node}`);
    const fail = fresh(`rejected_${node}`);
    skill.nodes.push(
      { id: check, kind: "check", cond: tests.join(" or ") },
      {
        id: fail,
        kind: "terminal",
        outcome: "failure",
        message: `The action of node "${node}" was rejected`,
      },
    );
    skill.edges.push(
      { from: node, to: check, label: "failed" },
      { from: check, to: out.next, label: "yes" },
      { from: check, to: fail, label: "no" },
    );
    changed = true;
  }
  if (!changed) return undefined;
  const signatures: Record<string, SkillSignature> = {};
  for (const p of library.programs()) signatures[p.skill.name] = { params: p.skill.params };
  signatures[skill.name] = { params: skill.params };
  const compiled = compileSkill(skill, program.vocab, signatures);
  return compiled.ok ? compiled.value : undefined;
}
