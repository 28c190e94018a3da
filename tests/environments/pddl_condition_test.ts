// Preconditions beyond a conjunction of literals: exists, forall, imply, or.
import assert from "node:assert/strict";
import { parseDomain, parseProblem } from "../../environments/pddl/parse.ts";
import { actionText, PddlWorld } from "../../environments/pddl/world.ts";
import { planPddl } from "../../environments/pddl/plan.ts";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

/**
 * Lamps light once every fuse that fits them is fitted; a fuse is fitted
 * only for a lamp still dark, and taken out only if spare or all is dark.
 */
const LAMPS = `
(define (domain lamps)
  (:requirements :strips :typing :quantified-preconditions :disjunctive-preconditions)
  (:types lamp fuse)
  (:predicates (lit ?l - lamp) (fits ?f - fuse ?l - lamp) (fitted ?f - fuse) (spare ?f - fuse))
  (:action fit
    :parameters (?f - fuse)
    :precondition (and (not (fitted ?f)) (exists (?l - lamp) (and (fits ?f ?l) (not (lit ?l)))))
    :effect (fitted ?f))
  (:action switch-on
    :parameters (?l - lamp)
    :precondition (and (not (lit ?l)) (forall (?f - fuse) (imply (fits ?f ?l) (fitted ?f))))
    :effect (lit ?l))
  (:action unfit
    :parameters (?f - fuse)
    :precondition (and (fitted ?f) (or (spare ?f) (forall (?l - lamp) (not (lit ?l)))))
    :effect (not (fitted ?f))))
`;

/** `n` lamps, lamp k fitting fuses k.1 .. k.(fuses k); the goal lights `lit`. */
function lamps(name: string, fuses: number[], lit: number[], init = ""): string {
  const ls = fuses.map((_, k) => `l${k + 1}`);
  const fs = fuses.flatMap((n, k) => Array.from({ length: n }, (_, i) => `f${k + 1}_${i + 1}`));
  const fits = fuses.flatMap((n, k) =>
    Array.from({ length: n }, (_, i) => `(fits f${k + 1}_${i + 1} l${k + 1})`)
  );
  return `(define (problem ${name}) (:domain lamps)
  (:objects ${ls.join(" ")} - lamp ${fs.join(" ")} - fuse)
  (:init ${fits.join(" ")} ${init})
  (:goal (and ${lit.map((k) => `(lit l${k})`).join(" ")})))`;
}

Deno.test("a precondition keeps its literals and reads exists, forall and imply as a condition", () => {
  const domain = parseDomain(LAMPS, "lamps.pddl");
  const on = domain.actions.find((a) => a.name === "switch-on")!;
  assert.deepEqual(on.precondition, [{ pred: "lit", args: ["?l"], negated: true }]);
  assert.deepEqual(on.condition, [{
    op: "forall",
    vars: [{ name: "?f", type: "fuse" }],
    body: {
      op: "or",
      items: [
        {
          op: "not",
          item: { op: "literal", literal: { pred: "fits", args: ["?f", "?l"], negated: false } },
        },
        { op: "literal", literal: { pred: "fitted", args: ["?f"], negated: false } },
      ],
    },
  }]);
  // A variable neither a parameter nor quantified is an error naming the action.
  assert.throws(
    () => parseDomain(LAMPS.replace("(fitted ?f))))", "(fitted ?g))))"), "lamps.pddl"),
    /action "switch-on" uses "\?g", which is not a parameter/,
  );
  assert.throws(
    () => parseDomain(LAMPS.replace("(exists (?l - lamp)", "(exists (l - lamp)"), "lamps.pddl"),
    /variable "l" must start with "\?"/,
  );
});

Deno.test("the world applies an action only where its condition holds, and the planner plans with it", () => {
  const domain = parseDomain(LAMPS, "lamps.pddl");
  // Lamp 3 fits no fuse: it may be switched on at once (forall over nothing).
  const world = new PddlWorld(domain, parseProblem(lamps("p", [2, 1, 0], [1, 2]), "p.pddl"));
  const state = world.initial();
  assert.deepEqual(world.applicable(state).map(actionText), [
    "fit f1_1",
    "fit f1_2",
    "fit f2_1",
    "switch-on l3",
  ]);
  const fitted = world.apply(world.parseAction("fit f1_1")!, state);
  assert.equal(world.holds(world.parseAction("switch-on l1")!, fitted), false);
  const both = world.apply(world.parseAction("fit f1_2")!, fitted);
  assert.equal(world.holds(world.parseAction("switch-on l1")!, both), true);
  // Once a lamp is lit, a fuse comes out only if spare (or).
  const lit = world.apply(world.parseAction("switch-on l1")!, both);
  assert.equal(world.holds(world.parseAction("unfit f1_1")!, both), true);
  assert.equal(world.holds(world.parseAction("unfit f1_1")!, lit), false);
  const spare = new PddlWorld(
    domain,
    parseProblem(lamps("p", [2, 1, 0], [1], "(spare f1_1)"), "p.pddl"),
  );
  const withSpare = new Set([...lit, "spare f1_1"]);
  assert.equal(spare.holds(spare.parseAction("unfit f1_1")!, withSpare), true);
  assert.equal(spare.holds(spare.parseAction("unfit f1_2")!, withSpare), false);
  // The plan reaches the goal, each step applicable where it is taken.
  const plan = planPddl(world)!;
  let s = world.initial();
  for (const g of plan) {
    assert.ok(world.holds(g, s), actionText(g));
    s = world.apply(g, s);
  }
  assert.ok(world.satisfied(s));
  assert.equal(plan.length, 5);
});

Deno.test("the domain's rules state a condition as one rule with its quantifier", async () => {
  const kit = pddlKit("pddl:lamps", LAMPS, "lamps.pddl", [
    { id: "lamps/p1", file: "p1.pddl", text: lamps("p1", [2, 1], [1, 2]) },
  ], {});
  const model = ActionModel.fromJSON(kit.actionRules!(), kit.vocabulary);
  const env = kit.create();
  const reset = await env.reset({ id: "lamps/p1" });
  const facts = new FactStore();
  facts.apply(kit.grounder().initial(reset.observation, reset.goal).delta);
  const [unmet] = model.unmet(facts, "switch-on l1");
  assert.match(unmet, /^forall\(f: fuse, .*fits\(f, 'l1'\).*fitted\(f\)/);
  assert.deepEqual(model.unmet(facts, "fit f1_1"), []);
});

Deno.test("skills induced from small lamp problems light a larger set, with the rules learned", async () => {
  const { results } = await induceAndSolveTexts(LAMPS, {
    train: [lamps("t1", [1], [1]), lamps("t2", [1, 2], [1, 2]), lamps("t3", [2, 1, 1], [1, 3])],
    test: [lamps("big1", [3, 1, 2, 0, 2], [1, 2, 3, 4]), lamps("big2", [2, 2, 2, 2], [4, 2, 3])],
  });
  assert.equal(results.length, 2);
  for (const { id, result } of results) {
    assert.ok(result.success, `${id}: ${result.stop}`);
    assert.equal(result.plannedActions, 0, `${id}: look-ahead planned actions`);
  }
});
