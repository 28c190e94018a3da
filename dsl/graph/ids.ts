/**
 * Fresh node ids for graph edits (grafts, transplants, variants): a base
 * name, suffixed `_2`, `_3`, ... while taken.
 *
 * @module
 */

/**
 * An allocator of node ids not in `taken` (nor allocated before by it).
 *
 * @example Usage
 * ```ts
 * import { freshIds } from "./ids.ts";
 * const fresh = freshIds(["open", "open_2"]);
 * console.log(fresh("open"), fresh("open")); // open_3 open_4
 * ```
 */
export function freshIds(taken: Iterable<string>): (base: string) => string {
  const ids = new Set(taken);
  // The next suffix to try per base: a thousand ids of one base cost a
  // thousand lookups, not half a million.
  const nextSuffix = new Map<string, number>();
  return (base: string): string => {
    let id = base;
    let k = nextSuffix.get(base) ?? 2;
    if (ids.has(id)) {
      for (id = `${base}_${k}`; ids.has(id); id = `${base}_${k}`) k++;
      nextSuffix.set(base, k + 1);
    }
    ids.add(id);
    return id;
  };
}
