const VAULT_BODY = `(define (domain vault)
  (:requirements :strips :typing)
  (:types room colour item - object badge parcel - item)
  (:predicates (adjacent ?a - room ?b - room) (courier_in ?r - room) (unsealed ?r - room)
    (sealed ?r - room) (room_colour ?r - room ?c - colour) (badge_colour ?b - badge ?c - colour)
    (lies ?i - item ?r - room) (carries ?i - item) (hand_free))
  (:action walk :parameters (?from - room ?to - room)
    :precondition (and (courier_in ?from) (adjacent ?from ?to) (unsealed ?to))
    :effect (and (courier_in ?to) (not (courier_in ?from))))
  (:action unseal :parameters (?here - room ?door - room ?b - badge ?c - colour)
    :precondition (and (courier_in ?here) (adjacent ?here ?door) (sealed ?door) (carries ?b)
      (badge_colour ?b ?c) (room_colour ?door ?c))
    :effect (and (unsealed ?door) (not (sealed ?door))))
  (:action take :parameters (?r - room ?i - item)
    :precondition (and (courier_in ?r) (lies ?i ?r) (hand_free))
    :effect (and (carries ?i) (not (lies ?i ?r)) (not (hand_free))))
  (:action leave :parameters (?r - room ?i - item)
    :precondition (and (courier_in ?r) (carries ?i))
    :effect (and (lies ?i ?r) (hand_free) (not (carries ?i))))`;

/**
 * A domain of sealed rooms along a corridor: a courier walks between
 * adjacent rooms, but into a sealed one only once a badge of the room's
 * colour, in hand, has unsealed it; parcels (and badges) are taken and
 * left one at a time.
 */
export const VAULT = `${VAULT_BODY})`;

/**
 * The vault domain with one more action: in one go, take an item lying in
 * the courier's room and leave the one in hand there.
 */
export const VAULT_EXCHANGE = `${VAULT_BODY}
  (:action exchange :parameters (?r - room ?new - item ?old - item)
    :precondition (and (courier_in ?r) (lies ?new ?r) (carries ?old))
    :effect (and (carries ?new) (not (lies ?new ?r)) (lies ?old ?r) (not (carries ?old)))))`;

/**
 * The exchange domain with badges and parcels alike items (one type): what
 * a swap takes up and lays down are of the kind the seal wants.
 */
export const VAULT_EXCHANGE_ITEMS = VAULT_EXCHANGE
  .replace("item - object badge parcel - item", "item")
  .replaceAll("?b - badge", "?b - item");

/** What a vault problem holds. */
export interface VaultLayout {
  /** Rooms along the corridor, in order. */
  rooms: number;
  /** Sealed rooms and their colours. */
  sealed: Record<number, string>;
  /** Badges: colour and room. */
  badges: [string, number][];
  /** Parcels: room and the room the goal wants it in. */
  parcels: [number, number][];
  /** Where the courier starts. */
  start: number;
  /** Badges the goal wants in a room: badge index and room. */
  badgeGoals?: [number, number][];
}

/** A vault problem's PDDL text (badges and parcels typed `item` with `items`). */
export function vaultProblem(name: string, layout: VaultLayout, items = false): string {
  const room = (i: number) => `r${i}`;
  const rooms = Array.from({ length: layout.rooms }, (_, i) => room(i));
  const colours = [...new Set([...Object.values(layout.sealed), ...layout.badges.map(([c]) => c)])];
  const badges = layout.badges.map((_, i) => `b${i}`);
  const parcels = layout.parcels.map((_, i) => `p${i}`);
  const init = ["(hand_free)", `(courier_in ${room(layout.start)})`];
  for (let i = 0; i + 1 < layout.rooms; i++) {
    init.push(`(adjacent ${room(i)} ${room(i + 1)})`, `(adjacent ${room(i + 1)} ${room(i)})`);
  }
  rooms.forEach((r, i) => {
    const colour = layout.sealed[i];
    init.push(colour ? `(sealed ${r}) (room_colour ${r} ${colour})` : `(unsealed ${r})`);
  });
  layout.badges.forEach(([colour, at], i) => {
    init.push(`(badge_colour ${badges[i]} ${colour})`, `(lies ${badges[i]} ${room(at)})`);
  });
  layout.parcels.forEach(([at], i) => init.push(`(lies ${parcels[i]} ${room(at)})`));
  const goal = layout.parcels.map(([, to], i) => `(lies ${parcels[i]} ${room(to)})`);
  for (const [b, to] of layout.badgeGoals ?? []) goal.push(`(lies ${badges[b]} ${room(to)})`);
  return `(define (problem ${name}) (:domain vault)
  (:objects ${rooms.join(" ")} - room ${colours.join(" ")} - colour ${
    badges.length > 0 ? `${badges.join(" ")} - ${items ? "item" : "badge"}` : ""
  } ${parcels.join(" ")} - ${items ? "item" : "parcel"})
  (:init ${init.join(" ")})
  (:goal (and ${goal.join(" ")})))`;
}
