/**
 * The search behind predicate invention and selection synthesis: every
 * candidate literal is evaluated once on every situation (truth vectors),
 * then conjunctions are searched as a set cover: each conjunct must hold in
 * every positive, and together they must be false in every negative.
 *
 * Caps:
 * - {@linkcode MAX_LITERALS} literals enter the search, the most
 *   discriminating first (most negatives ruled out, then smallest);
 * - {@linkcode MAX_NODES} search nodes per exact search (branch and bound,
 *   branching on the negative with the fewest literals ruling it out);
 * - {@linkcode MAX_PARTIAL} literals enter the search for partial covers
 *   (under-determined selections), which tries every combination.
 *
 * @module
 */
import type { Expr } from "../dsl/expr/ast.ts";
import { evalExpr } from "../dsl/expr/eval.ts";
import { printExpr } from "../dsl/expr/print.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import { conjunction } from "./_synth_expr.ts";
import {
  cmpText,
  type Literal,
  LitKind,
  memoGrew,
  scopeKey,
  situationMemo,
} from "./_synth_literals.ts";
import type { Example } from "./synth_types.ts";

/** Literals kept for the search. */
export const MAX_LITERALS = 400;
/** Search nodes of one exact cover search. */
export const MAX_NODES = 200_000;
/** Literals combined exhaustively for partial covers. */
export const MAX_PARTIAL = 40;

/** A literal with its truth data over the negatives. */
export interface Scored {
  lit: Literal;
  /** Negatives where the literal is false. */
  kills: Uint32Array;
  /** Negatives where the literal cannot be evaluated. */
  errs: Uint32Array;
  killCount: number;
}

/** A conjunction found by the search. */
export interface Cover {
  lits: Literal[];
  expr: Expr;
  text: string;
  size: number;
  constants: number;
  /** Negatives not ruled out. */
  uncovered: number;
}

/** Evaluates a boolean expression; `undefined` when it fails or is not boolean. */
export function truth(vocab: Vocabulary, e: Expr, sit: Example): boolean | undefined {
  const r = evalExpr(e, { vocab, facts: sit.facts, scope: sit.scope });
  return r.ok && typeof r.value === "boolean" ? r.value : undefined;
}

/** The numeric value of a term in a situation, if it has one. */
export function numberValue(vocab: Vocabulary, term: Expr, sit: Example): number | undefined {
  const r = evalExpr(term, { vocab, facts: sit.facts, scope: sit.scope });
  return r.ok && typeof r.value === "number" ? r.value : undefined;
}

/**
 * Scores literals: drops those not true in every positive, those that rule
 * out no negative (when there are negatives), negated literals with
 * constants that do not rule out every negative (their constants must come
 * from all negatives), and duplicates of a better literal with the same
 * truth data; keeps at most {@linkcode MAX_LITERALS}.
 */
export function scoreLiterals(
  vocab: Vocabulary,
  lits: readonly Literal[],
  positives: readonly Example[],
  negatives: readonly Example[],
): Scored[] {
  const words = Math.ceil(negatives.length / 32);
  const best = new Map<string, Scored>();
  const pos = positives.map(truthMemo);
  const neg = negatives.map(truthMemo);
  // Truth by literal text, remembered per situation across calls.
  const truthOf = (lit: Literal, sit: Example, memo: Map<string, boolean | undefined>) => {
    if (memo.has(lit.text)) return memo.get(lit.text);
    const v = truth(vocab, lit.expr, sit);
    memo.set(lit.text, v);
    memoGrew(memo, TRUTH_WEIGHT);
    return v;
  };
  for (const lit of lits) {
    if (!positives.every((p, i) => truthOf(lit, p, pos[i]) === true)) continue;
    const kills = new Uint32Array(words);
    const errs = new Uint32Array(words);
    let killCount = 0;
    negatives.forEach((n, i) => {
      const v = truthOf(lit, n, neg[i]);
      if (v === false) {
        kills[i >>> 5] |= 1 << (i & 31);
        killCount++;
      } else if (v === undefined) errs[i >>> 5] |= 1 << (i & 31);
    });
    if (negatives.length > 0 && killCount === 0) continue;
    const negated = lit.kind === LitKind.NotAtom || lit.kind === LitKind.NotExists;
    if (negated && lit.constants > 0 && killCount < negatives.length) continue;
    const key = `${kills.join(",")}|${errs.join(",")}`;
    const old = best.get(key);
    if (!old || cmpLit(lit, old.lit) < 0) best.set(key, { lit, kills, errs, killCount });
  }
  return [...best.values()]
    .sort((a, b) => b.killCount - a.killCount || cmpLit(a.lit, b.lit))
    .slice(0, MAX_LITERALS);
}

const truthMemos = new WeakMap<object, Map<string, Map<string, boolean | undefined>>>();

/** What a memoized truth weighs against the memos' budget: a tenth of a literal. */
const TRUTH_WEIGHT = 0.1;

/** The memo of literal truths of a situation (its fact state and scope). */
function truthMemo(sit: Example): Map<string, boolean | undefined> {
  return situationMemo(truthMemos, sit, scopeKey(sit.scope), () => new Map(), () => 0);
}

