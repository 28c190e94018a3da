/**
 * Parcels carried between towns: a parcel flies itself from hub to hub; a
 * van carries it between the places of its town. Where every town is one
 * hub, no demonstration ever drives a van (driving to where it stands
 * changes nothing); a town of several places needs it.
 */
export const PARCELS = `(define (domain parcels)
  (:requirements :strips :typing)
  (:types parcel van place town)
  (:predicates (at ?x - parcel ?l - place) (parked ?v - van ?l - place) (in ?p - parcel ?v - van)
               (in-town ?l - place ?t - town) (hub ?l - place))
  (:action load :parameters (?p - parcel ?v - van ?l - place)
    :precondition (and (parked ?v ?l) (at ?p ?l))
    :effect (and (in ?p ?v) (not (at ?p ?l))))
  (:action unload :parameters (?p - parcel ?v - van ?l - place)
    :precondition (and (parked ?v ?l) (in ?p ?v))
    :effect (and (at ?p ?l) (not (in ?p ?v))))
  (:action drive :parameters (?v - van ?from - place ?to - place ?t - town)
    :precondition (and (parked ?v ?from) (in-town ?from ?t) (in-town ?to ?t))
    :effect (and (parked ?v ?to) (not (parked ?v ?from))))
  (:action fly :parameters (?p - parcel ?from - place ?to - place)
    :precondition (and (hub ?from) (hub ?to) (at ?p ?from))
    :effect (and (at ?p ?to) (not (at ?p ?from)))))`;

/** A town: its places, the first its hub, and where its van is parked. */
export interface Town {
  places: number;
  van: number;
}

/**
 * A problem of towns `t0, t1, ...` with places `p<town>_<i>` (`p<town>_0`
 * the hub), a van `v<town>` per town, and parcels `[from, to]` by place name.
 */
export function parcelsProblem(name: string, towns: Town[], parcels: [string, string][]): string {
  const places = towns.flatMap((t, i) => Array.from({ length: t.places }, (_, j) => `p${i}_${j}`));
  const init: string[] = [];
  towns.forEach((t, i) => {
    init.push(`(hub p${i}_0)`, `(parked v${i} p${i}_${t.van})`);
    for (let j = 0; j < t.places; j++) init.push(`(in-town p${i}_${j} t${i})`);
  });
  parcels.forEach(([from], k) => init.push(`(at c${k} ${from})`));
  return `(define (problem ${name}) (:domain parcels)
  (:objects ${parcels.map((_, k) => `c${k}`).join(" ")} - parcel
    ${towns.map((_, i) => `v${i}`).join(" ")} - van
    ${places.join(" ")} - place
    ${towns.map((_, i) => `t${i}`).join(" ")} - town)
  (:init ${init.join(" ")})
  (:goal (and ${parcels.map(([, to], k) => `(at c${k} ${to})`).join(" ")})))`;
}
