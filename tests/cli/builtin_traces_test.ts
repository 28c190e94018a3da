// `--traces builtin`: the expert's demonstrations on the smallest problems,
// a problem with no plan skipped for the next smallest.
import assert from "node:assert/strict";
import { builtinTraces } from "../../cli/_tasks.ts";
import { pddlKit } from "../../environments/pddl/kit.ts";

const DOMAIN = `(define (domain hop) (:requirements :strips)
  (:predicates (at ?x) (link ?x ?y))
  (:action hop :parameters (?from ?to)
    :precondition (and (at ?from) (link ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))`;

/** A chain of `n` places linked one way, from `a0`; the goal is `goal`. */
function chain(id: string, n: number, goal: string) {
  const places = Array.from({ length: n }, (_, i) => `a${i}`);
  const links = places.slice(1).map((p, i) => `(link ${places[i]} ${p})`).join(" ");
  return {
    id: `hop/${id}`,
    file: `${id}.pddl`,
    text: `(define (problem ${id}) (:domain hop) (:objects ${places.join(" ")})
  (:init (at a0) ${links}) (:goal (at ${goal})))`,
  };
}

Deno.test("builtin demonstrations skip a problem with no plan and take the next smallest", async () => {
  // p2 is among the smallest but its goal lies against the links: no plan.
  const kit = pddlKit(
    "pddl:hop",
    DOMAIN,
    "hop.pddl",
    [
      chain("p1", 2, "a1"),
      chain("p2", 3, "a0x"),
      chain("p3", 4, "a3"),
      chain("p4", 5, "a4"),
      chain("p5", 6, "a5"),
    ].map((p) =>
      p.id === "hop/p2" ? { ...p, text: p.text.replace("(at a0x)", "(link a2 a0)") } : p
    ),
    {},
  );
  const skipped: string[] = [];
  const traces = await builtinTraces(kit, { count: 3, onSkip: (m) => skipped.push(m) });
  assert.deepEqual(traces.map((t) => t.task.id), ["hop/p1", "hop/p3", "hop/p4"]);
  assert.equal(skipped.length, 1);
  assert.match(skipped[0], /hop\/p2.*No plan found.*skipped/);
});

Deno.test("builtin demonstrations say so when the expert solves none", async () => {
  const kit = pddlKit("pddl:hop", DOMAIN, "hop.pddl", [
    { ...chain("p1", 2, "a1"), text: chain("p1", 2, "a1").text.replace("(at a1)", "(link a1 a0)") },
  ], {});
  await assert.rejects(
    builtinTraces(kit, { count: 3 }),
    /solves none of the 1 demonstration tasks/,
  );
});
