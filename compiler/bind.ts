/**
 * Binding synthesis: given the same step of several traces, each with the
 * constant the expert used there, propose expressions over the scope
 * (parameters and earlier variables) that produce each example's constant,
 * so that a skill binds typed variables instead of replaying constants.
 *
 * Ranking, best first (each tier ordered by size, then constants, then text,
 * unless said otherwise):
 * 0. a scope variable equal to the target in every example;
 * 1. a determined `select_one(x: T, conj)` (conj as in predicate invention,
 *    holding for the target only), and a determined chain whose last step is
 *    such a selection: `y1 := select_one(q: Ty, lit(q, scope...))`, then a
 *    selection relating `y1` to the target. Chains rank with the direct
 *    selections by size, so `r := select_one(q: Recipe, makes(q, target))`
 *    then `select_one(x: Item, uses(r, x))` (size 8) beats the existential
 *    `select_one(x: Item, exists(y: Recipe, uses(y, x) and makes(y, target)))`
 *    (size 9), and the intermediate is there for later steps to use;
 * 2. for targets that are not known objects: function applications over the
 *    scope (`need(r, x)`), then sums and differences of two such terms;
 * 3. chains whose last step is such a term;
 * 4. the constant itself, when it is the same in every example and not an object;
 * 5. under-determined selections (direct or chained) whose conj holds for
 *    the target in every example: an existential choice, ordered by the
 *    number of objects allowed over all examples (most specific first);
 * 6. when no selection fits, the free choice `select_one(x: T, true)`: an
 *    object id is never a constant of a skill, even when every example used
 *    the same object.
 *
 * Chains are only tried when no scope variable equals the target, and chains
 * ending in a term only when no term fits directly. A string constant is
 * only used when it is the same in every example, and never when it is one
 * example's target while the targets differ. Every result type-checks (and
 * its type is assignable to the expected type, when given).
 *
 * @module
 */
import type { Expr } from "../dsl/expr/ast.ts";
import { checkExpr } from "../dsl/expr/check.ts";
import { valueEquals } from "../dsl/expr/eval.ts";
import { printExpr } from "../dsl/expr/print.ts";
import { freeVars, literalExpr } from "../dsl/expr/vars.ts";
import type { Value } from "../dsl/facts.ts";
import {
  isAssignable,
  isObjectType,
  own,
  type TypeDecl,
  type Vocabulary,
} from "../dsl/vocabulary.ts";
import {
  type Candidate,
  intermediates,
  selections,
  type Target,
  termBindings,
} from "./_bind_parts.ts";
import { conjunction, constantCount, exprSize, quantNode, varNode } from "./_synth_expr.ts";
import { cmpText } from "./_synth_literals.ts";
import type { Example, SynthesisContext } from "./synth_types.ts";

/** A proposed binding for a target constant. */
export interface Binding {
  /** Intermediate bindings to place before `expr` (var := expr), e.g. a recipe that connects a parameter to the target. */
  steps: { var: string; expr: Expr; text: string }[];
  /** The expression that yields the target. */
  expr: Expr;
  /** Its canonical text. */
  text: string;
  /** True when the expression yields exactly the target in every example (select_one has one candidate, or a variable/function/literal equals it). */
  determined: boolean;
  /** Expression size (AST nodes, steps included). */
  size: number;
  /** Number of string/number literals used. */
  constants: number;
  /** For an under-determined select_one: total number of candidates over the examples (smaller = more specific). */
  candidates?: number;
}

/** Options of {@linkcode synthesizeBinding}. */
export interface BindingOptions {
  /** The type the binding must have (e.g. the action parameter's type). */
  type?: string;
  /**
   * Names intermediate variables; `base` is a hint (the intermediate type's
   * initial, lower case).
   * @default {"`y1`, `y2`, ... (names not in scope)"}
   */
  freshVar?: (base: string) => string;
  /**
   * Most bindings returned.
   * @default {10}
   */
  limit?: number;
  /**
   * Chains may go through an intermediate that is one of several where the
   * examples offer more (the one the target is linked to): for callers that
   * score bindings with the expert's choice, as replay makes it.
   * @default {false}
   */
  chooseIntermediates?: boolean;
}

