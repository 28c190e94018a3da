/**
 * The stop reason of an episode whose look-ahead toward the goal sent
 * actions, even when each of them was refused: a lamp no wire feeds cannot
 * be switched on, and the repair no demonstration used is tried in vain.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { induceAndRun } from "../compiler/_induce_and_run.ts";

const LEARNED = { rules: "learned", observe: "changing" };

const DOMAIN = `(define (domain lamps)
  (:requirements :strips)
  (:predicates (lamp ?l) (tool ?t) (wired ?l) (lit ?l) (broken ?l))
  (:action switch-on :parameters (?l)
    :precondition (and (lamp ?l) (wired ?l)) :effect (lit ?l))
  (:action repair :parameters (?l ?t)
    :precondition (and (lamp ?l) (tool ?t) (broken ?l)) :effect (not (broken ?l))))`;

function problem(id: string, lamps: number, wired: boolean): string {
  const names = Array.from({ length: lamps }, (_, i) => `l${i}`);
  return `(define (problem ${id}) (:domain lamps)
  (:objects ${names.join(" ")} pliers)
  (:init (tool pliers) ${names.map((l) => `(lamp ${l})${wired ? ` (wired ${l})` : ""}`).join(" ")})
  (:goal (and ${names.map((l) => `(lit ${l})`).join(" ")})))`;
}

const kit = pddlKit(
  "pddl:lamps",
  DOMAIN,
  "lamps.pddl",
  [
    { id: "lamps/d1", file: "d1.pddl", text: problem("d1", 1, true) },
    { id: "lamps/d2", file: "d2.pddl", text: problem("d2", 2, true) },
    { id: "lamps/t1", file: "t1.pddl", text: problem("t1", 2, false) },
  ],
  {},
);

Deno.test("a stop reason says look-ahead toward the goal did not end the task when it only sent refused tries", async () => {
  const { results: [result], events: [events] } = await induceAndRun(
    kit,
    ["lamps/d1", "lamps/d2"],
    ["lamps/t1"],
    { envOptions: LEARNED, maxActions: 50 },
  );
  assert.equal(result.success, false);
  const explored = events.find((e) => e.type === "decide" && e.node === "explore");
  assert.ok(explored, "the unseen repair is tried");
  assert.ok(result.invalidActions > 0);
  assert.match(result.stop, /look-ahead toward the goal did not end it/);
});
