/**
 * Conditions beyond a conjunction of literals (`or`, `imply`, `exists`,
 * `forall` in a precondition), ground for one binding of an action's
 * parameters: quantifiers become conjunctions and disjunctions over the
 * objects of their type, literals whose truth is known are folded, and what
 * is left is a disjunction of conjunctions of literals. The world asks it
 * with every fact known (it holds when a conjunction is left); the planner
 * with only the facts no action changes known, and makes each conjunction
 * left a ground action of its own.
 *
 * @module
 */
import { EQUALITY, type PddlFormula } from "./parse.ts";
import { type Fact, groundAtom } from "./atom.ts";

/** A ground literal of a condition. */
export interface GroundLiteral {
  fact: Fact;
  negated: boolean;
}

/** How many conjunctions a ground condition may have before it is refused. */
export const MAX_ALTERNATIVES = 512;

/**
 * The ground condition `formulas` (all must hold) as conjunctions of
 * literals, one of which must hold: `[]` when it can never hold, `[[]]`
 * when it always does.
 *
 * @param known A fact's truth where known (`undefined`: it may change).
 * @throws {RangeError} When more than {@linkcode MAX_ALTERNATIVES} conjunctions remain.
 *
 * @example Usage
 * ```ts
 * import { groundCondition } from "./condition.ts";
 * const clear = { op: "forall" as const, vars: [{ name: "?y", type: "block" }], body: {
 *   op: "not" as const,
 *   item: { op: "literal" as const, literal: { pred: "on", args: ["?y", "?x"], negated: false } },
 * } };
 * const state = new Set(["on b2 b1"]);
 * const alternatives = groundCondition([clear], new Map([["?x", "b1"]]), () => ["b1", "b2"], (f) => state.has(f));
 * console.log(alternatives); // []: b2 is on b1
 * ```
 */
export function groundCondition(
  formulas: readonly PddlFormula[],
  binding: ReadonlyMap<string, string>,
  objectsOf: (type: string) => readonly string[],
  known: (fact: Fact) => boolean | undefined,
): GroundLiteral[][] {
  const scope = new Map(binding);
  const ground = (f: PddlFormula, negated: boolean): GroundLiteral[][] => {
    switch (f.op) {
      case "literal": {
        const l = f.literal;
        const flip = l.negated !== negated;
        if (l.pred === EQUALITY) {
          const [a, b] = l.args.map((x) => scope.get(x) ?? x);
          return (a === b) !== flip ? TRUE : FALSE;
        }
        const fact = groundAtom(l, scope);
        const value = known(fact);
        if (value === undefined) return [[{ fact, negated: flip }]];
        return value !== flip ? TRUE : FALSE;
      }
      case "not":
        return ground(f.item, !negated);
      case "and":
      case "or":
        return combine((f.op === "and") !== negated, f.items.map((x) => () => ground(x, negated)));
      default: {
        // One part per assignment of the variables to objects, bound while the part is ground.
        const withVars = (assign: [string, string][]) => () => {
          const before = assign.map(([name]) => [name, scope.get(name)] as const);
          for (const [name, o] of assign) scope.set(name, o);
          try {
            return ground(f.body, negated);
          } finally {
            for (const [name, o] of before) {
              o === undefined ? scope.delete(name) : scope.set(name, o);
            }
          }
        };
        let assignments: [string, string][][] = [[]];
        for (const v of f.vars) {
          assignments = assignments.flatMap((a) =>
            objectsOf(v.type).map((o): [string, string][] => [...a, [v.name, o]])
          );
        }
        return combine(
          (f.op === "forall") !== negated,
          assignments.map((a) => withVars(a)),
        );
      }
    }
  };
  return combine(true, formulas.map((f) => () => ground(f, false)));
}

const TRUE: GroundLiteral[][] = [[]];
const FALSE: GroundLiteral[][] = [];

/**
 * A conjunction (`all`) or disjunction of parts in disjunctive normal form,
 * each part computed only while the result is still open.
 */
function combine(all: boolean, parts: readonly (() => GroundLiteral[][])[]): GroundLiteral[][] {
  if (!all) {
    const out: GroundLiteral[][] = [];
    for (const part of parts) {
      const alternatives = part();
      if (alternatives.some((c) => c.length === 0)) return TRUE;
      out.push(...alternatives);
      if (out.length > MAX_ALTERNATIVES) throw tooMany();
    }
    return out;
  }
  let out: GroundLiteral[][] = TRUE;
  for (const part of parts) {
    const alternatives = part();
    if (alternatives.length === 0) return FALSE;
    const product: GroundLiteral[][] = [];
    for (const a of out) {
      for (const b of alternatives) {
        const merged = conjoin(a, b);
        if (merged) product.push(merged);
        if (product.length > MAX_ALTERNATIVES) throw tooMany();
      }
    }
    if (product.length === 0) return FALSE;
    out = product;
  }
  return out;
}

/** Two conjunctions as one (`undefined` when they contradict each other). */
function conjoin(a: GroundLiteral[], b: GroundLiteral[]): GroundLiteral[] | undefined {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = [...a];
  for (const l of b) {
    const same = out.find((x) => x.fact === l.fact);
    if (!same) out.push(l);
    else if (same.negated !== l.negated) return undefined;
  }
  return out;
}

function tooMany(): RangeError {
  return new RangeError(
    `a condition has more than ${MAX_ALTERNATIVES} alternatives once ground`,
  );
}
