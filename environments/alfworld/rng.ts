/**
 * Seeded randomness for scene and task generation: a mulberry32 generator,
 * a string hash to derive seeds from task ids, and the sampling helpers the
 * generator needs. Everything random in the ALFWorld simulator goes through
 * here, so a task is the same on every run.
 *
 * @module
 */

export { hashString, mulberry32, type Random } from "../_random.ts";
import type { Random } from "../_random.ts";

/** A uniform integer in `[0, n)`. */
export function randomIndex(random: Random, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** A uniform integer in `[lo, hi]`. */
export function randomInt(random: Random, lo: number, hi: number): number {
  return lo + randomIndex(random, hi - lo + 1);
}

/** One element of a non-empty list, chosen uniformly. */
export function pick<T>(random: Random, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError("Cannot pick from an empty list");
  return items[randomIndex(random, items.length)];
}

/** A shuffled copy of `items` (Fisher-Yates). */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