/** A binding with its rank. */
interface Ranked {
  binding: Binding;
  tier: number;
  /** Chains after direct selections of the same size. */
  chained: boolean;
  /** From a single example: it reads a variable of the scope, in a step or itself. */
  anchored: boolean;
}

/**
 * Proposes expressions that produce each example's target, best first.
 *
 * @param ctx The vocabulary, the scope variable types and the conjunction size limit.
 * @param examples The aligned examples: situations with the constant used.
 * @param options Expected type, fresh names for intermediates, result limit.
 * @returns The ranked bindings (empty when none fits every example).
 *
 * @example Usage
 * ```ts
 * import { synthesizeBinding } from "./bind.ts";
 * import { FactStore } from "../runtime/fact_store.ts";
 * const vocab = {
 *   name: "demo",
 *   types: { Box: { kind: "object" as const }, Ball: { kind: "object" as const } },
 *   predicates: { inside: { params: ["Box", "Ball"] } },
 *   functions: {},
 *   actions: {},
 * };
 * const facts = new FactStore(
 *   [{ pred: "inside", args: ["b1", "red"] }, { pred: "inside", args: ["b2", "blue"] }],
 *   { b1: "Box", b2: "Box", red: "Ball", blue: "Ball" },
 * );
 * const [best] = synthesizeBinding(
 *   { vocab, varTypes: { box: "Box" } },
 *   [{ facts, scope: { box: "b1" }, target: "red" }, { facts, scope: { box: "b2" }, target: "blue" }],
 * );
 * console.log(best.text, best.determined); // select_one(x: Ball, inside(box, x)) true
 * ```
 */
export function synthesizeBinding(
  ctx: SynthesisContext,
  examples: (Example & { target: Value })[],
  options: BindingOptions = {},
): Binding[] {
  if (examples.length === 0) return [];
  const ranked: Ranked[] = [];
  // From one example, many properties single the object out (the one item
  // not craftable in that state); one tied to the skill's arguments is the
  // likelier to transfer. More examples tell coincidences apart themselves.
  const scopeVars = new Set(examples.length === 1 ? Object.keys(ctx.varTypes) : []);
  const anchored = (b: Binding) =>
    [b.expr, ...b.steps.map((s) => s.expr)].some((e) =>
      [...freeVars(e)].some((v) => scopeVars.has(v))
    );
  const push = (tier: number, b: Binding, chained = false) =>
    ranked.push({ binding: b, tier, chained, anchored: anchored(b) });
  const targets = examples.map((e) => e.target);
  const same = targets.every((t) => valueEquals(t, targets[0]));

  for (const name of Object.keys(ctx.varTypes)) {
    if (
      examples.every((e) => e.scope[name] !== undefined && valueEquals(e.scope[name], e.target))
    ) {
      push(0, direct({ ...candidateOf(varNode(name)), determined: true }));
    }
  }
  const objectType = targetObjectType(ctx.vocab, examples, options.type);
  if (objectType) {
    const sel = selections(ctx, examples, objectType);
    for (const c of sel.determined) push(1, direct(c));
    for (const c of sel.partial) push(5, direct(c));
  } else {
    for (const c of termBindings(ctx, examples, options.type)) push(2, direct(c));
    // A known object's id is no value constant, even where a string may stand.
    const known = examples.some((e) => typeof e.target === "string" && e.facts.typeOf(e.target));
    if (same && isScalar(targets[0]) && !known) {
      push(4, direct({ ...candidateOf(literalExpr(targets[0])), determined: true }));
    }
  }
  if (!ranked.some((r) => r.tier === 0)) {
    const wantTerms = !objectType && !ranked.some((r) => r.tier === 2);
    for (const b of chains(ctx, examples, objectType, wantTerms, options)) {
      push(b.binding.determined ? (b.term ? 3 : 1) : 5, b.binding, true);
    }
  }
  if (objectType && !ranked.some((r) => r.tier === 1 || r.tier === 5)) {
    // Nothing about the targets tells them from their peers: any object of
    // the type will do (a free choice; the caller's choice rule picks one).
    // Never the demonstrated object's id: it names one episode's object.
    const free = quantNode("select_one", "x", objectType, conjunction([]));
    const allowed = examples.reduce((n, e) => n + e.facts.objectsOfType(objectType).length, 0);
    push(6, direct({ ...candidateOf(free), candidates: allowed }));
  }
  const seen = new Set<string>();
  return ranked
    .filter((r) => valid(ctx, r.binding, examples, same, options.type))
    .sort(compareRanked)
    .filter((r) => {
      const key = [...r.binding.steps.map((s) => `${s.var}:=${s.text}`), r.binding.text].join(";");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, options.limit ?? 10)
    .map((r) => r.binding);
}

function compareRanked(a: Ranked, b: Ranked): number {
  const x = a.binding;
  const y = b.binding;
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.anchored !== b.anchored) return Number(b.anchored) - Number(a.anchored);
  if (a.tier === 5 && (x.candidates ?? 0) !== (y.candidates ?? 0)) {
    return (x.candidates ?? 0) - (y.candidates ?? 0);
  }
  return x.size - y.size || x.constants - y.constants || Number(a.chained) - Number(b.chained) ||
    cmpText(chainText(x), chainText(y));
}

