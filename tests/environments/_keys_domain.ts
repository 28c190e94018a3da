// A small domain in pddlgym's conventions, shared by the PDDL and agent tests.

/** Keys and doors: an agent walks between rooms (not to the room it is in) and opens doors. */
export const KEYS_DOMAIN = `
; a small domain in pddlgym's conventions
(define (domain keys)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types room door key agent)
  (:predicates
    (in ?a - agent ?r - room)
    (door-of ?d - door ?r - room)
    (opened ?d - door)
    (holding ?a - agent ?k - (either key door))
    (lying ?k - key ?r - room)
    (fits ?k - key ?d - door)
    (walk ?r - room)
    (take ?k - key)
    (open ?d - door)
  )
  ; (:actions walk take open)
  (:action walk
    :parameters (?a - agent ?from - room ?to - room)
    :precondition (and (walk ?to) (in ?a ?from) (not (= ?from ?to)))
    :effect (and (not (in ?a ?from)) (in ?a ?to)))
  (:action take
    :parameters (?a - agent ?k - key ?r - room)
    :precondition (and (take ?k) (in ?a ?r) (lying ?k ?r) (not (holding ?a ?k)))
    :effect (and (holding ?a ?k) (not (lying ?k ?r))))
  (:action open
    :parameters (?a - agent ?k - key ?d - door ?r - room)
    :precondition (and (open ?d) (in ?a ?r) (door-of ?d ?r) (holding ?a ?k) (fits ?k ?d)
      (not (opened ?d)))
    :effect (opened ?d)))
`;

/** Doors d1 (room r2, key k1 in r3) and d2 (room r1, key k2 in r2); the agent starts in r1. */
export const KEYS_PROBLEM = `
(define (problem two-doors) (:domain keys)
  (:objects me - agent r1 r2 r3 - room d1 d2 - door k1 k2 - key)
  (:init (in me r1) (door-of d1 r2) (door-of d2 r1) (lying k1 r3) (lying k2 r2)
    (fits k1 d1) (fits k2 d2)
    ; action literals
    (walk r1) (walk r2) (walk r3) (take k1) (take k2) (open d1) (open d2))
  (:goal (and (opened d1) (opened d2))))
`;
