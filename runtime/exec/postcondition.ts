/**
 * Postcondition verification (subgoal verification, DESIGN section 7): after
 * a skill call, its docstring's `post` condition, with the call's
 * arguments bound, is evaluated against the facts. A skill that ends in
 * success while its postcondition is false did not achieve its subgoal.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { formatExprError } from "../../dsl/expr/errors.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { substitute } from "../../dsl/expr/vars.ts";
import type { Atom, AtomArg, FactView, Value } from "../../dsl/facts.ts";
import type { Program } from "./program.ts";
import { withValueDomains } from "./value_domains.ts";

/** The verdict on a postcondition. */
export interface PostconditionCheck {
  /** The skill's postcondition as written; absent when the skill declares none. */
  post?: string;
  /** The postcondition with the arguments substituted (what was checked). */
  condition?: string;
  /** Whether it holds; `true` when there is no postcondition. */
  holds: boolean;
  /** Why it could not be evaluated (then `holds` is false). */
  error?: string;
}

const parsed = new WeakMap<Program, Expr | string>();

/** The parsed postcondition of a program, or the parse error text. Cached. */
export function postconditionOf(program: Program): Expr | string | undefined {
  const text = program.skill.doc?.post;
  if (text === undefined) return undefined;
  const cached = parsed.get(program);
  if (cached !== undefined) return cached;
  const r = parseExpr(text);
  const value = r.ok ? r.value : formatExprError(r.error);
  parsed.set(program, value);
  return value;
}

/**
 * Evaluates a skill's postcondition with `args` against `facts`.
 *
 * @param program The skill.
 * @param args The arguments of the call.
 * @param facts The facts after the call (or before it, to skip a satisfied step).
 * @returns The verdict, with the condition text for reports.
 *
 * @example Usage
 * ```ts ignore
 * const check = checkPostcondition(program, { item: "stick" }, facts);
 * if (!check.holds) console.log(`not achieved: ${check.condition}`);
 * ```
 */
export function checkPostcondition(
  program: Program,
  args: Readonly<Record<string, Value>>,
  facts: FactView,
): PostconditionCheck {
  const post = program.skill.doc?.post;
  const expr = postconditionOf(program);
  if (post === undefined || expr === undefined) return { holds: true };
  if (typeof expr === "string") {
    return { post, holds: false, error: `Postcondition of "${program.skill.name}": ${expr}` };
  }
  const condition = printExpr(substitute(expr, args));
  const view = withValueDomains(program.vocab, facts);
  const r = evalExpr(expr, { vocab: view.vocab, facts: view.facts, scope: args, source: post });
  if (!r.ok) return { post, condition, holds: false, error: formatExprError(r.error) };
  return { post, condition, holds: r.value === true };
}

/**
 * The atoms a postcondition asks for when it is a conjunction of predicate
 * atoms over the call's arguments and constants (`on(ob, underob)`), bound;
 * undefined when it says anything else (a negation, a count, a quantifier).
 *
 * @example Usage
 * ```ts ignore
 * postconditionAtoms(program, { ob: "b2", underob: "b1" }); // [{ pred: "on", args: ["b2", "b1"] }]
 * ```
 */
export function postconditionAtoms(
  program: Program,
  args: Readonly<Record<string, Value>>,
): Atom[] | undefined {
  const post = postconditionOf(program);
  if (typeof post !== "object") return undefined;
  const out: Atom[] = [];
  const walk = (e: Expr): boolean => {
    if (e.kind === "binary" && e.op === "and") return walk(e.left) && walk(e.right);
    if (e.kind !== "call" || !(e.name in program.vocab.predicates)) return false;
    const values: AtomArg[] = [];
    for (const a of e.args) {
      if (a.kind === "var" && typeof args[a.name] === "string") values.push(args[a.name] as string);
      else if (a.kind === "str") values.push(a.value);
      else return false;
    }
    out.push({ pred: e.name, args: values });
    return true;
  };
  return walk(post) ? out : undefined;
}
