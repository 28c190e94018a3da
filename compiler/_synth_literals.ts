/**
 * Candidate literals of the synthesizers, generated bottom-up from the atoms
 * that hold in example situations: ground atoms that mention a scope value
 * are lifted by replacing values with the scope variables that hold them (or
 * keeping them as constants), optionally through a one-level existential,
 * plus numeric comparisons between function applications over the scope.
 *
 * Caps (so that generation stays linear in the facts touched):
 * - {@linkcode MAX_VARIANTS} liftings per ground atom (every position may be
 *   a variable or a constant, so variants multiply);
 * - {@linkcode MAX_TERMS} function applications per function;
 * - {@linkcode MAX_GENERATED} literals per call, in generation order, which
 *   is deterministic (vocabulary order, then fact-store order).
 *
 * @module
 */
import type { Expr } from "../dsl/expr/ast.ts";
import { printExpr } from "../dsl/expr/print.ts";
import { freeVars } from "../dsl/expr/vars.ts";
import type { Atom, AtomArg } from "../dsl/facts.ts";
import { isAssignable, isObjectType, own, type Vocabulary } from "../dsl/vocabulary.ts";
import {
  binNode,
  callNode,
  conjunction,
  constantCount,
  constNode,
  exprSize,
  isAtomArg,
  notNode,
  quantNode,
  varNode,
} from "./_synth_expr.ts";
import type { Example } from "./synth_types.ts";
import { product } from "../runtime/learn/product.ts";

/** Liftings kept per ground atom. */
export const MAX_VARIANTS = 16;
/** Argument assignments kept per function when building terms. */
export const MAX_TERMS = 32;
/** Literals generated per call before evaluation. */
export const MAX_GENERATED = 3000;

/**
 * The kind of a literal; it also orders the literals of a conjunction
 * (atoms first, comparisons last, so a comparison that cannot be evaluated
 * for some object is guarded by the atoms before it).
 */
export const LitKind = { Atom: 0, NotAtom: 1, Exists: 2, NotExists: 3, Compare: 4 } as const;
/** One of the {@linkcode LitKind} values. */
export type LitKind = typeof LitKind[keyof typeof LitKind];

/** A candidate literal. */
export interface Literal {
  expr: Expr;
  text: string;
  size: number;
  constants: number;
  kind: LitKind;
}

/** What literals may mention. */
export interface LiteralSpace {
  vocab: Vocabulary;
  /** Types of the variables literals may use (scope, and a selection variable). */
  varTypes: Readonly<Record<string, string>>;
  /** Every literal mentions at least one of these variables. */
  mention: ReadonlySet<string>;
  /** Name of the variable bound by existential literals. */
  existsVar: string;
}

/** Builds a literal record from its expression. */
export function makeLiteral(expr: Expr, kind: LitKind): Literal {
  return {
    expr,
    text: printExpr(expr),
    size: exprSize(expr),
    constants: constantCount(expr),
    kind,
  };
}

/** Literals collected with de-duplication by text and the generation cap. */
class Collector {
  readonly out: Literal[] = [];
  readonly #seen = new Set<string>();

  constructor(readonly space: LiteralSpace) {}

  get full(): boolean {
    return this.out.length >= MAX_GENERATED;
  }

  add(expr: Expr, kind: LitKind): void {
    if (this.full) return;
    const vars = freeVars(expr);
    if (![...this.space.mention].some((m) => vars.has(m))) return;
    this.#push(makeLiteral(expr, kind));
  }

  /** Adds a literal already known to mention the space's variables. */
  addLiteral(lit: Literal): void {
    if (!this.full) this.#push(lit);
  }

  #push(lit: Literal): void {
    if (this.#seen.has(lit.text)) return;
    this.#seen.add(lit.text);
    this.out.push(lit);
  }
}

/**
 * Literals that hold in `sit` (atoms and existentials over its facts), for
 * use as positive conjuncts; or, with `negate`, the negations of literals
 * that hold in each situation of `sits`.
 */
export function stateLiterals(
  space: LiteralSpace,
  sits: readonly Example[],
  negate: boolean,
): Literal[] {
  const c = new Collector(space);
  sits.forEach((sit, i) => {
    for (const lit of situationLiterals(space, sit, negate)) {
      if (c.full) return;
      // A negated literal's constants must hold in every negative, so they can
      // all be found in the first one.
      if (negate && i > 0 && lit.constants > 0) continue;
      c.addLiteral(lit);
    }
  });
  return c.out;
}

/**
 * The literals of one situation that mention the space's variables, in
 * generation order (at most {@linkcode MAX_GENERATED}). Memoised per fact
 * state, scope and space: the synthesizers ask again for the same
 * situations (a loop's filter is synthesized with each instance left out).
 */
