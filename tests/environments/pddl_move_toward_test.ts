// A move with no reason of its own in the demonstrations (an empty truck's
// drive) learns one from the rule it leads to: toward where that rule
// acts. A domain of our own where trucks and parcels share `at`, induced
// with the rules withheld from three plans with a truck one or two roads
// from its parcel, run where parcels lie many roads away, past roads that
// lead nowhere.
import assert from "node:assert/strict";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

const DOMAIN = `(define (domain courier)
  (:requirements :strips :typing)
  (:types place locatable - object truck parcel - locatable)
  (:predicates (at ?x - locatable ?l - place) (in ?p - parcel ?t - truck)
               (road ?a - place ?b - place))
  (:action drive
    :parameters (?t - truck ?from - place ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to))
    :effect (and (at ?t ?to) (not (at ?t ?from))))
  (:action pick
    :parameters (?t - truck ?l - place ?p - parcel)
    :precondition (and (at ?t ?l) (at ?p ?l))
    :effect (and (in ?p ?t) (not (at ?p ?l))))
  (:action drop
    :parameters (?t - truck ?l - place ?p - parcel)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (at ?p ?l) (not (in ?p ?t)))))`;

/** A problem on the places and two-way roads given: the truck's place, each parcel's place and goal. */
function problem(
  name: string,
  roads: [string, string][],
  truck: string,
  parcels: [from: string, to: string][],
): string {
  const places = [...new Set(roads.flat())];
  const p = parcels.map((_, i) => `p${i + 1}`);
  return `(define (problem ${name}) (:domain courier)
  (:objects ${places.join(" ")} - place t1 - truck ${p.join(" ")} - parcel)
  (:init (at t1 ${truck}) ${roads.map(([a, b]) => `(road ${a} ${b}) (road ${b} ${a})`).join(" ")}
    ${parcels.map(([from], i) => `(at p${i + 1} ${from})`).join(" ")})
  (:goal (and ${parcels.map(([, to], i) => `(at p${i + 1} ${to})`).join(" ")})))`;
}

/** Places on a line: l1 - l2 - ... - ln. */
const line = (n: number): [string, string][] =>
  Array.from({ length: n - 1 }, (_, i) => [`l${i + 1}`, `l${i + 2}`]);

/** A hub with `arms` arms of `length` places each: h - a1_1 - a1_2 ..., h - a2_1 ... */
const star = (arms: number, length: number): [string, string][] =>
  Array.from({ length: arms }, (_, a) =>
    Array.from({ length }, (_, k): [string, string] => [
      k === 0 ? "h" : `a${a + 1}_${k}`,
      `a${a + 1}_${k + 1}`,
    ])).flat();

Deno.test({
  name: "an empty truck's drive heads toward where a parcel waits",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { results } = await induceAndSolveTexts(DOMAIN, {
      train: [
        problem("t1", line(2), "l1", [["l1", "l2"]]),
        problem("t2", line(3), "l2", [["l1", "l3"]]),
        problem("t3", line(3), "l1", [["l3", "l2"]]),
      ],
      test: [
        // From the end of one arm to the end of another, past three arms
        // that lead nowhere: 4 + 4 drives, a pick, 4 drives, a drop.
        problem("a", star(5, 4), "a1_4", [["a4_4", "h"]]),
        problem("b", star(4, 3), "a2_3", [["a3_3", "a1_1"], ["a4_2", "h"]]),
      ],
    }, { lookahead: false });
    for (const { id, result } of results) {
      assert.ok(result.success, `${id}: ${result.stop}`);
      assert.equal(result.invalidActions, 0, id);
    }
    // No drive into an arm where nothing waits: the shortest plans (b: both
    // parcels picked before either is dropped, 18 actions).
    assert.equal(results[0].result.actions, 14);
    assert.ok(results[1].result.actions <= 18, `${results[1].result.actions} actions`);
  },
});
