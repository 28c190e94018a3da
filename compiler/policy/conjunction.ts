/**
 * Conjunctions of literals over typed variables, the condition of a policy
 * rule: `at(x1, x0) and not carry(x0, x2)` over `x0: Ball, x1: Room, x2:
 * Gripper`. The learner tests thousands of them against recorded states, so
 * they are evaluated here by a join over the fact index (positive literals
 * bind variables from matching atoms, the rest are enumerated by type)
 * rather than through the expression evaluator's nested enumeration; the
 * skill the learner emits states the same condition in the expression
 * language (`conditionText`).
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

/** The text of a literal with the given variable names: `not at(b, r)`. */
export function literalText(l: Literal, names: readonly string[]): string {
  const atom = `${l.pred}(${l.args.map((a) => names[a]).join(", ")})`;
  return l.negated ? `not ${atom}` : atom;
}

/** A key that is equal for equal literals. */
export function literalKey(l: Literal): string {
  return `${l.negated ? "!" : ""}${l.pred}(${l.args.join(",")})`;
}

/**
 * Evaluates conjunctions over the states of one vocabulary, caching each
 * type's objects per state.
 */
export class ConjunctionEvaluator {
  readonly #vocab: Vocabulary;
  readonly #assignable = new Map<string, boolean>();
  readonly #domains = new WeakMap<FactView, Map<string, string[]>>();

  /** An evaluator for conjunctions written in `vocab`'s predicates and types. */
  constructor(vocab: Vocabulary) {
    this.#vocab = vocab;
  }

  /** Whether an object of type `sub` may be bound to a variable of type `sup`. */
  fits(sub: string | undefined, sup: string): boolean {
    if (sub === undefined) return false;
    const key = `${sub}<${sup}`;
    let v = this.#assignable.get(key);
    if (v === undefined) {
      v = isAssignable(this.#vocab, sub, sup);
      this.#assignable.set(key, v);
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

  /**
   * Whether some assignment satisfies `c` in `facts`, with the variables of
   * `fixed` (index -> object) bound.
   */
  holds(c: Conjunction, facts: FactView, fixed: readonly (string | undefined)[] = []): boolean {
    for (const _ of this.assignments(c, facts, fixed)) return true;
    return false;
  }

  /** How many assignments of the first `count` variables extend to a satisfying one (at most `limit`). */
  countChoices(c: Conjunction, facts: FactView, count: number, limit = 50): number {
    const seen = new Set<string>();
    for (const a of this.assignments(c, facts, [])) {
      seen.add(a.slice(0, count).join(" "));
      if (seen.size >= limit) break;
    }
    return seen.size;
  }

  /** The satisfying assignments (each a fresh array of objects, one per variable). */
  *assignments(
    c: Conjunction,
    facts: FactView,
    fixed: readonly (string | undefined)[] = [],
  ): Generator<string[]> {
    const n = c.types.length;
    const binding: (string | undefined)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const v = fixed[i];
      if (v === undefined) continue;
      if (!this.fits(facts.typeOf(v), c.types[i])) return;
      binding[i] = v;
    }
    const positive = c.literals.filter((l) => !l.negated);
    const checks = c.literals.filter((l) => l.negated);
    const done = new Array(positive.length).fill(false);
    const fits = (o: string, t: string) => this.fits(facts.typeOf(o), t);
    const objectsOf = (t: string) => this.objectsOf(facts, t);
    const bound = (l: Literal) => l.args.every((a) => binding[a] !== undefined);
    const checksHold = () =>
      checks.every((l) =>
        !bound(l) || !facts.has({ pred: l.pred, args: l.args.map((a) => binding[a]!) })
      );
    const extend = function* (): Generator<string[]> {
      // The positive literal with the most bound arguments narrows the most.
      let pick = -1;
      let best = -1;
      for (let k = 0; k < positive.length; k++) {
        if (done[k]) continue;
        const b = positive[k].args.filter((a) => binding[a] !== undefined).length;
        if (b > best) [pick, best] = [k, b];
      }
      if (pick >= 0) {
        const l = positive[pick];
        done[pick] = true;
        const pattern = l.args.map((a) => binding[a] ?? null);
        for (const atom of facts.query(l.pred, pattern)) {
          const added: number[] = [];
          let ok = true;
          for (let i = 0; i < l.args.length && ok; i++) {
            const v = l.args[i];
            const value = atom.args[i];
            if (binding[v] !== undefined) ok = binding[v] === value;
            else if (typeof value !== "string" || !fits(value, c.types[v])) {
              ok = false;
            } else {
              binding[v] = value;
              added.push(v);
            }
          }
          if (ok && checksHold()) yield* extend();
          for (const v of added) binding[v] = undefined;
        }
        done[pick] = false;
        return;
      }
      const free = binding.findIndex((b, i) => b === undefined && i < n);
      if (free < 0) {
        yield binding.slice() as string[];
        return;
      }
      for (const o of objectsOf(c.types[free])) {
        binding[free] = o;
        if (checksHold()) yield* extend();
      }
      binding[free] = undefined;
    };
    if (!checksHold()) return;
    yield* extend();
  }
}
