/**
 * The cartesian product of option lists, shared by the action learner's
 * literals, the related groundings of an action and the skill synthesis's
 * literals.
 *
 * @module
 */

/**
 * The tuples of one option of each list, in lexicographic order, at most
 * `cap` of them (the first ones).
 *
 * @example Usage
 * ```ts
 * import { product } from "./product.ts";
 * console.log(product([["a", "b"], ["x", "y"]]));
 * // [["a", "x"], ["a", "y"], ["b", "x"], ["b", "y"]]
 * console.log(product([["a", "b"], ["x", "y"]], 3).length);
 * // 3
 * ```
 */
export function product<T>(options: readonly (readonly T[])[], cap = Infinity): T[][] {
  let acc: T[][] = [[]];
  for (const opts of options) {
    const next: T[][] = [];
    for (const prefix of acc) {
      for (const o of opts) {
        if (next.length >= cap) break;
        next.push([...prefix, o]);
      }
      if (next.length >= cap) break;
    }
    acc = next;
  }
  return acc;
}
