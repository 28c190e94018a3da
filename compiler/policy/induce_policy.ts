/**
 * Policy induction for a library: per task type, a decision list learned
 * from the demonstrations of that type (`learn.ts`), emitted as a skill
 * (`emit.ts`), and a task program that calls it.
 *
 * @module
 */
import type { Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { GroundedTrace } from "../ground.ts";
import { policySkill } from "./emit.ts";
import { learnPolicy, type Policy, policyExamples, type PolicyOptions } from "./learn.ts";

/** The policy of one task type. */
export interface InducedPolicy {
  /** The task type (a trace's `task.type`, else `task`). */
  type: string;
  policy: Policy;
  /** The decision list as a skill. */
  skill: Skill;
  /** The task program: one call of the skill. */
  program: Skill;
  /** Demonstrations of the type. */
  traces: number;
}

/**
 * The policies of grounded demonstrations, one per task type.
 *
 * @example Usage
 * ```ts ignore
 * const [induced] = inducePolicies(grounded, kit.vocabulary);
 * console.log(induced.skill.name, induced.policy.rules.length);
 * ```
 */
export function inducePolicies(
  grounded: readonly GroundedTrace[],
  vocab: Vocabulary,
  options: PolicyOptions = {},
): InducedPolicy[] {
  const byType = new Map<string, GroundedTrace[]>();
  for (const g of grounded) {
    if (g.trace.success === false) continue;
    const type = g.trace.task.type ?? "task";
    byType.set(type, [...byType.get(type) ?? [], g]);
  }
  const taken = new Set<string>();
  const out: InducedPolicy[] = [];
  for (const [type, list] of byType) {
    const policy = learnPolicy(policyExamples(list, vocab), list, vocab, options);
    let name = `policy_${type.replace(/^.*[/:+]/, "").replace(/[^A-Za-z0-9_]/g, "_")}`;
    if (!/^[A-Za-z_]/.test(name)) name = `policy_${name}`;
    while (taken.has(name) || name in vocab.actions) name = `${name}_`;
    taken.add(name);
    const skill = policySkill(policy, vocab, name);
    out.push({
      type,
      policy,
      skill,
      program: callProgram(skill, vocab, type),
      traces: list.length,
    });
  }
  return out;
}

/** A task program that calls `skill` once. */
function callProgram(skill: Skill, vocab: Vocabulary, type: string): Skill {
  return {
    format: "skillc/skill@1",
    name: `task_${skill.name}`,
    vocabulary: vocab.name,
    params: [],
    doc: { summary: `Task program of "${type}": run the decision list until the task ends.` },
    entry: "run",
    nodes: [
      { id: "run", kind: "primitive", action: skill.name, args: {} },
      { id: "done", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "run", to: "done", label: "next" }],
  };
}
