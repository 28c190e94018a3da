/**
 * Conjunctions of literals over typed variables, the condition of a policy
 * rule: `at(x1, x0) and not carry(x0, x2)` over `x0: Ball, x1: Room, x2:
 * Gripper`. The learner tests many thousands of them against recorded
 * states, so states are indexed once (`StateIndex`) and conditions are
 * evaluated by a join (positive literals bind variables from matching
 * atoms, the rest are enumerated by type) and extended one literal at a
 * time from the assignments of the shorter condition (`extendAssignments`),
 * rather than through the expression evaluator. The skill the learner
 * emits states the same condition in the expression language.
 *
 * @module
 */
import type { FactView } from "../../dsl/facts.ts";
import { isAssignable, subtypesOf, type Vocabulary } from "../../dsl/vocabulary.ts";

/**
 * A literal whose arguments are variable indices. With `none` it says that
 * no object of that type completes the atom (`not exists(v: T, heavier(v,
 * x))`, nothing is heavier than `x`) and the literals of `with`: its
 * arguments `-1` stand for that object (`not exists(v: T, heavier(v, x) and
 * unpacked(v))`, nothing still unpacked is heavier).
 */
export interface Literal {
  pred: string;
  args: number[];
  negated: boolean;
  /** The type of the object no atom may have at the `-1` arguments. */
  none?: string;
  /** More that the object of a `none` literal must satisfy. */
  with?: { pred: string; args: number[]; negated: boolean }[];
}

/** The variable that stands for the object of a `none` literal. */
export const NONE = -1;

/** The variables a literal mentions (those of its `with` literals too; not `NONE`). */
export function literalVars(l: Literal): number[] {
  const all = l.with ? [...l.args, ...l.with.flatMap((x) => x.args)] : l.args;
  return all.filter((a) => a !== NONE);
}

/**
 * The literal over other variables: each variable `v` becomes `rename(v)`
 * (those of its `with` literals too; `NONE` stays).
 */
export function renameLiteral(l: Literal, rename: (v: number) => number): Literal {
  const map = (v: number) => v === NONE ? NONE : rename(v);
  return {
    ...l,
    args: l.args.map(map),
    ...(l.with ? { with: l.with.map((w) => ({ ...w, args: w.args.map(map) })) } : {}),
  };
}

/** A conjunction over variables `0 .. types.length - 1`. */
export interface Conjunction {
  /** Each variable's type. */
  types: string[];
  literals: Literal[];
}

/** One satisfying assignment: an object per variable (unbound ones `undefined`). */
export type Assignment = string[];

/** The text of a literal with the given variable names: `not at(b, r)`. */
export function literalText(l: Literal, names: readonly string[]): string {
  if (l.none !== undefined) {
    const other = freshName("other", names);
    const text = (x: { pred: string; args: number[]; negated: boolean }) => {
      const atom = `${x.pred}(${x.args.map((a) => a === NONE ? other : names[a]).join(", ")})`;
      return x.negated ? `not ${atom}` : atom;
    };
    const body = [text({ ...l, negated: false }), ...(l.with ?? []).map(text)].join(" and ");
    return `not exists(${other}: ${l.none}, ${body})`;
  }
  const atom = `${l.pred}(${l.args.map((a) => names[a]).join(", ")})`;
  return l.negated ? `not ${atom}` : atom;
}

/** `base`, or `base_2`, `base_3`, ...: the first that is none of `taken`. */
export function freshName(base: string, taken: readonly string[]): string {
  let name = base;
  for (let k = 2; taken.includes(name); k++) name = `${base}_${k}`;
  return name;
}

/**
 * The condition `c` with its variables from `first` on quantified, in
 * order, each literal placed where its last variable is bound (so the
 * evaluator tests it before enumerating the next one).
 *
 * @param names The variables' names.
 * @param first Variables before it are free (bound by the scope).
 * @param text How a literal is written.
 */