function chainText(b: Binding): string {
  return [...b.steps.map((s) => `${s.var} := ${s.text}`), b.text].join("; ");
}

function candidateOf(expr: Expr): Candidate {
  return {
    expr,
    text: printExpr(expr),
    size: exprSize(expr),
    constants: constantCount(expr),
    determined: false,
  };
}

function direct(c: Candidate): Binding {
  const b: Binding = {
    steps: [],
    expr: c.expr,
    text: c.text,
    determined: c.determined,
    size: c.size,
    constants: c.constants,
  };
  if (c.candidates !== undefined) b.candidates = c.candidates;
  return b;
}

function isScalar(v: Value): v is string | number | boolean {
  return !Array.isArray(v);
}

/**
 * The object type to select targets from: their common declared type
 * (narrowed by nothing, but it must be assignable to the expected type), or
 * `undefined` when some target is not a known object.
 */
function targetObjectType(
  vocab: Vocabulary,
  examples: readonly Target[],
  expected: string | undefined,
): string | undefined {
  if (expected !== undefined && !isObjectType(vocab, expected)) return undefined;
  const types: string[] = [];
  for (const ex of examples) {
    const t = typeof ex.target === "string" ? ex.facts.typeOf(ex.target) : undefined;
    if (t === undefined || !isObjectType(vocab, t)) return undefined;
    types.push(t);
  }
  // The nearest ancestor of the first type that every type is assignable to.
  let cur: string | undefined = types[0];
  const seen = new Set<string>();
  while (cur !== undefined && !seen.has(cur)) {
    const c: string = cur;
    if (types.every((t) => isAssignable(vocab, t, c))) break;
    seen.add(c);
    const decl: TypeDecl | undefined = own(vocab.types, c);
    cur = c === "Object"
      ? undefined
      : decl?.kind === "object"
      ? decl.parent ?? "Object"
      : undefined;
  }
  if (cur === undefined) return undefined;
  if (expected !== undefined && !isAssignable(vocab, cur, expected)) return undefined;
  return cur;
}

/**
 * Chains through one intermediate object: `y := select_one(q: Ty, lit)`
 * determined in every example, then a binding of the target that uses `y`.
 */
