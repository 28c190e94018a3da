/**
 * The kinds of candidate bindings, each generated over aligned examples
 * (situations with the constant the expert used): selections
 * (`select_one(x: T, conj)`, determined or not), function terms and their
 * sums and differences, and intermediate objects for chains.
 *
 * @module
 */
import type { Expr } from "../dsl/expr/ast.ts";
import { evalExpr, valueEquals } from "../dsl/expr/eval.ts";
import { printExpr } from "../dsl/expr/print.ts";
import type { FactView, Value } from "../dsl/facts.ts";
import { subtypesOf, type Vocabulary } from "../dsl/vocabulary.ts";
import {
  type Cover,
  exactCovers,
  numberValue,
  partialCovers,
  scoreLiterals,
} from "./_synth_cover.ts";
import { binNode, constantCount, exprSize, pickName, quantNode } from "./_synth_expr.ts";
import {
  cmpText,
  comparisonLiterals,
  functionTerms,
  type LiteralSpace,
  scopeLinks,
  stateLiterals,
} from "./_synth_literals.ts";
import type { Example, SynthesisContext } from "./synth_types.ts";

/** An example with the value to produce. */
export type Target = Example & { target: Value };

/** A candidate expression before ranking. */
export interface Candidate {
  expr: Expr;
  text: string;
  size: number;
  constants: number;
  determined: boolean;
  /** Total objects the selection allows over the examples. */
  candidates?: number;
}

/** Determined covers kept per selection. */
const MAX_DETERMINED = 5;
/** Under-determined covers kept per selection. */
const MAX_UNDERDETERMINED = 10;
/** Intermediate objects tried for chains. */
export const MAX_INTERMEDIATES = 12;

function candidate(expr: Expr, determined: boolean, candidates?: number): Candidate {
  const c: Candidate = {
    expr,
    text: printExpr(expr),
    size: exprSize(expr),
    constants: constantCount(expr),
    determined,
  };
  if (candidates !== undefined) c.candidates = candidates;
  return c;
}

/** The known objects of `type` (and its subtypes) in an example, in store order. */
function domainOf(ctx: SynthesisContext, ex: Example, type: string): string[] {
  const seen = new Set<string>();
  for (const t of subtypesOf(ctx.vocab, type)) {
    for (const id of ex.facts.objectsOfType(t)) seen.add(id);
  }
  return [...seen];
}

/**
 * Selections `select_one(x: type, conj)` that yield each example's target:
 * determined ones (conj holds for the target only) and under-determined ones
 * (conj holds for the target and other objects), the latter with the total
 * number of objects they allow.
 */
export function selections(
  ctx: SynthesisContext,
  examples: readonly Target[],
  type: string,
): { determined: Candidate[]; partial: Candidate[] } {
  const none = { determined: [], partial: [] };
  const taken = new Set(Object.keys(ctx.varTypes));
  const x = pickName(taken);
  const positives: Example[] = [];
  const negatives: Example[] = [];
  for (const ex of examples) {
    const domain = domainOf(ctx, ex, type);
    if (typeof ex.target !== "string" || !domain.includes(ex.target)) return none;
    positives.push({ facts: ex.facts, scope: { ...ex.scope, [x]: ex.target } });
    for (const o of domain) {
      if (o !== ex.target) negatives.push({ facts: ex.facts, scope: { ...ex.scope, [x]: o } });
    }
  }
  const space: LiteralSpace = {
    vocab: ctx.vocab,
    varTypes: { ...ctx.varTypes, [x]: type },
    mention: new Set([x]),
    existsVar: pickName(new Set([...taken, x])),
  };
  const literals = [
    ...stateLiterals(space, [positives[0]], false),
    ...stateLiterals(space, negatives, true),
    ...comparisonLiterals(space, positives, (t, sit) => numberValue(ctx.vocab, t, sit)),
  ];
  const scored = scoreLiterals(ctx.vocab, literals, positives, negatives);
  const select = (c: Cover) => quantNode("select_one", x, type, c.expr);
  const maxLits = ctx.maxLiterals ?? 3;
  if (negatives.length === 0) {
    // Only the target is known: any literal that holds for it selects it.
    const singles = scored.map((s) => s.lit).sort((a, b) =>
      a.size - b.size || a.constants - b.constants || cmpText(a.text, b.text)
    );
    return {
      determined: singles.slice(0, MAX_DETERMINED).map((l) =>
        candidate(quantNode("select_one", x, type, l.expr), true)
      ),
      partial: [],
    };
  }
  const determined = exactCovers(scored, negatives.length, maxLits)
    .slice(0, MAX_DETERMINED)
    .map((c) => candidate(select(c), true));
  const partial = partialCovers(scored, negatives.length, maxLits)
    .filter((c) => c.uncovered > 0)
    .sort((a, b) =>
      a.uncovered - b.uncovered || a.size - b.size || a.constants - b.constants ||
      cmpText(a.text, b.text)
    )
    .slice(0, MAX_UNDERDETERMINED)
    .map((c) => candidate(select(c), false, examples.length + c.uncovered));
  return { determined, partial };
}

