// Asserts that no object of the demonstrations (any object any grounded
// state knows) appears in a string literal of an induced skill or task
// program: lifting never bakes an episode's object into a skill.
import assert from "node:assert/strict";
import { groundTrace } from "../../compiler/ground.ts";
import { nodeExpressions, type Skill } from "../../dsl/graph/schema.ts";
import type { Trace } from "../../dsl/trace.ts";
import type { EnvironmentKit } from "../../runtime/environment.ts";
import type { TaskTemplate } from "../../runtime/store/task_template.ts";

/** The string literals of every expression of a skill. */
function literals(skill: Skill): string[] {
  const texts = skill.nodes.flatMap(nodeExpressions);
  if (skill.doc.post !== undefined) texts.push(skill.doc.post);
  if (skill.doc.pre !== undefined) texts.push(skill.doc.pre);
  return texts.flatMap(quoted);
}

/** The quoted string literals of an expression text. */
function quoted(text: string): string[] {
  return [...text.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]);
}

/** Fails naming the skill, the literal and the object when one is found. */
export function noDemonstrationObjects(
  kit: Pick<EnvironmentKit, "grounder">,
  traces: readonly Trace[],
  library: { skills: readonly Skill[]; templates: readonly TaskTemplate[] },
): void {
  const objects = new Set<string>();
  for (const t of traces) {
    for (const state of groundTrace(t, kit.grounder()).states) {
      for (const id of Object.keys(state.objects())) objects.add(id);
    }
  }
  assert.ok(objects.size > 0, "the demonstrations know no objects");
  const programs = library.templates.flatMap((t) => t.program ? [t.program] : []);
  for (const skill of [...library.skills, ...programs]) {
    for (const literal of literals(skill)) {
      for (const id of objects) {
        assert.ok(
          !literal.includes(id),
          `skill "${skill.name}" names the demonstration object "${id}" in '${literal}'`,
        );
      }
    }
  }
  for (const t of library.templates) {
    for (const step of [...t.steps, ...t.alternatives.flatMap((a) => a.steps)]) {
      for (const arg of step.args) {
        for (const literal of quoted(arg.expr ?? "")) {
          for (const id of objects) {
            assert.ok(!literal.includes(id), `template "${t.type}" names "${id}" in '${literal}'`);
          }
        }
      }
    }
  }
}
