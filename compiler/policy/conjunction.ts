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

/** A literal whose arguments are variable indices. */
export interface Literal {
  pred: string;
  args: number[];
  negated: boolean;
}

/** A conjunction over variables `0 .. types.length - 1`. */
export interface Conjunction {
  /** Each variable's type. */
  types: string[];
  literals: Literal[];
}

/** One satisfying assignment: an object per variable. */
export type Assignment = string[];

/** The text of a literal with the given variable names: `not at(b, r)`. */
export function literalText(l: Literal, names: readonly string[]): string {
  const atom = `${l.pred}(${l.args.map((a) => names[a]).join(", ")})`;
  return l.negated ? `not ${atom}` : atom;
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
    c.literals.filter((l) => Math.max(first - 1, ...l.args) === i).map((l) => text(l, names));
  const build = (i: number): string => {
    if (i >= c.types.length) return "";
    const inner = [...at(i), build(i + 1)].filter((x) => x !== "").join(" and ");
    return `exists(${names[i]}: ${c.types[i]}, ${inner === "" ? "true" : inner})`;
  };
  return [...at(first - 1), build(first)].filter((x) => x !== "").join(" and ") || "true";
}

/** A key that is equal for equal literals. */
export function literalKey(l: Literal): string {
  return `${l.negated ? "!" : ""}${l.pred}(${l.args.join(",")})`;
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
  readonly #byArg = new Map<string, string[][]>();
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
        args.forEach((a, i) => {
          const k = pred + SEP + i + SEP + a;
          let l = this.#byArg.get(k);
          if (!l) this.#byArg.set(k, l = []);
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

  /** Whether `pred` is computed rather than looked up. */
  isDerived(pred: string): boolean {
    return this.#derived.has(pred);
  }

  /** The atoms of `pred` matching `pattern` (`undefined` = any). */
  atoms(pred: string, pattern: readonly (string | undefined)[]): string[][] {
    let best: string[][] | undefined = this.#byPred.get(pred);
    if (!best) return [];
    for (let i = 0; i < pattern.length; i++) {
      const v = pattern[i];
      if (v === undefined) continue;
      const l = this.#byArg.get(pred + SEP + i + SEP + v);
      if (!l) return [];
      if (l.length < best.length) best = l;
    }
    return best.filter((args) => pattern.every((v, i) => v === undefined || args[i] === v));
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

/**
 * The satisfying assignments of `c` in `state` with the variables of
 * `fixed` bound, at most `limit` of them. With `mentioned`, variables no
 * literal mentions stay unbound (enough to tell whether there is one).
 */
export function assignments(
  c: Conjunction,
  state: StateIndex,
  fixed: readonly (string | undefined)[] = [],
  limit = Infinity,
  mentioned = false,
): Assignment[] {
  let out: Assignment[] = [[]];
  // Bind the variables one literal at a time, as the learner extends conditions.
  const start: Assignment = [];
  for (let i = 0; i < c.types.length; i++) {
    const v = fixed[i];
    if (v !== undefined && !state.fits(v, c.types[i])) return [];
    start.push(v as string);
  }
  out = [start];
  const bound = new Set(fixed.flatMap((v, i) => v === undefined ? [] : [i]));
  const pending = [...c.literals];
  while (pending.length > 0 && out.length > 0) {
    // A negated literal once its variables are bound; else the positive one
    // with the most bound arguments.
    const check = (l: Literal) => l.negated || state.isDerived(l.pred);
    let pick = pending.findIndex((l) => check(l) && l.args.every((a) => bound.has(a)));
    if (pick < 0) {
      let best = -1;
      pending.forEach((l, k) => {
        if (check(l)) return;
        const b = l.args.filter((a) => bound.has(a)).length;
        if (b > best) [pick, best] = [k, b];
      });
    }
    if (pick < 0) {
      // Only negated literals over unbound variables are left: enumerate one.
      const v = pending[0].args.find((a) => !bound.has(a))!;
      out = out.flatMap((a) =>
        state.objectsOf(c.types[v]).map((o) => {
          const b = a.slice();
          b[v] = o;
          return b;
        })
      );
      bound.add(v);
      continue;
    }
    const [l] = pending.splice(pick, 1);
    out = joinLiteral(out, l, c.types, state, bound);
    for (const a of l.args) bound.add(a);
    if (out.length > limit * 4) out = out.slice(0, limit * 4);
  }
  // Variables no literal mentions range over their type.
  for (let v = 0; v < c.types.length && !mentioned; v++) {
    if (bound.has(v)) continue;
    out = out.flatMap((a) =>
      state.objectsOf(c.types[v]).map((o) => {
        const b = a.slice();
        b[v] = o;
        return b;
      })
    );
  }
  return out.length > limit ? out.slice(0, limit) : out;
}

/**
 * The assignments of a condition extended by one literal: filtered by it
 * when its variables are bound, else extended by the atoms that match it
 * (a new variable `newVar` of type `newType` is bound from them).
 */
export function extendAssignments(
  list: readonly Assignment[],
  l: Literal,
  types: readonly string[],
  state: StateIndex,
): Assignment[] {
  const arity = types.length;
  const bound = new Set<number>();
  for (let v = 0; v < arity; v++) if (list.length > 0 && list[0][v] !== undefined) bound.add(v);
  return joinLiteral(list, l, types, state, bound);
}

function joinLiteral(
  list: readonly Assignment[],
  l: Literal,
  types: readonly string[],
  state: StateIndex,
  bound: ReadonlySet<number>,
): Assignment[] {
  const out: Assignment[] = [];
  const all = l.args.every((a) => bound.has(a));
  for (const a of list) {
    if (all) {
      if (state.has(l.pred, l.args.map((v) => a[v])) !== l.negated) out.push(a);
      continue;
    }
    const pattern = l.args.map((v) => bound.has(v) ? a[v] : undefined);
    for (const args of state.atoms(l.pred, pattern)) {
      const b = a.slice();
      let ok = true;
      for (let i = 0; i < args.length && ok; i++) {
        const v = l.args[i];
        if (b[v] === undefined) {
          if (!state.fits(args[i], types[v])) ok = false;
          else b[v] = args[i];
        } else ok = b[v] === args[i];
      }
      if (ok) out.push(b);
    }
  }
  return out;
}

/** The distinct values of the first `count` variables among assignments. */
export function distinctPrefixes(list: readonly Assignment[], count: number): number {
  if (count === 0) return list.length > 0 ? 1 : 0;
  return new Set(list.map((a) => a.slice(0, count).join(SEP))).size;
}
