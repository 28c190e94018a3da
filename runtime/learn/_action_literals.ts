/**
 * Candidate preconditions of an action model: literals lifted over an
 * action's argument variables (named as the template's parameters).
 *
 * The space, for an action with parameters `p1..pn`:
 * - every predicate applied to parameters only, and its negation
 *   (`near(door)`, `not carried(key)`), enumerated from the vocabulary;
 * - one-level existentials whose body is one predicate with exactly one
 *   position bound (at an object type) and every other position a
 *   parameter, and their negations (`exists(x: Key, behind(door, x))`,
 *   `not exists(x: Key, carried(x))`);
 * - atoms with a non-object constant (`color(door, 'red')`),
 *   taken from the data: positive ones from a successful situation (a
 *   precondition must hold there), negated ones from failed situations;
 * - numeric comparisons between numeric parameters and functions applied to
 *   parameters (`weight(box) <= n`).
 *
 * The enumeration is linear in the vocabulary and the data touched, and
 * capped by {@linkcode MAX_CANDIDATES}; its order is deterministic.
 *
 * @module
 */
import { exprNodes } from "../../dsl/expr/size.ts";
import type { BinaryOp, Expr, Span } from "../../dsl/expr/ast.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { freeVars } from "../../dsl/expr/vars.ts";
import { product } from "./product.ts";
import type { AtomArg, FactView, Value } from "../../dsl/facts.ts";
import {
  type ActionParam,
  isAssignable,
  isObjectType,
  type Vocabulary,
} from "../../dsl/vocabulary.ts";

/** Candidates generated per action before evaluation. */
export const MAX_CANDIDATES = 2000;

/** The kind of a candidate; it also breaks ties (atoms first, comparisons last). */
export const CandidateKind = {
  Atom: 0,
  NotAtom: 1,
  Exists: 2,
  NotExists: 3,
  Compare: 4,
} as const;
/** One of the {@linkcode CandidateKind} values. */
export type CandidateKind = typeof CandidateKind[keyof typeof CandidateKind];

/** A candidate precondition. */
export interface Candidate {
  expr: Expr;
  text: string;
  kind: CandidateKind;
  /** AST nodes. */
  size: number;
  /** String and number literals. */
  constants: number;
  /** Whether it mentions a parameter (`exists(x: Key, carried(x))` does not). */
  aboutArgs: boolean;
}

/** A situation the data-driven candidates are read from. */
export interface Situation {
  facts: FactView;
  /** Argument values by parameter name. */
  scope: Readonly<Record<string, Value>>;
}

const NO_SPAN: Span = { start: 0, end: 0 };
const BOUND_NAMES = ["x", "y", "z", "w", "v", "u"];

/** The bound-variable name of existentials: the first of x, y, z, ... no parameter uses. */
export function boundName(params: readonly ActionParam[]): string {
  const taken = new Set(params.map((p) => p.name));
  for (const n of BOUND_NAMES) if (!taken.has(n)) return n;
  for (let i = 1;; i++) if (!taken.has(`x${i}`)) return `x${i}`;
}

/**
 * The candidate preconditions of an action.
 *
 * @param vocab Predicates, functions and types.
 * @param params The action's parameters (the variables of every candidate).
 * @param successes Situations where the action succeeded (constants of positive atoms come from the first).
 * @param failures Situations where it was rejected (constants of negated atoms come from them).
 */
export function candidateLiterals(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  successes: readonly Situation[],
  failures: readonly Situation[],
): Candidate[] {
  const out = new Collector();
  const x = boundName(params);
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    for (const args of assignments(vocab, params, decl.params, x)) {
      const bound = args.findIndex((a) => a.kind === "var" && a.name === x);
      const atom = call(pred, args);
      if (bound < 0) {
        out.add(atom, CandidateKind.Atom);
        out.add(not(atom), CandidateKind.NotAtom);
      } else {
        const ex = exists(x, decl.params[bound], atom);
        out.add(ex, CandidateKind.Exists);
        out.add(not(ex), CandidateKind.NotExists);
      }
    }
  }
  if (successes.length > 0) {
    for (const e of constantAtoms(vocab, params, successes[0])) out.add(e, CandidateKind.Atom);
  }
  for (const f of failures) {
    for (const e of constantAtoms(vocab, params, f)) out.add(not(e), CandidateKind.NotAtom);
  }
  for (const e of comparisons(vocab, params)) out.add(e, CandidateKind.Compare);
  return out.items;
}

/** Candidates de-duplicated by text, up to the cap. */
class Collector {
  readonly items: Candidate[] = [];
  readonly #seen = new Set<string>();

