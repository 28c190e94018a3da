// Plan polishing: detours become one action where one action leads from a
// state of the plan to a later one, and actions the goal does not need go.
import assert from "node:assert/strict";
import { parseDomain, parseProblem } from "../../environments/pddl/parse.ts";
import { actionText, type GroundAction, PddlWorld } from "../../environments/pddl/world.ts";
import { polishPlan } from "../../environments/pddl/polish.ts";

/**
 * Untyped places, told apart by a static `place` predicate listed first in
 * each precondition (as untyped domains do); `jump` reaches any linked
 * place, `tag` marks the walker's place with either of two flags no effect
 * names, and `wait` changes nothing.
 */
const DOMAIN = parseDomain(
  `(define (domain walk) (:requirements :strips)
    (:predicates (place ?x) (flag ?f) (at ?x) (link ?x ?y) (tagged ?x))
    (:action go :parameters (?x ?y)
      :precondition (and (place ?x) (place ?y) (at ?x) (link ?x ?y))
      :effect (and (not (at ?x)) (at ?y)))
    (:action tag :parameters (?x ?f)
      :precondition (and (place ?x) (flag ?f) (at ?x))
      :effect (tagged ?x))
    (:action wait :parameters (?x) :precondition (and (place ?x) (at ?x)) :effect (and)))`,
  "walk.pddl",
);

function world(goal: string): PddlWorld {
  return new PddlWorld(
    DOMAIN,
    parseProblem(
      `(define (problem p) (:domain walk) (:objects a b c d red blue)
        (:init (place a) (place b) (place c) (place d) (flag red) (flag blue) (at a)
          (link a b) (link b c) (link c d) (link a c) (link b a))
        (:goal ${goal}))`,
      "p.pddl",
    ),
  );
}

function plan(w: PddlWorld, ...texts: string[]): GroundAction[] {
  return texts.map((t) => w.parseAction(t)!);
}

Deno.test("polishPlan takes the longest one-action shortcut and drops what the goal does not need", () => {
  const w = world("(and (at d) (tagged c))");
  // a -> b -> c is `go a c`; tagging c twice needs one.
  const polished = polishPlan(
    w,
    w.initial(),
    plan(w, "go a b", "go b c", "tag c red", "tag c blue", "go c d"),
  );
  assert.deepEqual(polished.map(actionText), ["go a c", "tag c red", "go c d"]);
});

Deno.test("polishPlan: of several actions leading to the same state, the first applicable one", () => {
  const w = world("(and (at c) (tagged b))");
  // `tag b blue` then `go b a`, `go a b` back: the round trip is a detour.
  const polished = polishPlan(
    w,
    w.initial(),
    plan(w, "go a b", "tag b blue", "go b a", "go a b", "go b c"),
    { goal: [] },
  );
  // With no goal to reach, elimination drops everything.
  assert.deepEqual(polished, []);
  const kept = polishPlan(
    w,
    w.initial(),
    plan(w, "go a b", "tag b blue", "go b a", "go a b", "go b c"),
  );
  // Tagging b and the round trip b -> a -> b only tag b: one `tag b`
  // does, with either flag (no effect names it), and red comes first.
  assert.deepEqual(kept.map(actionText), ["go a b", "tag b red", "go b c"]);
});

Deno.test("applicableWith binds the other parameters from the state, as applicable() does", () => {
  const w = world("(and (at d))");
  const start = w.initial();
  const tag = DOMAIN.actions.find((a) => a.name === "tag")!;
  const go = DOMAIN.actions.find((a) => a.name === "go")!;
  // `?f` appears in no effect: bound by `(flag ?f)`, not by every object.
  assert.deepEqual(
    w.applicableWith(tag, new Map([["?x", "a"]]), start).map(actionText),
    ["tag a red", "tag a blue"],
  );
  assert.deepEqual(w.applicableWith(tag, new Map([["?x", "b"]]), start), []);
  const fromA = w.applicable(start).filter((g) => g.action === go).map(actionText);
  assert.deepEqual(w.applicableWith(go, new Map([["?x", "a"]]), start).map(actionText), fromA);
  assert.deepEqual(
    w.applicableWith(go, new Map([["?y", "c"]]), start).map(actionText),
    ["go a c"],
  );
});