function situationLiterals(space: LiteralSpace, sit: Example, negate: boolean): Literal[] {
  const key = `${negate ? "-" : "+"}${spaceKey(space)}|${scopeKey(sit.scope)}`;
  return situationMemo(
    literalMemo,
    sit,
    key,
    () => generateLiterals(space, sit, negate),
    (lits) => lits.length + 1,
  );
}

function generateLiterals(space: LiteralSpace, sit: Example, negate: boolean): Literal[] {
  const c = new Collector(space);
  const seconds: SecondsMemo = new Map();
  for (const { atom, at } of atomsAboutScope(space, sit)) {
    if (c.full) break;
    for (const lifted of liftAtom(space, sit, atom, new Map())) {
      c.add(negate ? notNode(lifted) : lifted, negate ? LitKind.NotAtom : LitKind.Atom);
    }
    for (const { type, body } of objectLinks(space, sit, atom, at, seconds)) {
      c.add(
        negate
          ? notNode(quantNode("exists", space.existsVar, type, body))
          : quantNode("exists", space.existsVar, type, body),
        negate ? LitKind.NotExists : LitKind.Exists,
      );
    }
  }
  return c.out;
}

const literalMemo = new WeakMap<object, Map<string, Literal[]>>();
const spaceKeys = new WeakMap<LiteralSpace, string>();

function spaceKey(space: LiteralSpace): string {
  let key = spaceKeys.get(space);
  if (key === undefined) {
    key = JSON.stringify([
      Object.entries(space.varTypes).sort(),
      [...space.mention].sort(),
      space.existsVar,
    ]);
    spaceKeys.set(space, key);
  }
  return key;
}

/**
 * What `make` gives for a situation's fact state and `key`, computed once:
 * entries live as long as the fact state (trace states outlive one
 * synthesis call, so the memo serves every call that asks again), at most
 * `MEMO_SCOPES` keys of a state at a time, and all memos together hold at
 * most {@linkcode MEMO_BUDGET} of `weight` (the oldest entries go first; a
 * value that grows says so with {@linkcode memoGrew}):
 * long demonstrations have thousands of states, each asked about in many
 * scopes, and memory must stay bounded. A value dropped is made again when
 * asked for (the memos only save time).
 */
export function situationMemo<T>(
  memos: WeakMap<object, Map<string, T>>,
  sit: Example,
  key: string,
  make: () => T,
  weight: (value: T) => number = () => 1,
): T {
  let byKey = memos.get(sit.facts);
  if (!byKey) {
    byKey = new Map();
    memos.set(sit.facts, byKey);
  }
  let value = byKey.get(key);
  if (value === undefined) {
    value = make();
    // A long skill binds many variables, each scope a key of its own: past a
    // bound the memo starts afresh, so its memory stays that of the bound.
    if (byKey.size >= MEMO_SCOPES) {
      released(byKey as Map<string, unknown>);
      byKey.clear();
    }
    byKey.set(key, value);
    remember(byKey as Map<string, unknown>, key, value, weight(value));
  }
  return value;
}

/** Scopes memoized per fact state (see `situationMemo`). */
const MEMO_SCOPES = 512;

/**
 * What the situation memos hold at most, in weight: a literal weighs 1, a
 * literal's memoized truth a tenth (see {@linkcode memoGrew}); about 1 GB.
 */
export const MEMO_BUDGET = 1_500_000;

/**
 * A memo entry as the budget sees it: where it lives, its value and its
 * weight. (Held strongly: a `WeakRef` made keeps its target alive to the
 * end of the synchronous job, which an induction is.) A value its memo
 * lets go is let go here too.
 */
interface MemoEntry {
  byKey: Map<string, unknown> | undefined;
  key: string;
  value: object | undefined;
  weight: number;
}

/** The memos' entries, oldest first from `memoHead`, and their weight together. */
const memoQueue: MemoEntry[] = [];
const entryOf = new WeakMap<object, MemoEntry>();
let memoHead = 0;
let memoWeight = 0;

/**
 * Records that a memoized value grew by `weight` (a truth added to a
 * situation's memo of truths), or shrank.
 */
export function memoGrew(value: object, weight: number): void {
  const entry = entryOf.get(value);
  if (entry === undefined || entry.value === undefined) return;
  entry.weight += weight;
  memoWeight += weight;
}

