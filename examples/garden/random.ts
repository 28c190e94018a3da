/**
 * The garden's own seeded randomness (mulberry32): every random choice of
 * the generator goes through it, so a task is the same on every run.
 *
 * @module
 */

/** A function returning uniform numbers in `[0, 1)`. */
export type Random = () => number;

/**
 * A mulberry32 generator; only the low 32 bits of `seed` matter.
 *
 * @example Usage
 * ```ts
 * import { mulberry32 } from "./random.ts";
 * console.log(mulberry32(7)() === mulberry32(7)()); // true
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

/** A uniform integer in `[0, n)`. */
export function randomInt(random: Random, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** One element of a non-empty list, uniformly. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[randomInt(random, items.length)];
}

/** `k` distinct elements of `items`, uniformly (a partial shuffle of a copy). */
export function sample<T>(random: Random, items: readonly T[], k: number): T[] {
  const copy = [...items];
  const n = Math.min(k, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + randomInt(random, copy.length - i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

/** `k` distinct numbers from `1..k + spare`, ascending: ids that differ across seeds. */
export function idNumbers(random: Random, k: number, spare = 3): number[] {
  const all = Array.from({ length: k + spare }, (_, i) => i + 1);
  return sample(random, all, k).sort((a, b) => a - b);
}

/** Mixes a seed and a size into one 32-bit generator seed. */
export function mixSeed(seed: number, size: number): number {
  return (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(size + 1, 0x85ebca6b)) >>> 0;
}
