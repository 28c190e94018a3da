/**
 * Ground atoms as text, shared by the world and the conditions it checks.
 *
 * @module
 */
import type { PddlAtom } from "./parse.ts";

/** A ground atom as text: the predicate and its objects, space-separated (`"at ball1 rooma"`). */
export type Fact = string;

/** The fact of an atom with its variables bound. */
export function groundAtom(atom: PddlAtom, binding: ReadonlyMap<string, string>): Fact {
  return [atom.pred, ...atom.args.map((a) => binding.get(a) ?? a)].join(" ");
}
