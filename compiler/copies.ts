/**
 * Copies among segments: a demonstration recorded twice gives segments with
 * the same parameters, actions and (shared) states, which every program
 * replays alike, so induction replays and leaves out each class once.
 *
 * @module
 */
import type { Segment } from "./segment.ts";

/**
 * For each segment, the position of the first segment it is a copy of
 * (its own when it is none): a copy has the same parameter values,
 * accepted actions and state objects (shared by `shareStates`), so every
 * program replays it exactly as the original. Induction replays each class
 * of copies once.
 */
export function copyClasses(segments: readonly Segment[]): number[] {
  const ids = new Map<object, number>();
  const idOf = (state: object) => {
    let id = ids.get(state);
    if (id === undefined) ids.set(state, id = ids.size);
    return id;
  };
  const first = new Map<string, number>();
  return segments.map((s, i) => {
    const key = JSON.stringify([
      s.params.map((p) => [p.name, p.value]),
      s.steps.map((k) => s.trace.trace.steps[k].action),
      [...s.steps, s.end].map((k) => idOf(s.trace.states[k])),
    ]);
    const known = first.get(key);
    if (known !== undefined) return known;
    first.set(key, i);
    return i;
  });
}

/** The segment each segment is a copy of (see {@linkcode copyClasses}). */
const originals = new WeakMap<Segment, Segment>();

/** Marks which of `segments` copy which (see {@linkcode originalOf}). */
export function markCopies(segments: readonly Segment[]): void {
  const classes = copyClasses(segments);
  segments.forEach((s, i) => {
    if (!originals.has(s)) originals.set(s, segments[classes[i]]);
  });
}

/**
 * The segment `segment` copies, as last marked by {@linkcode markCopies}
 * (itself when it copies none or was never marked): the first of the list
 * marked first that it copies.
 */
export function originalOf(segment: Segment): Segment {
  return originals.get(segment) ?? segment;
}