/** Lets go of the entries of the values a memo lets go (it starts afresh). */
function released(byKey: Map<string, unknown>): void {
  for (const value of byKey.values()) {
    const entry = typeof value === "object" && value !== null ? entryOf.get(value) : undefined;
    if (entry === undefined) continue;
    memoWeight -= entry.weight;
    entry.weight = 0;
    entry.value = undefined;
    entry.byKey = undefined;
  }
}

/** Records a memo entry and drops the oldest ones while the memos weigh more than the budget. */
function remember(byKey: Map<string, unknown>, key: string, value: unknown, weight: number) {
  if (typeof value !== "object" || value === null) return;
  const entry: MemoEntry = { byKey, key, value, weight };
  entryOf.set(value, entry);
  memoQueue.push(entry);
  memoWeight += weight;
  while (memoWeight > MEMO_BUDGET && memoHead < memoQueue.length - 1) {
    const old = memoQueue[memoHead];
    memoQueue[memoHead++] = undefined as never;
    memoWeight -= old.weight;
    // The entry may have been cleared or replaced since.
    if (old.value !== undefined && old.byKey?.get(old.key) === old.value) {
      old.byKey.delete(old.key);
    }
    old.weight = 0;
    old.value = undefined;
    old.byKey = undefined;
  }
  if (memoHead > 4096 && memoHead * 2 > memoQueue.length) {
    memoQueue.splice(0, memoHead);
    memoHead = 0;
  }
}

/** A scope as text, for memo keys (values are atoms, numbers or lists of them). */
export function scopeKey(scope: Readonly<Record<string, unknown>>): string {
  // Built by hand: this runs for every situation a synthesizer looks at, and
  // JSON of sorted entries cost more than the lookups it keys.
  let key = "";
  for (const name of Object.keys(scope).sort(cmpKey)) {
    const v = scope[name];
    key += `${name}\u0001${
      typeof v === "string" ? `s${v}` : typeof v === "number" ? `n${v}` : JSON.stringify(v)
    }\u0002`;
  }
  return key;
}

function cmpKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Links from the scope to other objects in `sit`: lifted atoms with the
 * existential variable in place of an object that is not a scope value,
 * with the object's parameter type (the first atom of the links only).
 */
export function scopeLinks(space: LiteralSpace, sit: Example): { type: string; body: Expr }[] {
  const out: { type: string; body: Expr }[] = [];
  for (const { atom, at } of atomsAboutScope(space, sit)) {
    out.push(...objectLinks(space, sit, atom, at));
  }
  return out;
}

/**
 * Ground atoms of `sit` with the value of a `mention` variable at some
 * position whose parameter type accepts that variable; `at` is the position.
 */
function atomsAboutScope(space: LiteralSpace, sit: Example): { atom: Atom; at: number }[] {
  const out: { atom: Atom; at: number }[] = [];
  const seen = new Set<string>();
  for (const name of space.mention) {
    const value = sit.scope[name];
    const type = space.varTypes[name];
    if (value === undefined || !isAtomArg(value) || type === undefined) continue;
    for (const [pred, decl] of Object.entries(space.vocab.predicates)) {
      decl.params.forEach((param, i) => {
        if (!isAssignable(space.vocab, type, param)) return;
        const pattern: (AtomArg | null)[] = decl.params.map((_, j) => j === i ? value : null);
        for (const atom of sit.facts.query(pred, pattern)) {
          const key = JSON.stringify([atom.pred, ...atom.args, i]);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ atom, at: i });
        }
      });
    }
  }
  return out;
}

/**
 * The liftings of a ground atom: each argument becomes a scope variable
 * holding it (type permitting), or stays a constant; `fixed` forces some
 * positions to given nodes. At least one variable (scope or fixed) must
 * appear: an atom of constants only says nothing about the scope.
 */
function liftAtom(
  space: LiteralSpace,
  sit: Example,
  atom: Atom,
  fixed: ReadonlyMap<number, Expr>,
): Expr[] {
  const params = own(space.vocab.predicates, atom.pred)?.params;
  if (!params || params.length !== atom.args.length) return [];
  const scope = Object.entries(sit.scope);
  const options: Expr[][] = atom.args.map((arg, j) => {
    const f = fixed.get(j);
    if (f) return [f];
    const opts: Expr[] = [];
    for (const [name, value] of scope) {
      const type = space.varTypes[name];
      if (value === arg && type !== undefined && isAssignable(space.vocab, type, params[j])) {
        opts.push(varNode(name));
      }
    }
    // A known object never becomes a constant: naming one object does not
    // generalise (values such as classes and counts may). Nor does free
    // text: a string constant must be a value of a declared value type (a
    // class such as 'fridge'), never a `Str` such as one recipe's listing.
    const constType = typeof arg === "number" ? "Num" : "Str";
    const isObject = typeof arg === "string" && sit.facts.typeOf(arg) !== undefined;
    const valueTyped = typeof arg === "number" || space.vocab.types[params[j]]?.kind === "value";
    if (!isObject && valueTyped && isAssignable(space.vocab, constType, params[j])) {
      opts.push(constNode(arg));
    }
    return opts;
  });
  const out: Expr[] = [];
  for (const args of product(options, MAX_VARIANTS * 4)) {
    if (!args.some((a) => a.kind === "var")) continue;
    out.push(callNode(atom.pred, args));
    if (out.length >= MAX_VARIANTS) break;
  }
  return out;
}

