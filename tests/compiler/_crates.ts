/**
 * A domain of crates on a floor, piled on each other: grabbed from the
 * floor or lifted off another crate, dropped on the floor or piled.
 */
export const CRATES = `(define (domain crates)
  (:requirements :strips :typing)
  (:types crate)
  (:predicates (floor ?c - crate) (on ?c - crate ?d - crate) (top ?c - crate) (held ?c - crate) (free))
  (:action grab :parameters (?c - crate)
    :precondition (and (floor ?c) (top ?c) (free))
    :effect (and (held ?c) (not (floor ?c)) (not (top ?c)) (not (free))))
  (:action lift :parameters (?c - crate ?d - crate)
    :precondition (and (on ?c ?d) (top ?c) (free))
    :effect (and (held ?c) (top ?d) (not (on ?c ?d)) (not (top ?c)) (not (free))))
  (:action drop :parameters (?c - crate)
    :precondition (held ?c)
    :effect (and (floor ?c) (top ?c) (free) (not (held ?c))))
  (:action pile :parameters (?c - crate ?d - crate)
    :precondition (and (held ?c) (top ?d))
    :effect (and (on ?c ?d) (top ?c) (free) (not (held ?c)) (not (top ?d)))))`;

/** Crates `piles` (each bottom first) and a goal of piles. */
export function cratesProblem(name: string, piles: string[][], goal: string[][]): string {
  const crates = piles.flat();
  const init = ["(free)"];
  for (const pile of piles) {
    init.push(`(floor ${pile[0]})`, `(top ${pile[pile.length - 1]})`);
    for (let i = 1; i < pile.length; i++) init.push(`(on ${pile[i]} ${pile[i - 1]})`);
  }
  const wanted = goal.flatMap((pile) => pile.slice(1).map((c, i) => `(on ${c} ${pile[i]})`));
  return `(define (problem ${name}) (:domain crates)
  (:objects ${crates.join(" ")} - crate)
  (:init ${init.join(" ")})
  (:goal (and ${wanted.join(" ")})))`;
}
