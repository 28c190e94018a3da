/**
 * Small helpers of the synthesizers: building expression nodes without
 * source text, measuring them (AST nodes, constants), and picking variable
 * names that do not clash.
 *
 * @module
 */
import { exprNodes } from "../dsl/expr/size.ts";
import type { BinaryOp, Expr, Span } from "../dsl/expr/ast.ts";
import type { AtomArg, Value } from "../dsl/facts.ts";

/** Synthesized nodes have no source text. */
const NO_SPAN: Span = { start: 0, end: 0 };

/** A variable node. */
export function varNode(name: string): Expr {
  return { kind: "var", name, span: NO_SPAN };
}

/** A string or number literal node (negative numbers as `neg`, as the parser reads them). */
export function constNode(value: AtomArg): Expr {
  if (typeof value === "string") return { kind: "str", value, span: NO_SPAN };
  if (value < 0) {
    return { kind: "neg", arg: { kind: "num", value: -value, span: NO_SPAN }, span: NO_SPAN };
  }
  return { kind: "num", value: value === 0 ? 0 : value, span: NO_SPAN };
}

/** A predicate or function call node. */
export function callNode(name: string, args: Expr[]): Expr {
  return { kind: "call", name, args, span: NO_SPAN };
}

/** `not arg`. */
export function notNode(arg: Expr): Expr {
  return { kind: "not", arg, span: NO_SPAN };
}

/** A binary node. */
export function binNode(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, left, right, span: NO_SPAN };
}

/** A quantifier over all known objects of a type. */
export function quantNode(
  op: "exists" | "select_one" | "select_all",
  name: string,
  type: string,
  body: Expr,
): Expr {
  return { kind: "quant", op, var: name, domain: { kind: "type", type }, body, span: NO_SPAN };
}

/** The left-nested conjunction of one or more expressions (`true` for none). */
export function conjunction(parts: readonly Expr[]): Expr {
  if (parts.length === 0) return { kind: "bool", value: true, span: NO_SPAN };
  return parts.slice(1).reduce((acc, p) => binNode("and", acc, p), parts[0]);
}

/** Number of AST nodes, type domains not counted: how synthesis ranks candidates (see `exprNodes`). */
export function exprSize(e: Expr): number {
  return exprNodes(e, { typeDomain: 0 });
}

/** Number of string and number literals in an expression. */
export function constantCount(e: Expr): number {
  switch (e.kind) {
    case "num":
    case "str":
      return 1;
    case "bool":
    case "var":
      return 0;
    case "list":
      return sum(e.items.map(constantCount));
    case "call":
      return sum(e.args.map(constantCount));
    case "not":
    case "neg":
      return constantCount(e.arg);
    case "binary":
      return constantCount(e.left) + constantCount(e.right);
    case "quant":
      return (e.domain.kind === "in" ? constantCount(e.domain.list) : 0) + constantCount(e.body);
    case "distance":
      return constantCount(e.edge) + constantCount(e.source) + constantCount(e.target);
  }
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Preferred names for bound variables, in order. */
const BOUND_NAMES = ["x", "y", "z", "w", "v", "u"];

/**
 * The first bound-variable name not in `taken`: `x`, `y`, `z`, ... then
 * `x1`, `x2`, ...
 */
export function pickName(taken: ReadonlySet<string>): string {
  for (const n of BOUND_NAMES) if (!taken.has(n)) return n;
  for (let i = 1;; i++) if (!taken.has(`x${i}`)) return `x${i}`;
}

/** Whether a value can appear as an atom argument (a string or a number). */
export function isAtomArg(v: Value): v is AtomArg {
  return typeof v === "string" || typeof v === "number";
}