export function existentialText(
  c: Conjunction,
  names: readonly string[],
  first = 0,
  text: (l: Literal, names: readonly string[]) => string = literalText,
): string {
  const at = (i: number) =>
    c.literals.filter((l) => Math.max(first - 1, ...literalVars(l)) === i).map((l) =>
      text(l, names)
    );
  const build = (i: number): string => {
    if (i >= c.types.length) return "";
    const inner = [...at(i), build(i + 1)].filter((x) => x !== "").join(" and ");
    return `exists(${names[i]}: ${c.types[i]}, ${inner === "" ? "true" : inner})`;
  };
  return [...at(first - 1), build(first)].filter((x) => x !== "").join(" and ") || "true";
}

/** A key that is equal for equal literals. */
export function literalKey(l: Literal): string {
  const plain = (x: { pred: string; args: number[]; negated: boolean }) =>
    `${x.negated ? "!" : ""}${x.pred}(${x.args.join(",")})`;
  if (l.none === undefined) return plain(l);
  return `none:${l.none}:${
    [plain({ ...l, negated: false }), ...(l.with ?? []).map(plain)].join("&")
  }`;
}

const SEP = "\u0001";

/** A computed predicate: whether it holds of the arguments in a state. */
export type Derived = (state: StateIndex, args: readonly string[]) => boolean;

/** A trie of atoms' arguments. */
type Trie = Map<string, Trie>;

/** One state's facts indexed for joins: atoms by predicate and by argument. */
export class StateIndex {
  readonly #facts: FactView;
  /** The atoms as a trie: predicate, then each argument in turn. */
  readonly #trie = new Map<string, Trie>();
  readonly #fits = new Map<string, Map<string, boolean>>();
  readonly #byPred = new Map<string, string[][]>();
  /** Per predicate, per argument position, the atoms with each value there. */
  readonly #byArg = new Map<string, Map<string, string[][]>[]>();
  readonly #types: TypeIndex;
  readonly #derived: ReadonlyMap<string, Derived>;

  /**
   * Indexes the atoms of `preds` in `facts` (string arguments only);
   * `derived` predicates are computed instead of looked up (and only
   * tested with every argument bound).
   */
  constructor(
    facts: FactView,
    preds: readonly string[],
    types: TypeIndex,
    derived: ReadonlyMap<string, Derived> = new Map(),
  ) {
    this.#facts = facts;
    this.#types = types;
    this.#derived = derived;
    for (const pred of preds) {
      const list: string[][] = [];
      for (const atom of facts.query(pred, [])) {
        if (!atom.args.every((a) => typeof a === "string")) continue;
        const args = atom.args as string[];
        list.push(args);
        let node: Trie | undefined = this.#trie.get(pred);
        if (!node) this.#trie.set(pred, node = new Map());
        for (const a of args) {
          let next: Trie | undefined = node.get(a);
          if (!next) node.set(a, next = new Map());
          node = next;
        }
        let positions = this.#byArg.get(pred);
        if (!positions) this.#byArg.set(pred, positions = []);
        args.forEach((a, i) => {
          const byValue = positions[i] ??= new Map();
          let l = byValue.get(a);
          if (!l) byValue.set(a, l = []);
          l.push(args);
        });
      }
      this.#byPred.set(pred, list);
    }
  }

  /** The indexed state. */
  get facts(): FactView {
    return this.#facts;
  }

  /** Whether the atom holds. */
  has(pred: string, args: readonly string[]): boolean {
    const derived = this.#derived.get(pred);
    if (derived) return derived(this, args);
    let node: Trie | undefined = this.#trie.get(pred);
    for (let i = 0; node !== undefined && i < args.length; i++) node = node.get(args[i]);
    return node !== undefined;
  }