/**
 * One-level existential bodies through an object of `atom` other than the
 * scope value at `at`: `A1` and (with `seconds`) `A1 and A2` where A2 is
 * another atom about the same object; the object becomes the existential
 * variable and `type` is the parameter type at its position.
 */
function objectLinks(
  space: LiteralSpace,
  sit: Example,
  atom: Atom,
  at: number,
  seconds?: SecondsMemo,
): { type: string; body: Expr }[] {
  const params = own(space.vocab.predicates, atom.pred)?.params ?? [];
  const scopeValues = new Set(Object.values(sit.scope));
  const y = space.existsVar;
  const out: { type: string; body: Expr }[] = [];
  atom.args.forEach((obj, k) => {
    if (k === at || typeof obj !== "string" || scopeValues.has(obj)) return;
    const type = params[k];
    if (type === undefined || !isObjectType(space.vocab, type)) return;
    if (sit.facts.typeOf(obj) === undefined) return;
    const firsts = liftAtom(space, sit, atom, new Map([[k, varNode(y)]]));
    const more = seconds ? secondAtoms(space, sit, obj, type, atom, seconds) : [];
    for (const a1 of firsts) {
      out.push({ type, body: a1 });
      for (const a2 of more) out.push({ type, body: orderPair(space, a1, a2) });
    }
  });
  return out;
}

/**
 * The lifted atoms about each object (as the existential variable) of one
 * situation and space, per object and type: an object a scope value is
 * linked to by several atoms (a cell's neighbours) is looked up once.
 */
type SecondsMemo = Map<string, { atom: Atom; lifted: Expr[] }[]>;

/** Lifted atoms about `obj` (as the existential variable) other than `except`. */
function secondAtoms(
  space: LiteralSpace,
  sit: Example,
  obj: string,
  type: string,
  except: Atom,
  memo: SecondsMemo,
): Expr[] {
  const key = `${obj}\u0001${type}`;
  let about = memo.get(key);
  if (about === undefined) memo.set(key, about = atomsAbout(space, sit, obj, type));
  const out: Expr[] = [];
  for (const { atom, lifted } of about) {
    if (atom.pred === except.pred && atom.args.every((a, i) => a === except.args[i])) continue;
    out.push(...lifted);
  }
  return out;
}

/** The atoms about `obj` (of `type`) and their liftings with it as the existential variable. */
function atomsAbout(
  space: LiteralSpace,
  sit: Example,
  obj: string,
  type: string,
): { atom: Atom; lifted: Expr[] }[] {
  const out: { atom: Atom; lifted: Expr[] }[] = [];
  const y = space.existsVar;
  for (const [pred, decl] of Object.entries(space.vocab.predicates)) {
    decl.params.forEach((param, m) => {
      if (!isAssignable(space.vocab, type, param)) return;
      const pattern: (AtomArg | null)[] = decl.params.map((_, j) => j === m ? obj : null);
      for (const atom of sit.facts.query(pred, pattern)) {
        // Other occurrences of the object would be constants naming it: too specific.
        if (atom.args.some((a, i) => i !== m && a === obj)) continue;
        out.push({ atom, lifted: liftAtom(space, sit, atom, new Map([[m, varNode(y)]])) });
      }
    });
  }
  return out;
}

/**
 * The body `A1 and A2` of an existential, in a canonical order: an atom that
 * mentions a scope object comes first, then one that mentions any scope
 * variable (`contains(r, x) and is_type(x, T)`); otherwise by text.
 */
function orderPair(space: LiteralSpace, a1: Expr, a2: Expr): Expr {
  const y = space.existsVar;
  const rank = (e: Expr) => {
    const vars = [...freeVars(e)].filter((v) => v !== y);
    const objects = vars.some((v) => isObjectType(space.vocab, space.varTypes[v] ?? ""));
    return objects ? 0 : vars.length > 0 ? 1 : 2;
  };
  const d = rank(a1) - rank(a2);
  if (d !== 0) return conjunction(d < 0 ? [a1, a2] : [a2, a1]);
  return conjunction(printExpr(a1) <= printExpr(a2) ? [a1, a2] : [a2, a1]);
}

