// Look-ahead toward the goal once the skills are stuck: a goal relation the
// demonstrations never asked for, on a small domain of our own.
import assert from "node:assert/strict";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

/** A workshop: a log in hand is wielded, and sawn into a plank, which frees the hand. */
const WORKSHOP = `
(define (domain workshop)
  (:requirements :strips :typing :negative-preconditions)
  (:types item agent)
  (:predicates (log ?i - item) (raw ?i - item) (plank ?i - item) (have ?i - item)
    (wields ?i - item ?a - agent) (free ?a - agent))
  (:action wield
    :parameters (?i - item ?a - agent)
    :precondition (and (have ?i) (free ?a))
    :effect (and (wields ?i ?a) (not (have ?i)) (not (free ?a))))
  (:action saw
    :parameters (?p - item ?a - agent ?l - item)
    :precondition (and (raw ?p) (log ?l) (wields ?l ?a))
    :effect (and (plank ?p) (have ?p) (free ?a) (not (raw ?p)) (not (log ?l))
      (not (wields ?l ?a)))))
`;

/** `n` logs in hand and as many raw planks; the goal as given. */
function shop(name: string, n: number, goal: string): string {
  const logs = Array.from({ length: n }, (_, k) => `l${k + 1}`);
  const planks = Array.from({ length: n }, (_, k) => `p${k + 1}`);
  return `(define (problem ${name}) (:domain workshop)
  (:objects ${[...logs, ...planks].join(" ")} - item me - agent)
  (:init (free me) ${logs.map((l) => `(log ${l}) (have ${l})`).join(" ")}
    ${planks.map((p) => `(raw ${p})`).join(" ")})
  (:goal (and ${goal})))`;
}

const planks = (n: number) => Array.from({ length: n }, (_, k) => `(plank p${k + 1})`).join(" ");

Deno.test("skills stuck on a goal the demonstrations never asked for get there by looking ahead", async () => {
  const problems = {
    train: [shop("t1", 1, planks(1)), shop("t2", 2, planks(2)), shop("t3", 3, planks(3))],
    // Wielding a plank: the demonstrations only made planks, and only wielded logs.
    test: [shop("wield", 2, "(wields p2 me)")],
  };
  const [looked] = (await induceAndSolveTexts(WORKSHOP, problems)).results;
  assert.ok(looked.result.success, looked.result.stop);
  assert.ok(looked.result.plannedActions > 0);
  assert.equal(looked.result.invalidActions, 0);
  // Without look-ahead the skills stop where no rule applies.
  const [stuck] = (await induceAndSolveTexts(WORKSHOP, problems, { lookahead: false })).results;
  assert.equal(stuck.result.success, false);
});
