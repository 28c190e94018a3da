// A small tour domain, shared by the look-ahead and policy tests.

/** Places joined by links; each visited once, then home to the start. */
export const TOUR_DOMAIN = `
(define (domain tour)
  (:requirements :strips :typing :negative-preconditions)
  (:types place)
  (:predicates (at ?x - place) (visited ?x - place) (start ?x - place) (link ?x - place ?y - place)
    (home))
  (:action go :parameters (?x - place ?y - place)
    :precondition (and (at ?x) (link ?x ?y) (not (visited ?y)) (not (start ?y)))
    :effect (and (not (at ?x)) (at ?y) (visited ?y)))
  (:action back :parameters (?x - place ?y - place)
    :precondition (and (at ?x) (link ?x ?y) (start ?y))
    :effect (and (not (at ?x)) (at ?y) (home))))
`;

/**
 * A tour from s over `places` along the (two-way) `links`, visiting the
 * places of `goal` (every place unless given), never those of `forbidden`,
 * and coming home.
 */
export function tourProblem(
  name: string,
  places: string[],
  links: [string, string][],
  goal: string[] = places,
  forbidden: string[] = [],
): string {
  const both = links.flatMap(([a, b]) => [`(link ${a} ${b})`, `(link ${b} ${a})`]);
  const never = forbidden.map((p) => `(not (visited ${p}))`).join(" ");
  return `(define (problem ${name}) (:domain tour) (:objects s ${places.join(" ")} - place)
  (:init (at s) (start s) ${both.join(" ")})
  (:goal (and ${goal.map((p) => `(visited ${p})`).join(" ")} ${never} (home))))`;
}