/**
 * Function applications over scope variables whose return type is
 * assignable to `returns` (any when undefined; every argument a
 * type-compatible variable), plus the scope variables of that type when
 * `withVars`.
 */
export function functionTerms(
  vocab: Vocabulary,
  varTypes: Readonly<Record<string, string>>,
  returns: string | undefined,
  withVars: boolean,
): Expr[] {
  const fits = (type: string) => returns === undefined || isAssignable(vocab, type, returns);
  const out: Expr[] = [];
  if (withVars) {
    for (const [name, type] of Object.entries(varTypes)) {
      if (fits(type)) out.push(varNode(name));
    }
  }
  for (const [fname, decl] of Object.entries(vocab.functions)) {
    if (!fits(decl.returns)) continue;
    const options = decl.params.map((param) =>
      Object.entries(varTypes)
        .filter(([, type]) => isAssignable(vocab, type, param))
        .map(([name]) => varNode(name))
    );
    for (const args of product(options, MAX_TERMS)) out.push(callNode(fname, args));
  }
  return out;
}

/**
 * Numeric comparisons between terms (function applications over the scope
 * and numeric scope variables) that mention a `mention` variable: every
 * ordered comparison of two terms, `t > 0`, `t == 0`, and `t == c` when `t`
 * is `c` in every one of `positives`.
 */
export function comparisonLiterals(
  space: LiteralSpace,
  positives: readonly Example[],
  evalTerm: (term: Expr, sit: Example) => number | undefined,
): Literal[] {
  const c = new Collector(space);
  const terms = functionTerms(space.vocab, space.varTypes, "Num", true)
    .filter((t) => t.kind !== "var" || space.varTypes[t.name] === "Num");
  const texts = terms.map((t) => printExpr(t));
  const order = terms.map((_, i) => i).sort((a, b) => cmpText(texts[a], texts[b]));
  for (const i of order) {
    for (const j of order) {
      if (texts[i] >= texts[j]) continue;
      for (const op of ["<", ">", "<=", ">=", "==", "!="] as const) {
        c.add(binNode(op, terms[i], terms[j]), LitKind.Compare);
      }
    }
    const zero = constNode(0);
    c.add(binNode(">", terms[i], zero), LitKind.Compare);
    c.add(binNode("==", terms[i], zero), LitKind.Compare);
    const values = positives.map((p) => evalTerm(terms[i], p));
    const first = values[0];
    if (first !== undefined && first !== 0 && values.every((v) => v === first)) {
      c.add(binNode("==", terms[i], constNode(first)), LitKind.Compare);
    }
  }
  return c.out;
}

/** Code-unit order of strings (locale independent, so results are stable). */
export function cmpText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Existentials about the state alone, tied to no scope variable:
 * `exists(y: T, p(y))` and `exists(y: T, p(y) and q(y))` over one-argument
 * predicates true of some object of `sits` (negated when `negate`), e.g.
 * `exists(y: Receptacle, locates(y) and is_closed(y))`: "the agent stands at
 * a closed receptacle".
 */
export function freeExistentials(
  space: LiteralSpace,
  sits: readonly Example[],
  negate: boolean,
): Literal[] {
  const unary = Object.entries(space.vocab.predicates).filter(([, d]) => d.params.length === 1);
  const out = new Map<string, Literal>();
  const y = space.existsVar;
  for (const sit of sits) {
    for (const [typeName, decl] of Object.entries(space.vocab.types)) {
      if (decl.kind !== "object") continue;
      for (const obj of sit.facts.objectsOfType(typeName)) {
        const holds = unary
          .filter(([p, d]) =>
            isAssignable(space.vocab, typeName, d.params[0]) &&
            sit.facts.has({ pred: p, args: [obj] })
          )
          .map(([p]) => callNode(p, [varNode(y)]));
        const bodies: Expr[] = holds.map((h) => h);
        for (let i = 0; i < holds.length; i++) {
          for (let j = i + 1; j < holds.length; j++) bodies.push(conjunction([holds[i], holds[j]]));
        }
        for (const body of bodies) {
          const q = quantNode("exists", y, typeName, body);
          const lit = makeLiteral(
            negate ? notNode(q) : q,
            negate ? LitKind.NotExists : LitKind.Exists,
          );
          if (!out.has(lit.text)) out.set(lit.text, lit);
          if (out.size >= MAX_GENERATED / 4) return [...out.values()];
        }
      }
    }
  }
  return [...out.values()];
}
