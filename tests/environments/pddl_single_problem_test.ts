// A problem file named alone (`pddl:domain.pddl+p1.pddl`) is typed as its
// folder is: the problems beside it are read for the objects' typing, so a
// library induced on the folder loads on the one problem.
import assert from "node:assert/strict";
import { loadPddlKit } from "../../environments/pddl/load.ts";

// Cells are goal or not per problem: alone, one problem makes `target-cell`
// and `plain-cell` look like kinds of object; together they are not.
const DOMAIN = `(define (domain pushes)
  (:requirements :strips)
  (:predicates (target-cell ?c) (plain-cell ?c) (next ?a ?b) (box-at ?c) (done ?c) (ball ?b) (held ?b))
  (:action mark :parameters (?c)
    :precondition (and (target-cell ?c) (box-at ?c))
    :effect (and (done ?c) (not (box-at ?c))))
  (:action hold :parameters (?b)
    :precondition (ball ?b)
    :effect (held ?b)))`;

const problem = (name: string, goal: string, plain: string) =>
  `(define (problem ${name})
  (:domain pushes)
  (:objects c1 c2 b1)
  (:init (target-cell ${goal}) (plain-cell ${plain}) (next c1 c2) (box-at ${goal}) (ball b1))
  (:goal (and (done ${goal}) (held b1))))`;

Deno.test("one problem file is typed by the problems beside it: a target cell is no kind of object, a ball still is", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/domain.pddl`, DOMAIN);
    await Deno.mkdir(`${dir}/problems`);
    await Deno.writeTextFile(`${dir}/problems/p1.pddl`, problem("p1", "c1", "c2"));
    await Deno.writeTextFile(`${dir}/problems/p2.pddl`, problem("p2", "c2", "c1"));
    const folder = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/problems`);
    const one = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/problems/p1.pddl`);
    // Beside files that are no problems of the domain, which are left out.
    await Deno.mkdir(`${dir}/mixed`);
    await Deno.writeTextFile(`${dir}/mixed/p1.pddl`, problem("p1", "c1", "c2"));
    await Deno.writeTextFile(`${dir}/mixed/p2.pddl`, problem("p2", "c2", "c1"));
    await Deno.writeTextFile(`${dir}/mixed/notes.pddl`, "(define (problem x) (:domain pushes)");
    await Deno.writeTextFile(
      `${dir}/mixed/other.pddl`,
      problem("o", "c1", "c1").replace("(:domain pushes)", "(:domain elsewhere)"),
    );
    const mixed = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/mixed/p1.pddl`);
    assert.ok("Ball" in folder.vocabulary.types, Object.keys(folder.vocabulary.types).join(", "));
    assert.ok(!("Target_cell" in folder.vocabulary.types));
    assert.deepEqual(one.vocabulary, folder.vocabulary);
    assert.deepEqual(mixed.vocabulary, folder.vocabulary);
    // Still one task: the file named.
    assert.deepEqual(one.taskList!({ split: "unseen" }).map((t) => t.id), [
      `${dir.split("/").pop()}/p1`,
    ]);
    // Alone (its folder holds nothing else), it types as before.
    await Deno.mkdir(`${dir}/alone`);
    await Deno.writeTextFile(`${dir}/alone/p1.pddl`, problem("p1", "c1", "c2"));
    const alone = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/alone/p1.pddl`);
    assert.ok(
      "Target_cell" in alone.vocabulary.types,
      Object.keys(alone.vocabulary.types).join(", "),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one problem file named without a folder is typed by the problems beside it in the working directory", async () => {
  const dir = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  try {
    await Deno.writeTextFile(`${dir}/domain.pddl`, DOMAIN);
    await Deno.writeTextFile(`${dir}/p1.pddl`, problem("p1", "c1", "c2"));
    await Deno.writeTextFile(`${dir}/p2.pddl`, problem("p2", "c2", "c1"));
    await Deno.mkdir(`${dir}/problems`);
    await Deno.copyFile(`${dir}/p1.pddl`, `${dir}/problems/p1.pddl`);
    await Deno.copyFile(`${dir}/p2.pddl`, `${dir}/problems/p2.pddl`);
    const folder = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/problems`);
    Deno.chdir(dir);
    const one = await loadPddlKit("pddl:domain.pddl+p1.pddl");
    assert.ok(!("Target_cell" in one.vocabulary.types), Object.keys(one.vocabulary.types).join());
    assert.deepEqual(one.vocabulary, folder.vocabulary);
    assert.equal(one.taskList!({ split: "unseen" }).length, 1);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
});
