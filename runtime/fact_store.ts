/**
 * The fact store: a set of ground atoms indexed by predicate and by
 * (predicate, argument position, value), plus the known objects with their
 * types. It is the agent's belief state; grounders change it through
 * deltas.
 *
 * @module
 */
import type { Atom, AtomArg, FactDelta, FactView } from "../dsl/facts.ts";
import { formatAtom } from "../dsl/facts.ts";

/** The last version handed out (see `FactStore.version`), shared by every store. */
let lastVersion = 0;

/** A level of the atom trie: argument value (string and number distinct) to the next level. */
type Trie = Map<AtomArg, Trie | Atom>;

/**
 * A mutable, indexed set of ground atoms.
 *
 * Atoms are found through a trie of predicate then arguments (no key
 * strings are built per lookup), and indexed by predicate and by
 * (predicate, argument position, value) for queries.
 *
 * @example Usage
 * ```ts
 * import { FactStore } from "./fact_store.ts";
 * const facts = new FactStore();
 * facts.apply({ add: [{ pred: "inventory", args: ["stick", 4] }], remove: [], objects: { stick: "Item" } });
 * console.log(facts.query("inventory", ["stick", null]).length); // 1
 * ```
 */
export class FactStore implements FactView {
  /** Each stored atom with its insertion number, in insertion order. */
  #seq = new Map<Atom, number>();
  #next = 0;
  #trie = new Map<string, Trie | Atom>();
  /** Each predicate's number of arguments (the trie's depth). */
  #arity = new Map<string, number>();
  #byPred = new Map<string, Set<Atom>>();
  /** Per predicate, per argument position: value -> atoms. */
  #byArg = new Map<string, Map<AtomArg, Set<Atom>>[]>();
  #types = new Map<string, string>();
  #byType = new Map<string, string[]>();
  /**
   * Each type's objects as last handed out, until one of that type is
   * declared: the same array while nothing changes, so an evaluator can
   * keep what it derived from it (each object's place) across evaluations.
   */
  #typeLists = new Map<string, readonly string[]>();
  /** Two sums of the atoms' hashes, kept as atoms come and go (see `fingerprint`). */
  #sums = [0, 0];
  /** Each predicate's version, and the objects' (key `""`): see `version`. */
  #versions = new Map<string, number>();

  /** Creates a store holding `atoms` and `objects`. */
  constructor(atoms: Atom[] = [], objects: Record<string, string> = {}) {
    this.apply({ add: atoms, remove: [], objects });
  }

  /** Number of atoms. */
  get size(): number {
    return this.#seq.size;
  }

  /** Whether the ground atom holds. */
  has(atom: Atom): boolean {
    return this.#find(atom.pred, atom.args) !== undefined;
  }

  /** The stored atom equal to `pred(args)`, if any. */
  #find(pred: string, args: readonly AtomArg[]): Atom | undefined {
    if (this.#arity.get(pred) !== args.length) return undefined;
    let node: Trie | Atom | undefined = this.#trie.get(pred);
    for (let i = 0; i < args.length && node !== undefined; i++) node = (node as Trie).get(args[i]);
    return node as Atom | undefined;
  }

