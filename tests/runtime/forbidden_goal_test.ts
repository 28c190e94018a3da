/**
 * A goal that asks an atom no action adds to be false (a lamp no longer
 * broken): the vocabulary names it (`goal_false_broken`), and once the
 * skills have made every atom the goal asks for hold, look-ahead goes on
 * toward a state without it, with the action no demonstration used.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { induceAndRun } from "../compiler/_induce_and_run.ts";

const LEARNED = { rules: "learned", observe: "changing" };

const DOMAIN = `(define (domain lamps)
  (:requirements :strips)
  (:predicates (lamp ?l) (tool ?t) (lit ?l) (broken ?l))
  (:action switch-on :parameters (?l)
    :precondition (lamp ?l) :effect (lit ?l))
  (:action repair :parameters (?l ?t)
    :precondition (and (lamp ?l) (tool ?t) (broken ?l)) :effect (not (broken ?l))))`;

function problem(id: string, lamps: number, broken: number): string {
  const names = Array.from({ length: lamps }, (_, i) => `l${i}`);
  const faulty = names.slice(lamps - broken);
  return `(define (problem ${id}) (:domain lamps)
  (:objects ${names.join(" ")} pliers)
  (:init (tool pliers) ${names.map((l) => `(lamp ${l})`).join(" ")} ${
    faulty.map((l) => `(broken ${l})`).join(" ")
  })
  (:goal (and ${names.slice(0, lamps - broken).map((l) => `(lit ${l})`).join(" ")} ${
    faulty.map((l) => `(not (broken ${l}))`).join(" ")
  })))`;
}

const kit = pddlKit(
  "pddl:lamps",
  DOMAIN,
  "lamps.pddl",
  [
    { id: "lamps/d1", file: "d1.pddl", text: problem("d1", 1, 0) },
    { id: "lamps/d2", file: "d2.pddl", text: problem("d2", 2, 0) },
    { id: "lamps/t1", file: "t1.pddl", text: problem("t1", 3, 1) },
  ],
  {},
);

Deno.test("what the goal asks to be false of an atom no action adds is named, and sought once the rest holds", async () => {
  assert.ok("goal_false_broken" in kit.vocabulary.predicates);
  const { results: [result], events: [events] } = await induceAndRun(
    kit,
    ["lamps/d1", "lamps/d2"],
    ["lamps/t1"],
    { envOptions: LEARNED, maxActions: 50 },
  );
  const sent = events.flatMap((e) =>
    e.type === "run" && e.event.type === "act" ? [e.event.action] : []
  );
  assert.ok(sent.includes("switch-on l0") && sent.includes("switch-on l1"), sent.join("; "));
  assert.ok(result.success, result.stop);
});