  /**
   * Whether no atom of `pred` matches `pattern` (`undefined` = any) with an
   * object of `type` at `at` that also passes `also`.
   */
  none(
    pred: string,
    pattern: readonly (string | undefined)[],
    at: readonly number[],
    type: string,
    also: (object: string) => boolean = () => true,
  ): boolean {
    for (const args of this.atoms(pred, pattern)) {
      const v = args[at[0]];
      if (at.every((i) => args[i] === v) && this.fits(v, type) && also(v)) return false;
    }
    return true;
  }

  /** Whether `pred` is computed rather than looked up. */
  isDerived(pred: string): boolean {
    return this.#derived.has(pred);
  }

  /** The atoms of `pred` matching `pattern` (`undefined` = any); do not change the list. */
  atoms(pred: string, pattern: readonly (string | undefined)[]): readonly string[][] {
    let best: string[][] | undefined = this.#byPred.get(pred);
    if (!best) return [];
    const positions = this.#byArg.get(pred);
    let bound = 0;
    let by = -1;
    for (let i = 0; i < pattern.length; i++) {
      const v = pattern[i];
      if (v === undefined) continue;
      bound++;
      const l = positions?.[i]?.get(v);
      if (!l) return [];
      if (l.length < best.length || by < 0) [best, by] = [l, i];
    }
    // One bound argument: its index lists exactly the matching atoms.
    if (bound <= 1) return best;
    return best.filter((args) => pattern.every((v, i) => v === undefined || args[i] === v));
  }

  /** How many atoms of `pred` there are, or with `value` at argument `at`. */
  count(pred: string, at?: number, value?: string): number {
    const list = at === undefined
      ? this.#byPred.get(pred)
      : value === undefined
      ? undefined
      : this.#byArg.get(pred)?.[at]?.get(value);
    return list?.length ?? 0;
  }

  /** The objects of `type` (subtypes included), in the state's order. */
  objectsOf(type: string): string[] {
    return this.#types.objectsOf(this.#facts, type);
  }

  /** Whether `object` may be bound to a variable of `type`. */
  fits(object: string, type: string): boolean {
    let byType = this.#fits.get(object);
    if (!byType) this.#fits.set(object, byType = new Map());
    let v = byType.get(type);
    if (v === undefined) {
      v = this.#types.fits(this.#facts.typeOf(object), type);
      byType.set(type, v);
    }
    return v;
  }
}

/** Type checks and type domains of one vocabulary, cached. */
export class TypeIndex {
  readonly #vocab: Vocabulary;
  readonly #assignable = new Map<string, Map<string, boolean>>();
  readonly #domains = new WeakMap<FactView, Map<string, string[]>>();

  /** The type index of `vocab`. */
  constructor(vocab: Vocabulary) {
    this.#vocab = vocab;
  }

