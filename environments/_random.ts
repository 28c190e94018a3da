/**
 * Seeded randomness shared by the simulators: everything random in an
 * environment goes through a mulberry32 generator, so a task is the same on
 * every run.
 *
 * @module
 */

/** A function returning uniform numbers in `[0, 1)`. */
export type Random = () => number;

/**
 * A mulberry32 generator seeded with `seed` (any integer; only its low 32
 * bits matter).
 *
 * @example Usage
 * ```ts
 * import { mulberry32 } from "./_random.ts";
 * const a = mulberry32(7), b = mulberry32(7);
 * console.log(a() === b()); // true
 * ```
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit FNV-1a hash of a string, used to turn task ids and names into seeds.
 *
 * @example Usage
 * ```ts
 * import { hashString } from "./_random.ts";
 * console.log(hashString("a") === hashString("a")); // true
 * ```
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
