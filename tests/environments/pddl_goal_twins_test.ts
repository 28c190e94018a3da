// A domain may declare a predicate named like another's goal twin
// (`goal-cell` beside `cell`): the twin takes the next free name.
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

// `goal-cell` marks where paint is wanted; the goal asks for `cell`s painted.
const DOMAIN = `(define (domain paint)
  (:requirements :strips :typing)
  (:types spot)
  (:predicates (cell ?c - spot) (goal-cell ?c - spot) (brush ?c - spot))
  (:action move :parameters (?a - spot ?b - spot)
    :precondition (brush ?a)
    :effect (and (brush ?b) (not (brush ?a))))
  (:action paint :parameters (?c - spot)
    :precondition (and (brush ?c) (goal-cell ?c))
    :effect (cell ?c)))`;

const problem = (name: string, spots: number, wanted: number[]) =>
  `(define (problem ${name})
  (:domain paint)
  (:objects ${Array.from({ length: spots }, (_, i) => `s${i}`).join(" ")} - spot)
  (:init (brush s0) ${wanted.map((i) => `(goal-cell s${i})`).join(" ")})
  (:goal (and ${wanted.map((i) => `(cell s${i})`).join(" ")})))`;

Deno.test("a predicate named like another's goal twin: the twin gets the next free name, and a library solves with both", async () => {
  const kit = pddlKit("pddl:paint", DOMAIN, "paint.pddl", [
    { id: "paint/p1", file: "p1.pddl", text: problem("p1", 3, [1]) },
  ], {});
  const preds = kit.vocabulary.predicates;
  assert.ok("goal_cell" in preds && "goal_cell_" in preds, Object.keys(preds).join(", "));
  const env = kit.create();
  const reset = await env.reset({ id: "paint/p1" });
  const facts = new FactStore();
  facts.apply(kit.grounder().initial(reset.observation, reset.goal).delta);
  // The domain's own predicate from :init, the twin of `cell` from the goal.
  assert.ok(facts.has({ pred: "goal_cell", args: ["s1"] }));
  assert.ok(facts.has({ pred: "goal_cell_", args: ["s1"] }));
  assert.ok(!facts.has({ pred: "goal_cell_", args: ["s0"] }));
  const { results } = await induceAndSolveTexts(DOMAIN, {
    train: [problem("a", 2, [1]), problem("b", 3, [2]), problem("c", 3, [1, 2])],
    // Two test problems, which disagree on the goal cells: one alone would
    // make \`goal-cell\` a kind of spot, as the training problems do not.
    test: [problem("t", 6, [1, 3, 5]), problem("u", 6, [0, 2, 4])],
  });
  assert.ok(
    results.every((r) => r.result.success),
    JSON.stringify(results.map((r) => r.result.stop)),
  );
});