  /** Whether a value of type `sub` may stand for `sup`. */
  fits(sub: string | undefined, sup: string): boolean {
    if (sub === undefined) return false;
    let bySup = this.#assignable.get(sub);
    if (!bySup) this.#assignable.set(sub, bySup = new Map());
    let v = bySup.get(sup);
    if (v === undefined) {
      v = isAssignable(this.#vocab, sub, sup);
      bySup.set(sup, v);
    }
    return v;
  }

  /** The objects of `type` (subtypes included) known in `facts`, in their order. */
  objectsOf(facts: FactView, type: string): string[] {
    let byType = this.#domains.get(facts);
    if (!byType) this.#domains.set(facts, byType = new Map());
    let list = byType.get(type);
    if (!list) {
      const seen = new Set<string>();
      for (const t of subtypesOf(this.#vocab, type)) {
        for (const o of facts.objectsOfType(t)) seen.add(o);
      }
      list = [...seen];
      byType.set(type, list);
    }
    return list;
  }
}

/** What the search needs of a conjunction, worked out once per conjunction. */
interface Compiled {
  /** Variables some literal mentions. */
  used: boolean[];
  /** Literals that are only tested, never enumerated (negated, or computed). */
  check: boolean[];
}
const compiledOf = new WeakMap<Conjunction, WeakMap<StateIndex, Compiled>>();

function compile(c: Conjunction, state: StateIndex): Compiled {
  let byState = compiledOf.get(c);
  if (!byState) compiledOf.set(c, byState = new WeakMap());
  let k = byState.get(state);
  if (!k) {
    const used = new Array(c.types.length).fill(false);
    for (const l of c.literals) {
      for (const a of [...l.args, ...(l.with ?? []).flatMap((x) => x.args)]) {
        if (a !== NONE) used[a] = true;
      }
    }
    k = { used, check: c.literals.map((l) => l.negated || state.isDerived(l.pred)) };
    byState.set(state, k);
  }
  return k;
}

/**
 * Depth-first search for the satisfying assignments of `c` in `state` with
 * the variables of `fixed` bound; `visit` gets each (the binding array
 * itself: copy it to keep it) and returns true to stop. With `mentioned`,
 * variables no literal mentions stay unbound.
 */
function search(
  c: Conjunction,
  state: StateIndex,
  fixed: readonly (string | undefined)[],
  mentioned: boolean,
  visit: (binding: readonly (string | undefined)[]) => boolean,
  prefix?: number,
  selective = false,
): void {
  const n = c.types.length;
  // With a prefix, one assignment per value of the first `prefix` variables
  // is enough: after a visit the search backs up to the last of them bound.
  let jump = false;
  const lits = c.literals;
  const { used, check } = compile(c, state);
  const binding: (string | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = fixed[i];
    if (v === undefined) continue;
    if (!state.fits(v, c.types[i])) return;
    binding[i] = v;
  }
  const done = new Array(lits.length).fill(false);
  // The literals `checks` found to hold with their variables bound, in
  // order: they hold until the search backs up over a binding they read.
  const held: number[] = [];
  const forget = (mark: number) => {
    while (held.length > mark) done[held.pop()!] = false;
  };
  const args: string[] = [];
  /** Tests the literals whose variables are all bound; false when one fails. */
  const checks = (): boolean => {
    for (let k = 0; k < lits.length; k++) {
      if (done[k]) continue;
      const l = lits[k];
      if (l.none !== undefined) {
        const pattern = l.args.map((a) => a === NONE ? undefined : binding[a]);
        if (pattern.some((v, i) => v === undefined && l.args[i] !== NONE)) continue;
        const more = l.with ?? [];
        if (more.some((x) => x.args.some((a) => a !== NONE && binding[a] === undefined))) continue;
        const at = l.args.flatMap((a, i) => a === NONE ? [i] : []);
        const also = (o: string) =>
          more.every((x) =>
            state.has(x.pred, x.args.map((a) => a === NONE ? o : binding[a]!)) !== x.negated
          );
        if (!state.none(l.pred, pattern, at, l.none, also)) return false;
        done[k] = true;
        held.push(k);
        continue;
      }
      let all = true;
      args.length = l.args.length;
      for (let i = 0; i < l.args.length; i++) {
        const b = binding[l.args[i]];
        if (b === undefined) {
          all = false;
          break;
        }
        args[i] = b;
      }
      if (!all) continue;
      if (state.has(l.pred, args) === l.negated) return false;
      done[k] = true;
      held.push(k);
    }
    return true;
  };
  const step = (): boolean => {
    // The positive literal with the most bound arguments narrows the most;
    // one bound in full is tested by `checks`.
    // When only existence is asked (`selective`), the order of the
    // assignments does not matter: the literal with the fewest matching
    // atoms goes first (the one robot rather than every pair of adjacent
    // cells), which prunes far earlier.
    let pick = -1;
    let best = -1;
    let fewest = Infinity;
    for (let k = 0; k < lits.length; k++) {
      if (done[k] || check[k]) continue;
      const a = lits[k].args;
      let b = 0;
      for (let i = 0; i < a.length; i++) if (binding[a[i]] !== undefined) b++;
      if (b === a.length) continue;
      if (selective) {
        const size = matching(state, lits[k].pred, a, binding);
        if (size < fewest) [pick, fewest] = [k, size];
      } else if (b > best) [pick, best] = [k, b];
    }
    if (pick >= 0) {
      const l = lits[pick];
      done[pick] = true;
      const pattern = l.args.map((a) => binding[a]);
      const added: number[] = [];
      for (const atom of state.atoms(l.pred, pattern)) {
        let ok = true;
        for (let i = 0; i < atom.length && ok; i++) {
          const v = l.args[i];
          if (binding[v] !== undefined) ok = binding[v] === atom[i];
          else if (!state.fits(atom[i], c.types[v])) ok = false;
          else {
            binding[v] = atom[i];
            added.push(v);
          }
        }
        const mark = held.length;
        if (ok && checks() && step()) return true;
        forget(mark);
        const rebinds = added.some((v) => v < (prefix ?? 0));
        for (const v of added) binding[v] = undefined;
        added.length = 0;
        if (jump) {
          if (!rebinds) break;
          jump = false;
        }
      }
      done[pick] = false;
      return false;
    }
    // Only tests are left: bind a variable they need (or, without
    // `mentioned`, any variable still free) from its type.
    let free = -1;
    for (let v = 0; v < n && free < 0; v++) {
      if (binding[v] === undefined && (!mentioned || used[v])) free = v;
    }
    if (free < 0) {
      if (visit(binding)) return true;
      if (prefix !== undefined) jump = true;
      return false;
    }
    for (const o of state.objectsOf(c.types[free])) {
      binding[free] = o;
      const mark = held.length;
      if (checks() && step()) return true;
      forget(mark);
      if (jump) {
        if (free >= (prefix ?? 0)) break;
        jump = false;
      }
    }
    binding[free] = undefined;
    return false;
  };
  if (checks()) step();
}

/**
 * How many atoms of `pred` match the literal's bound arguments (an upper
 * bound with two or more bound).
 */
function matching(
  state: StateIndex,
  pred: string,
  args: readonly number[],
  binding: readonly (string | undefined)[],
): number {
  let fewest = state.count(pred);
  for (let i = 0; i < args.length; i++) {
    const v = binding[args[i]];
    if (v !== undefined) fewest = Math.min(fewest, state.count(pred, i, v));
  }
  return fewest;
}

/** Whether some assignment satisfies `c` with the variables of `fixed` bound. */
export function satisfiable(
  c: Conjunction,
  state: StateIndex,
  fixed: readonly (string | undefined)[] = [],
): boolean {
  let found = false;
  search(c, state, fixed, true, () => found = true, undefined, true);
  return found;
}

/**
 * The first `limit` satisfying assignments of `c` in `state` with the
 * variables of `fixed` bound, found depth first. With `mentioned`,
 * variables no literal mentions stay unbound (`undefined`).
 */
export function assignments(
  c: Conjunction,
  state: StateIndex,
  fixed: readonly (string | undefined)[] = [],
  limit = Infinity,
  mentioned = false,
): Assignment[] {
  const out: Assignment[] = [];
  if (limit <= 0) return out;
  search(c, state, fixed, mentioned, (b) => {
    out.push(b.slice() as Assignment);
    return out.length >= limit;
  });
  return out;
}

/**
 * How many values the first `count` variables take among the satisfying
 * assignments, counting at most `limit` of them (and looking at no more
 * than `maxLook` assignments).
 */
export function countChoices(
  c: Conjunction,
  state: StateIndex,
  count: number,
  limit = 64,
  maxLook = 4000,
): number {
  const seen = new Set<string>();
  let looked = 0;
  search(c, state, [], false, (b) => {
    seen.add(b.slice(0, count).join(SEP));
    return seen.size >= limit || ++looked >= maxLook;
  }, count);
  return seen.size;
}