/** Literal order: smaller, fewer constants, kind, text. */
export function cmpLit(a: Literal, b: Literal): number {
  return a.size - b.size || a.constants - b.constants || a.kind - b.kind ||
    cmpText(a.text, b.text);
}

/**
 * The conjunction of literals in canonical order (kind, then text), or
 * `undefined` when evaluating it in that order would fail on a negative
 * (a literal that cannot be evaluated there is not guarded by an earlier
 * one that is false).
 */
function makeCover(chosen: readonly Scored[], nNeg: number): Cover | undefined {
  const ordered = [...chosen].sort((a, b) =>
    a.lit.kind - b.lit.kind || cmpText(a.lit.text, b.lit.text)
  );
  const words = Math.ceil(nNeg / 32);
  const alive = new Uint32Array(words);
  for (let i = 0; i < nNeg; i++) alive[i >>> 5] |= 1 << (i & 31);
  for (const s of ordered) {
    for (let w = 0; w < words; w++) {
      if (s.errs[w] & alive[w]) return undefined;
      alive[w] &= ~s.kills[w];
    }
  }
  const lits = ordered.map((s) => s.lit);
  const expr = conjunction(lits.map((l) => l.expr));
  return {
    lits,
    expr,
    text: printExpr(expr),
    size: lits.reduce((a, l) => a + l.size, 0) + lits.length - 1,
    constants: lits.reduce((a, l) => a + l.constants, 0),
    uncovered: popcount(alive),
  };
}

/** Cover order: size, constants, number of literals, text. */
export function cmpCover(a: Cover, b: Cover): number {
  return a.size - b.size || a.constants - b.constants || a.lits.length - b.lits.length ||
    cmpText(a.text, b.text);
}

/**
 * Conjunctions of at most `maxLits` scored literals that rule out every
 * negative, best first ({@linkcode cmpCover}); the first is the smallest
 * (branch and bound keeps every cover no larger than the best found).
 */
export function exactCovers(scored: readonly Scored[], nNeg: number, maxLits: number): Cover[] {
  if (nNeg === 0) return [];
  const order = [...scored].sort((a, b) => cmpLit(a.lit, b.lit));
  const killers: number[][] = Array.from({ length: nNeg }, () => []);
  order.forEach((s, idx) => {
    for (let i = 0; i < nNeg; i++) if (s.kills[i >>> 5] & (1 << (i & 31))) killers[i].push(idx);
  });
  const found = new Map<string, Cover>();
  let bound = Infinity;
  let nodes = 0;
  const words = Math.ceil(nNeg / 32);
  const rec = (chosen: number[], covered: Uint32Array, size: number): void => {
    if (++nodes > MAX_NODES) return;
    let pick = -1;
    for (let i = 0; i < nNeg; i++) {
      if (covered[i >>> 5] & (1 << (i & 31))) continue;
      if (pick < 0 || killers[i].length < killers[pick].length) pick = i;
    }
    if (pick < 0) {
      const key = [...chosen].sort((a, b) => a - b).join(",");
      if (found.has(key)) return;
      const cover = makeCover(chosen.map((c) => order[c]), nNeg);
      if (!cover) return;
      found.set(key, cover);
      bound = Math.min(bound, cover.size);
      return;
    }
    if (chosen.length >= maxLits) return;
    for (const idx of killers[pick]) {
      const s = order[idx];
      const next = size + s.lit.size + (chosen.length > 0 ? 1 : 0);
      // Killers are sorted by size, so no later one fits either.
      if (next > bound) break;
      const cov = new Uint32Array(words);
      for (let w = 0; w < words; w++) cov[w] = covered[w] | s.kills[w];
      rec([...chosen, idx], cov, next);
    }
  };
  rec([], new Uint32Array(words), 0);
  return [...found.values()].filter((c) => c.size <= bound).sort(cmpCover);
}

/**
 * Every conjunction of 1..`maxLits` of the {@linkcode MAX_PARTIAL} most
 * discriminating literals in which each literal rules out some negative the
 * others keep; with how many negatives each leaves.
 */
export function partialCovers(scored: readonly Scored[], nNeg: number, maxLits: number): Cover[] {
  const top = scored.slice(0, MAX_PARTIAL);
  const out: Cover[] = [];
  const rec = (start: number, chosen: Scored[]): void => {
    if (chosen.length > 0 && !redundant(chosen)) {
      const cover = makeCover(chosen, nNeg);
      if (cover) out.push(cover);
    }
    if (chosen.length >= maxLits) return;
    for (let i = start; i < top.length; i++) rec(i + 1, [...chosen, top[i]]);
  };
  rec(0, []);
  return out;
}

/** Whether some literal rules out nothing the others do not already. */
function redundant(chosen: readonly Scored[]): boolean {
  if (chosen.length < 2) return false;
  return chosen.some((s, i) => {
    const words = s.kills.length;
    for (let w = 0; w < words; w++) {
      let others = 0;
      chosen.forEach((o, j) => {
        if (j !== i) others |= o.kills[w];
      });
      if (s.kills[w] & ~others) return false;
    }
    return true;
  });
}

function popcount(bits: Uint32Array): number {
  let n = 0;
  for (let w of bits) {
    while (w) {
      w &= w - 1;
      n++;
    }
  }
  return n;
}
