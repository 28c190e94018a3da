// Demonstrations whose every choice is forced (one parcel, two stations:
// the cart can only drive to the other one) still teach rules that choose
// well where there are many: a domain of our own, induced from three such
// plans with the rules withheld, run on larger problems.
import assert from "node:assert/strict";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

const DOMAIN = `(define (domain shuttle)
  (:requirements :strips :typing)
  (:types station parcel)
  (:predicates (cart-at ?s - station) (parcel-at ?p - parcel ?s - station)
               (in-cart ?p - parcel) (cart-empty))
  (:action drive
    :parameters (?from - station ?to - station)
    :precondition (and (cart-at ?from))
    :effect (and (cart-at ?to) (not (cart-at ?from))))
  (:action load
    :parameters (?p - parcel ?s - station)
    :precondition (and (parcel-at ?p ?s) (cart-at ?s) (cart-empty))
    :effect (and (in-cart ?p) (not (parcel-at ?p ?s)) (not (cart-empty))))
  (:action drop
    :parameters (?p - parcel ?s - station)
    :precondition (and (in-cart ?p) (cart-at ?s))
    :effect (and (parcel-at ?p ?s) (cart-empty) (not (in-cart ?p)))))`;

/** A problem: the cart's station, each parcel's station and goal station. */
function problem(
  name: string,
  stations: number,
  cart: number,
  parcels: [from: number, to: number][],
): string {
  const s = Array.from({ length: stations }, (_, i) => `s${i + 1}`);
  const p = parcels.map((_, i) => `p${i + 1}`);
  return `(define (problem ${name}) (:domain shuttle)
  (:objects ${s.join(" ")} - station ${p.join(" ")} - parcel)
  (:init (cart-at s${cart}) (cart-empty)
    ${parcels.map(([from], i) => `(parcel-at p${i + 1} s${from})`).join(" ")})
  (:goal (and ${parcels.map(([, to], i) => `(parcel-at p${i + 1} s${to})`).join(" ")})))`;
}

Deno.test({
  name: "rules from demonstrations with forced choices drive where a parcel waits or is wanted",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { results } = await induceAndSolveTexts(DOMAIN, {
      train: [
        problem("t1", 2, 1, [[1, 2]]),
        problem("t2", 2, 2, [[1, 2]]),
        problem("t3", 2, 1, [[2, 1]]),
      ],
      test: [
        // A parcel already where the goal wants it stays there.
        problem("a", 4, 2, [[1, 3], [4, 2], [2, 2], [3, 1]]),
        problem("b", 6, 6, [[1, 5], [2, 4], [3, 3], [4, 1], [5, 6], [6, 2]]),
      ],
    }, { lookahead: false });
    for (const { id, result } of results) {
      assert.ok(result.success, `${id}: ${result.stop}`);
      assert.equal(result.invalidActions, 0, id);
    }
  },
});