/**
 * Function applications over the scope that equal every target, then sums
 * and differences of two numeric terms (for numeric targets).
 */
export function termBindings(
  ctx: SynthesisContext,
  examples: readonly Target[],
  type: string | undefined,
): Candidate[] {
  const out: Candidate[] = [];
  const equalsAll = (e: Expr) =>
    examples.every((ex) => {
      const r = evalExpr(e, { vocab: ctx.vocab, facts: ex.facts, scope: ex.scope });
      return r.ok && valueEquals(r.value, ex.target);
    });
  for (const term of functionTerms(ctx.vocab, ctx.varTypes, type, false)) {
    if (equalsAll(term)) out.push(candidate(term, true));
  }
  if (!examples.every((ex) => typeof ex.target === "number")) return out;
  const numeric = functionTerms(ctx.vocab, ctx.varTypes, "Num", true);
  // Values are computed once per term; a sum is checked on numbers first.
  const values = numeric.map((t) => examples.map((ex) => numberValue(ctx.vocab, t, ex)));
  const texts = numeric.map((t) => printExpr(t));
  numeric.forEach((a, i) => {
    numeric.forEach((b, j) => {
      if (i === j) return;
      const va = values[i];
      const vb = values[j];
      const fits = (op: (p: number, q: number) => number) =>
        examples.every((ex, k) =>
          va[k] !== undefined && vb[k] !== undefined && op(va[k]!, vb[k]!) === ex.target
        );
      if (texts[i] < texts[j] && fits((p, q) => p + q)) {
        out.push(candidate(binNode("+", a, b), true));
      }
      if (fits((p, q) => p - q)) out.push(candidate(binNode("-", a, b), true));
    });
  });
  return out;
}

/** An intermediate object: a determined selection that links the scope to one object. */
export interface Intermediate {
  type: string;
  candidate: Candidate;
  /** The selected object in each example. */
  values: Value[];
}

/**
 * Determined selections `select_one(q: T, lit(q, scope...))` of one object
 * per example, other than the target, from the atoms that link the scope
 * to objects of the first example; smallest first. With `choose`, also a
 * selection of several objects in some examples, taking the one an atom
 * links to the target (marked not determined; determined ones first).
 */
export function intermediates(
  ctx: SynthesisContext,
  examples: readonly Target[],
  choose = false,
): Intermediate[] {
  const taken = new Set(Object.keys(ctx.varTypes));
  const q = pickName(taken);
  const space: LiteralSpace = {
    vocab: ctx.vocab,
    varTypes: ctx.varTypes,
    mention: new Set(Object.keys(ctx.varTypes)),
    existsVar: q,
  };
  const seen = new Set<string>();
  const out: Intermediate[] = [];
  for (const { type, body } of scopeLinks(space, examples[0])) {
    const all = quantNode("select_all", q, type, body);
    const text = printExpr(all);
    if (seen.has(text)) continue;
    seen.add(text);
    const values: Value[] = [];
    let chosen = false;
    for (const ex of examples) {
      const r = evalExpr(all, { vocab: ctx.vocab, facts: ex.facts, scope: ex.scope });
      if (!r.ok || !Array.isArray(r.value) || r.value.length === 0) break;
      // Where several fit (an item two recipes make), the one the target is
      // linked to is the expert's: a chain through it holds up to that choice.
      const value = r.value.length === 1
        ? r.value[0]
        : choose
        ? linkedElement(r.value, ex.facts, ex.target, ctx.vocab)
        : undefined;
      if (value === undefined || valueEquals(value, ex.target)) break;
      if (r.value.length > 1) chosen = true;
      values.push(value);
    }
    if (values.length !== examples.length) continue;
    out.push({
      type,
      candidate: candidate(quantNode("select_one", q, type, body), !chosen),
      values,
    });
  }
  return out
    .sort((a, b) =>
      Number(b.candidate.determined) - Number(a.candidate.determined) ||
      a.candidate.size - b.candidate.size || a.candidate.constants - b.candidate.constants ||
      cmpText(a.candidate.text, b.candidate.text)
    )
    .slice(0, MAX_INTERMEDIATES);
}

/**
 * The one element of `list` (not in `taken`) that a fact of a binary
 * relation links to `object`, either way round; `undefined` when none or
 * several are.
 */
export function linkedElement(
  list: readonly Value[],
  facts: FactView,
  object: Value,
  vocab: Vocabulary,
  taken: ReadonlySet<Value> = new Set(),
): string | undefined {
  if (typeof object !== "string") return undefined;
  const linked = list.filter((e) =>
    !taken.has(e) && typeof e === "string" &&
    Object.entries(vocab.predicates).some(([pred, decl]) =>
      decl.params.length === 2 &&
      (facts.has({ pred, args: [object, e] }) || facts.has({ pred, args: [e, object] }))
    )
  );
  return linked.length === 1 ? linked[0] as string : undefined;
}