function chains(
  ctx: SynthesisContext,
  examples: readonly Target[],
  objectType: string | undefined,
  wantTerms: boolean,
  options: BindingOptions,
): { binding: Binding; term: boolean }[] {
  const out: { binding: Binding; term: boolean }[] = [];
  const names = new Map<string, string>();
  const used = new Set<string>();
  const fresh = options.freshVar ?? ((_base: string) => {
    for (let i = 1;; i++) {
      const n = `y${i}`;
      if (!(n in ctx.varTypes) && !used.has(n)) {
        used.add(n);
        return n;
      }
    }
  });
  for (const mid of intermediates(ctx, examples, options.chooseIntermediates === true)) {
    const base = mid.type.charAt(0).toLowerCase();
    if (!names.has(mid.type)) names.set(mid.type, fresh(base));
    const name = names.get(mid.type)!;
    const inner: SynthesisContext = { ...ctx, varTypes: { ...ctx.varTypes, [name]: mid.type } };
    const extended = examples.map((ex, i) => ({
      ...ex,
      scope: { ...ex.scope, [name]: mid.values[i] },
    }));
    const tails: { c: Candidate; term: boolean }[] = [];
    if (objectType) {
      const sel = selections(inner, extended, objectType);
      for (const c of [...sel.determined, ...sel.partial]) tails.push({ c, term: false });
    } else if (wantTerms) {
      for (const c of termBindings(inner, extended, options.type)) tails.push({ c, term: true });
    }
    for (const { c, term } of tails) {
      if (!freeVars(c.expr).has(name)) continue;
      const b: Binding = {
        steps: [{ var: name, expr: mid.candidate.expr, text: mid.candidate.text }],
        expr: c.expr,
        text: c.text,
        determined: c.determined && mid.candidate.determined,
        size: mid.candidate.size + c.size,
        constants: mid.candidate.constants + c.constants,
      };
      if (c.candidates !== undefined) b.candidates = c.candidates;
      out.push({ binding: b, term });
    }
  }
  return out;
}

/**
 * Whether a binding type-checks (steps in order, each adding its variable),
 * has the expected type, and uses no constant that is one example's target
 * while the targets differ.
 */
function valid(
  ctx: SynthesisContext,
  b: Binding,
  examples: readonly Target[],
  same: boolean,
  expected: string | undefined,
): boolean {
  const vars: Record<string, string> = { ...ctx.varTypes };
  for (const s of b.steps) {
    const r = checkExpr(s.expr, { vocab: ctx.vocab, vars });
    if (!r.ok) return false;
    vars[s.var] = r.value;
  }
  const r = checkExpr(b.expr, { vocab: ctx.vocab, vars });
  if (!r.ok) return false;
  if (expected !== undefined && !isAssignable(ctx.vocab, r.value, expected)) return false;
  if (!same) {
    const targets = new Set(examples.map((e) => e.target).filter((t) => typeof t === "string"));
    const texts = [b.expr, ...b.steps.map((s) => s.expr)];
    if (texts.some((e) => stringConstants(e).some((c) => targets.has(c)))) return false;
  }
  return true;
}

/** The string literals of an expression. */
function stringConstants(e: Expr): string[] {
  switch (e.kind) {
    case "str":
      return [e.value];
    case "num":
    case "bool":
    case "var":
      return [];
    case "list":
      return e.items.flatMap(stringConstants);
    case "call":
      return e.args.flatMap(stringConstants);
    case "not":
    case "neg":
      return stringConstants(e.arg);
    case "binary":
      return [...stringConstants(e.left), ...stringConstants(e.right)];
    case "quant":
      return [
        ...(e.domain.kind === "in" ? stringConstants(e.domain.list) : []),
        ...stringConstants(e.body),
      ];
    case "distance":
      return [e.edge, e.source, e.target].flatMap(stringConstants);
  }
}