  /** Adds an atom; returns whether it was new. */
  add(atom: Atom): boolean {
    const { pred, args } = atom;
    const arity = this.#arity.get(pred);
    if (arity !== undefined && arity !== args.length) {
      throw new RangeError(
        `${formatAtom(atom)}: "${pred}" already holds of atoms with ${arity} arguments`,
      );
    }
    this.#arity.set(pred, args.length);
    if (this.#find(pred, args) !== undefined) return false;
    const copy: Atom = { pred, args: [...args] };
    if (args.length === 0) this.#trie.set(pred, copy);
    else {
      let level = this.#trie.get(pred) as Trie | undefined;
      if (!level) this.#trie.set(pred, level = new Map());
      for (let i = 0; i < args.length - 1; i++) {
        let next = level.get(args[i]) as Trie | undefined;
        if (!next) level.set(args[i], next = new Map());
        level = next;
      }
      level.set(args[args.length - 1], copy);
    }
    this.#seq.set(copy, this.#next++);
    this.#count(copy, 1);
    this.#versions.set(pred, ++lastVersion);
    let set = this.#byPred.get(pred);
    if (!set) this.#byPred.set(pred, set = new Set());
    set.add(copy);
    let positions = this.#byArg.get(pred);
    if (!positions) this.#byArg.set(pred, positions = []);
    args.forEach((a, i) => {
      const byValue = positions[i] ??= new Map();
      let atoms = byValue.get(a);
      if (!atoms) byValue.set(a, atoms = new Set());
      atoms.add(copy);
    });
    return true;
  }

  /** Removes an atom; returns whether it was present. */
  remove(atom: Atom): boolean {
    const { pred, args } = atom;
    const stored = this.#find(pred, args);
    if (stored === undefined) return false;
    if (args.length === 0) this.#trie.delete(pred);
    else {
      // Delete the leaf, then prune levels left empty.
      const path: Trie[] = [this.#trie.get(pred) as Trie];
      for (let i = 0; i < args.length - 1; i++) path.push(path[i].get(args[i]) as Trie);
      for (let i = args.length - 1; i >= 0; i--) {
        path[i].delete(args[i]);
        if (path[i].size > 0) break;
        if (i === 0) this.#trie.delete(pred);
      }
    }
    this.#seq.delete(stored);
    this.#count(stored, -1);
    this.#versions.set(pred, ++lastVersion);
    this.#byPred.get(pred)?.delete(stored);
    const positions = this.#byArg.get(pred);
    args.forEach((a, i) => {
      const byValue = positions?.[i];
      const atoms = byValue?.get(a);
      if (atoms?.delete(stored) && atoms.size === 0) byValue!.delete(a);
    });
    return true;
  }

  /**
   * A short key equal for equal sets of atoms (and, but for a negligible
   * chance, different for different ones): two sums of 32-bit hashes of the
   * atoms and the number of atoms, kept up to date as atoms are added and
   * removed, so taking it costs nothing however many facts there are.
   *
   * @example Usage
   * ```ts
   * import { FactStore } from "./fact_store.ts";
   * const a = new FactStore([{ pred: "p", args: ["x"] }, { pred: "q", args: [] }]);
   * const b = new FactStore([{ pred: "q", args: [] }, { pred: "p", args: ["x"] }]);
   * console.log(a.fingerprint() === b.fingerprint()); // true
   * ```
   */
  fingerprint(): string {
    return `${this.#sums[0] >>> 0}.${this.#sums[1] >>> 0}.${this.#seq.size}`;
  }

  /**
   * The fingerprint the store would have after `delta` (removals, then
   * additions), without applying it: what look-ahead compares with states
   * seen before, at no copy's cost.
   */
  fingerprintAfter(delta: FactDelta): string {
    const sums = [...this.#sums];
    let size = this.#seq.size;
    const removed = new Set<string>();
    const added = new Set<string>();
    for (const atom of delta.remove) {
      const text = formatAtom(atom);
      if (removed.has(text) || !this.has(atom)) continue;
      removed.add(text);
      countInto(sums, text, -1);
      size--;
    }
    for (const atom of delta.add) {
      const text = formatAtom(atom);
      if (added.has(text) || (this.has(atom) && !removed.has(text))) continue;
      added.add(text);
      countInto(sums, text, 1);
      size++;
    }
    return `${sums[0] >>> 0}.${sums[1] >>> 0}.${size}`;
  }

  /**
   * A number that changes whenever an atom of `pred` is added or removed
   * (without `pred`: whenever an object is declared), drawn from one
   * counter for every store, and kept by `clone`: two stores with the same
   * version of a predicate hold the same atoms of it. What is derived from
   * a few predicates (shortest paths over a map) is kept by their versions
   * across evaluations and copies.
   *
   * @example Usage
   * ```ts
   * import { FactStore } from "./fact_store.ts";
   * const a = new FactStore([{ pred: "road", args: ["x", "y"] }]);
   * const b = a.clone();
   * b.add({ pred: "at", args: ["y"] });
   * console.log(a.version("road") === b.version("road")); // true
   * console.log(a.version("at") === b.version("at")); // false
   * ```
   */
  version(pred = ""): number {
    return this.#versions.get(pred) ?? 0;
  }

  #count(atom: Atom, sign: 1 | -1): void {
    countInto(this.#sums, formatAtom(atom), sign);
  }

  /**
   * Declares an object's type (a later declaration replaces an earlier one).
   *
   * @returns Whether the type changed.
   */
  declare(id: string, type: string): boolean {
    const old = this.#types.get(id);
    if (old === type) return false;
    if (old !== undefined) {
      const list = this.#byType.get(old)!;
      list.splice(list.indexOf(id), 1);
      this.#typeLists.delete(old);
    }
    this.#typeLists.delete(type);
    this.#types.set(id, type);
    this.#versions.set("", ++lastVersion);
    const list = this.#byType.get(type);
    if (list) list.push(id);
    else this.#byType.set(type, [id]);
    return true;
  }

  /**
   * Applies a delta: objects, then removals, then additions.
   *
   * @returns Whether the store changed (an atom removed and added again counts as a change: it moves to the end of the insertion order).
   */
  apply(delta: FactDelta): boolean {
    let changed = false;
    for (const [id, type] of Object.entries(delta.objects ?? {})) {
      if (this.declare(id, type)) changed = true;
    }
    for (const atom of delta.remove) if (this.remove(atom)) changed = true;
    for (const atom of delta.add) if (this.add(atom)) changed = true;
    return changed;
  }

  /**
   * The atoms with `value` among their arguments, each once, in no set
   * order: found through the argument index, not by going through every
   * atom.
   */
  atomsAbout(value: AtomArg): Atom[] {
    const out = new Set<Atom>();
    for (const positions of this.#byArg.values()) {
      for (const byValue of positions) {
        const atoms = byValue?.get(value);
        if (atoms !== undefined) { for (const atom of atoms) out.add(atom); }
      }
    }
    return [...out];
  }

  /** All atoms of `pred` matching `pattern` (`null` = any), in insertion order. */
  query(pred: string, pattern: (AtomArg | null)[] = []): Atom[] {
    const all = this.#byPred.get(pred);
    if (!all) return [];
    let atoms: Set<Atom> = all;
    // Narrow by the most selective bound argument.
    const positions = this.#byArg.get(pred);
    for (let i = 0; i < pattern.length; i++) {
      const a = pattern[i];
      if (a === null) continue;
      const set = positions?.[i]?.get(a);
      if (!set || set.size === 0) return [];
      if (set.size < atoms.size) atoms = set;
    }
    const out: Atom[] = [];
    for (const atom of atoms) {
      if (pattern.every((a, i) => a === null || atom.args[i] === a)) out.push(atom);
    }
    if (atoms !== all && out.length > 1) {
      // Index sets other than the predicate's may be in a different order.
      out.sort((x, y) => this.#seq.get(x)! - this.#seq.get(y)!);
    }
    return out;
  }

  /**
   * Ids of known objects declared with exactly `type`, in first-seen order:
   * the same array until an object of `type` is declared.
   */
  objectsOfType(type: string): readonly string[] {
    let list = this.#typeLists.get(type);
    if (list === undefined) {
      list = Object.freeze([...(this.#byType.get(type) ?? [])]);
      this.#typeLists.set(type, list);
    }
    return list;
  }

  /** Declared type of an object. */
  typeOf(id: string): string | undefined {
    return this.#types.get(id);
  }

  /** All atoms in insertion order. */
  atoms(): Atom[] {
    return [...this.#seq.keys()];
  }

  /** All known objects with their types. */
  objects(): Record<string, string> {
    return Object.fromEntries(this.#types);
  }

  /**
   * An independent copy, its indexes copied rather than rebuilt atom by
   * atom (the look-ahead copies the facts for every way it plays on). The
   * stored atoms, never changed, are shared.
   */
  clone(): FactStore {
    const copy = new FactStore();
    copy.#seq = new Map(this.#seq);
    copy.#next = this.#next;
    copy.#trie = copyTrie(this.#trie);
    copy.#arity = new Map(this.#arity);
    for (const [pred, atoms] of this.#byPred) copy.#byPred.set(pred, new Set(atoms));
    for (const [pred, positions] of this.#byArg) {
      copy.#byArg.set(
        pred,
        positions.map((byValue) => new Map([...byValue].map(([v, atoms]) => [v, new Set(atoms)]))),
      );
    }
    copy.#types = new Map(this.#types);
    for (const [type, ids] of this.#byType) copy.#byType.set(type, [...ids]);
    copy.#typeLists = new Map(this.#typeLists);
    copy.#sums = [...this.#sums];
    copy.#versions = new Map(this.#versions);
    return copy;
  }

  /** Atoms as sorted canonical text lines (for display and tests). */
  toLines(): string[] {
    return this.atoms().map(formatAtom).sort();
  }

  /** Plain data form. */
  toJSON(): { atoms: Atom[]; objects: Record<string, string> } {
    return { atoms: this.atoms(), objects: this.objects() };
  }
}

/** A trie's copy: its maps new, its leaves (the stored atoms) shared. */
function copyTrie<K>(trie: Map<K, Trie | Atom>): Map<K, Trie | Atom> {
  const out = new Map<K, Trie | Atom>();
  for (const [k, v] of trie) out.set(k, v instanceof Map ? copyTrie(v) : v);
  return out;
}

/** Adds (or takes away) an atom's two 32-bit hashes to a fingerprint's sums. */
function countInto(sums: number[], text: string, sign: 1 | -1): void {
  // FNV-1a and a multiplicative hash: two independent 32-bit hashes.
  let h1 = 0x811c9dc5;
  let h2 = 7;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2, 31) + c | 0;
  }
  sums[0] = sums[0] + sign * (h1 >>> 0) | 0;
  sums[1] = sums[1] + sign * (Math.imul(h2, 0x9e3779b1) >>> 0) | 0;
}
