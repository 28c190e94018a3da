/**
 * The abstract syntax of the first-order expression language (a tagged
 * union). Every node carries its source span so that type and evaluation
 * errors can point at the text that caused them.
 *
 * Text syntax, loosest binding first:
 *
 * ```
 * expr    := or
 * or      := and ("or" and)*
 * and     := not ("and" not)*
 * not     := "not" not | cmp
 * cmp     := sum (("<" | ">" | "<=" | ">=" | "==" | "!=") sum)?
 * sum     := product (("+" | "-") product)*
 * product := unary (("*" | "/") unary)*
 * unary   := "-" unary | primary
 * primary := NUMBER | STRING | "true" | "false" | IDENT
 *          | IDENT "(" args ")"                          predicate, function or builtin call
 *          | QUANT "(" IDENT ":" TYPE "," expr ")"        QUANT = exists | forall | select_one | select_all
 *          | QUANT "(" IDENT "in" expr "," expr ")"       quantify over a list
 *          | "distance" "(" IDENT "," IDENT ":" TYPE "," expr "," expr "," expr ")"
 *                                                         shortest path length (edge, from, to)
 *          | "[" (expr ("," expr)*)? "]"                  list literal
 *          | "(" expr ")"
 * ```
 *
 * Strings are single- or double-quoted with backslash escapes; the printer
 * always uses single quotes. Builtins: `select_idx(list, n)` (0-based) and
 * `len(list)`.
 *
 * @module
 */

/** A half-open character range `[start, end)` in the source text. */
export interface Span {
  start: number;
  end: number;
}

/** Binary operators. */
export type BinaryOp =
  | "and"
  | "or"
  | "<"
  | ">"
  | "<="
  | ">="
  | "=="
  | "!="
  | "+"
  | "-"
  | "*"
  | "/";

/** Quantifiers and binding operators that introduce a bound variable. */
export type QuantOp = "exists" | "forall" | "select_one" | "select_all";

/** The domain a quantifier ranges over: all known objects of a type, or a list. */
export type Domain =
  | { kind: "type"; type: string }
  | { kind: "in"; list: Expr };

/** An expression node. */
export type Expr =
  | { kind: "num"; value: number; span: Span }
  | { kind: "str"; value: string; span: Span }
  | { kind: "bool"; value: boolean; span: Span }
  | { kind: "var"; name: string; span: Span }
  | { kind: "list"; items: Expr[]; span: Span }
  | { kind: "call"; name: string; args: Expr[]; span: Span }
  | { kind: "not"; arg: Expr; span: Span }
  | { kind: "neg"; arg: Expr; span: Span }
  | { kind: "binary"; op: BinaryOp; left: Expr; right: Expr; span: Span }
  | { kind: "quant"; op: QuantOp; var: string; domain: Domain; body: Expr; span: Span }
  /**
   * `distance(u, v: T, edge, a, b)`: the number of steps of a shortest
   * path from `a` to `b` where a step goes from `u` to `v` when `edge`
   * holds of them; 0 when `a` is `b`, and the number of objects of `T`
   * (more than any path) when no path leads there.
   */
  | {
    kind: "distance";
    from: string;
    to: string;
    type: string;
    edge: Expr;
    source: Expr;
    target: Expr;
    span: Span;
  };

/** Names that are builtin calls rather than vocabulary predicates or functions. */
export const BUILTIN_CALLS = ["select_idx", "len"] as const;

/** Reserved words that cannot name variables. */
export const KEYWORDS = [
  "and",
  "or",
  "not",
  "true",
  "false",
  "in",
  "exists",
  "forall",
  "select_one",
  "select_all",
  "distance",
] as const;

/**
 * The direct subexpressions of an expression, in source order.
 *
 * @example Usage
 * ```ts
 * import { childExprs } from "./ast.ts";
 * import { parseExpr } from "./parse.ts";
 * const e = parseExpr("a and not b");
 * if (e.ok) console.log(childExprs(e.value).map((c) => c.kind)); // [ "var", "not" ]
 * ```
 */
export function childExprs(e: Expr): Expr[] {
  switch (e.kind) {
    case "list":
      return e.items;
    case "call":
      return e.args;
    case "not":
    case "neg":
      return [e.arg];
    case "binary":
      return [e.left, e.right];
    case "quant":
      return e.domain.kind === "in" ? [e.domain.list, e.body] : [e.body];
    case "distance":
      return [e.edge, e.source, e.target];
    default:
      return [];
  }
}

/**
 * The names of every call in an expression (predicates, functions and
 * built-ins alike).
 *
 * @example Usage
 * ```ts
 * import { callNames } from "./ast.ts";
 * import { parseExpr } from "./parse.ts";
 * const e = parseExpr("not exists(y: block, on(y, x))");
 * if (e.ok) console.log([...callNames(e.value)]); // [ "on" ]
 * ```
 */
export function callNames(e: Expr): Set<string> {
  const out = new Set<string>();
  const visit = (x: Expr): void => {
    if (x.kind === "call") out.add(x.name);
    childExprs(x).forEach(visit);
  };
  visit(e);
  return out;
}