  add(expr: Expr, kind: CandidateKind): void {
    if (this.items.length >= MAX_CANDIDATES) return;
    const text = printExpr(expr);
    if (this.#seen.has(text)) return;
    this.#seen.add(text);
    this.items.push({
      expr,
      text,
      kind,
      size: exprNodes(expr, { typeDomain: 0 }),
      constants: constants(expr),
      aboutArgs: freeVars(expr).size > 0,
    });
  }
}

/**
 * Argument lists of a predicate made of parameters and at most one bound
 * variable (only at object-type positions); lists of the bound variable
 * alone count only when it is the sole position, so that
 * `exists(x: T, p(x))` is a candidate and `exists(x: T, p(x, x))` is not.
 */
function assignments(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  positions: readonly string[],
  x: string,
): Expr[][] {
  const options = positions.map((type) => {
    const opts: Expr[] = params
      .filter((p) => isAssignable(vocab, p.type, type))
      .map((p) => variable(p.name));
    if (isObjectType(vocab, type)) opts.push(variable(x));
    return opts;
  });
  const out: Expr[][] = [];
  for (const args of product(options)) {
    const boundCount = args.filter((a) => a.kind === "var" && a.name === x).length;
    if (boundCount <= 1) out.push(args);
  }
  return out;
}

/**
 * Atoms of `sit` about an argument value, lifted with parameters where the
 * value is an argument and non-object constants elsewhere; only those with
 * at least one constant (the others are enumerated from the vocabulary).
 */
function constantAtoms(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  sit: Situation,
): Expr[] {
  const out: Expr[] = [];
  const seen = new Set<string>();
  for (const p of params) {
    const value = sit.scope[p.name];
    if (typeof value !== "string" && typeof value !== "number") continue;
    for (const [pred, decl] of Object.entries(vocab.predicates)) {
      decl.params.forEach((type, i) => {
        if (!isAssignable(vocab, p.type, type)) return;
        const pattern: (AtomArg | null)[] = decl.params.map((_, j) => j === i ? value : null);
        for (const atom of sit.facts.query(pred, pattern)) {
          const key = JSON.stringify([atom.pred, ...atom.args]);
          if (seen.has(key)) continue;
          seen.add(key);
          const lifted = liftWithConstants(vocab, params, sit, atom.pred, atom.args, decl.params);
          if (lifted) out.push(lifted);
        }
      });
    }
  }
  return out;
}

/**
 * One lifting of a ground atom: the first parameter holding each value
 * (type permitting), else the value as a constant when it names no object;
 * `undefined` when some object is not an argument or no constant remains.
 */
function liftWithConstants(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  sit: Situation,
  pred: string,
  args: readonly AtomArg[],
  types: readonly string[],
): Expr | undefined {
  let constantsUsed = 0;
  const lifted: Expr[] = [];
  for (let j = 0; j < args.length; j++) {
    const arg = args[j];
    const param = params.find((p) =>
      sit.scope[p.name] === arg && isAssignable(vocab, p.type, types[j])
    );
    if (param) {
      lifted.push(variable(param.name));
      continue;
    }
    // Naming one object does not generalise; classes and amounts may.
    if (typeof arg === "string" && sit.facts.typeOf(arg) !== undefined) return undefined;
    const constType = typeof arg === "number" ? "Num" : "Str";
    if (!isAssignable(vocab, constType, types[j])) return undefined;
    lifted.push(literal(arg));
    constantsUsed++;
  }
  return constantsUsed > 0 ? call(pred, lifted) : undefined;
}

/** Numeric comparisons between numeric parameters and functions of parameters. */
function comparisons(vocab: Vocabulary, params: readonly ActionParam[]): Expr[] {
  const terms: Expr[] = params.filter((p) => p.type === "Num").map((p) => variable(p.name));
  for (const [name, decl] of Object.entries(vocab.functions)) {
    if (!isAssignable(vocab, decl.returns, "Num")) continue;
    const options = decl.params.map((type) =>
      params.filter((p) => isAssignable(vocab, p.type, type)).map((p) => variable(p.name))
    );
    for (const args of product(options)) terms.push(call(name, args));
  }
  const out: Expr[] = [];
  const ops: BinaryOp[] = ["<", "<=", ">", ">=", "==", "!="];
  terms.forEach((a, i) => {
    out.push(binary(">", a, literal(0)), binary("==", a, literal(0)));
    for (const b of terms.slice(i + 1)) for (const op of ops) out.push(binary(op, a, b));
  });
  return out;
}

function variable(name: string): Expr {
  return { kind: "var", name, span: NO_SPAN };
}

function literal(value: AtomArg): Expr {
  if (typeof value === "string") return { kind: "str", value, span: NO_SPAN };
  if (value < 0) {
    return { kind: "neg", arg: { kind: "num", value: -value, span: NO_SPAN }, span: NO_SPAN };
  }
  return { kind: "num", value, span: NO_SPAN };
}

function call(name: string, args: Expr[]): Expr {
  return { kind: "call", name, args, span: NO_SPAN };
}

function not(arg: Expr): Expr {
  return { kind: "not", arg, span: NO_SPAN };
}

function binary(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, left, right, span: NO_SPAN };
}

function exists(name: string, type: string, body: Expr): Expr {
  return {
    kind: "quant",
    op: "exists",
    var: name,
    domain: { kind: "type", type },
    body,
    span: NO_SPAN,
  };
}

function constants(e: Expr): number {
  switch (e.kind) {
    case "num":
    case "str":
      return 1;
    case "call":
      return e.args.reduce((s, a) => s + constants(a), 0);
    case "not":
    case "neg":
      return constants(e.arg);
    case "binary":
      return constants(e.left) + constants(e.right);
    case "quant":
      return constants(e.body);
    default:
      return 0;
  }
}
