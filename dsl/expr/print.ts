/**
 * The canonical text of expressions, and structural equality. Printing uses
 * the fewest parentheses the precedence of `ast.ts` allows, single-quoted
 * strings, and `String(n)` for numbers, so that
 * `parseExpr(printExpr(e))` gives back `e` (spans aside).
 *
 * @module
 */
import type { Domain, Expr } from "./ast.ts";
import { formatLiteral } from "../facts.ts";

/** Binding strength, loosest first; the grammar levels of `ast.ts`. */
const PREC = {
  or: 1,
  and: 2,
  not: 3,
  cmp: 4,
  sum: 5,
  product: 6,
  unary: 7,
  primary: 8,
} as const;

function precedence(e: Expr): number {
  switch (e.kind) {
    case "not":
      return PREC.not;
    case "neg":
      return PREC.unary;
    case "binary":
      return binaryPrecedence(e.op);
    default:
      return PREC.primary;
  }
}

function binaryPrecedence(op: Extract<Expr, { kind: "binary" }>["op"]): number {
  switch (op) {
    case "or":
      return PREC.or;
    case "and":
      return PREC.and;
    case "+":
    case "-":
      return PREC.sum;
    case "*":
    case "/":
      return PREC.product;
    default:
      return PREC.cmp;
  }
}

/**
 * The canonical text of an expression.
 *
 * @param expr The expression.
 * @returns Text that parses back to an equal expression.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { printExpr } from "./print.ts";
 * const r = parseExpr('(a - b) - c == "x"');
 * console.log(r.ok && printExpr(r.value)); // a - b - c == 'x'
 * ```
 */
export function printExpr(expr: Expr): string {
  switch (expr.kind) {
    case "num":
      return String(expr.value);
    case "str":
      return formatLiteral(expr.value);
    case "bool":
      return expr.value ? "true" : "false";
    case "var":
      return expr.name;
    case "list":
      return `[${expr.items.map(printExpr).join(", ")}]`;
    case "call":
      return `${expr.name}(${expr.args.map(printExpr).join(", ")})`;
    case "not":
      return `not ${wrap(expr.arg, precedence(expr.arg) < PREC.not)}`;
    case "neg": {
      const inner = wrap(expr.arg, precedence(expr.arg) < PREC.unary);
      // `- -x` rather than `--x`, which reads like a decrement.
      return inner.startsWith("-") ? `- ${inner}` : `-${inner}`;
    }
    case "binary": {
      const p = binaryPrecedence(expr.op);
      // Left-associative levels keep an equal-precedence left operand bare;
      // comparisons do not associate, so both sides need parentheses.
      const leftNeedsParens = p === PREC.cmp
        ? precedence(expr.left) <= p
        : precedence(expr.left) < p;
      const left = wrap(expr.left, leftNeedsParens);
      const right = wrap(expr.right, precedence(expr.right) <= p);
      return `${left} ${expr.op} ${right}`;
    }
    case "quant":
      return `${expr.op}(${expr.var}${printDomain(expr.domain)}, ${printExpr(expr.body)})`;
    case "distance":
      return `distance(${expr.from}, ${expr.to}: ${expr.type}, ${printExpr(expr.edge)}, ${
        printExpr(expr.source)
      }, ${printExpr(expr.target)})`;
  }
}

function printDomain(domain: Domain): string {
  return domain.kind === "type" ? `: ${domain.type}` : ` in ${printExpr(domain.list)}`;
}

function wrap(e: Expr, parens: boolean): string {
  const text = printExpr(e);
  return parens ? `(${text})` : text;
}

/**
 * Structural equality of two expressions, ignoring spans.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { exprEquals } from "./print.ts";
 * const a = parseExpr("(x + 1)");
 * const b = parseExpr("x+1");
 * console.log(a.ok && b.ok && exprEquals(a.value, b.value)); // true
 * ```
 */
export function exprEquals(a: Expr, b: Expr): boolean {
  switch (a.kind) {
    case "num":
      return b.kind === "num" &&
        (a.value === b.value || (Number.isNaN(a.value) && Number.isNaN(b.value)));
    case "str":
    case "bool":
      return b.kind === a.kind && a.value === b.value;
    case "var":
      return b.kind === "var" && a.name === b.name;
    case "list":
      return b.kind === "list" && allEqual(a.items, b.items);
    case "call":
      return b.kind === "call" && a.name === b.name && allEqual(a.args, b.args);
    case "not":
    case "neg":
      return b.kind === a.kind && exprEquals(a.arg, b.arg);
    case "binary":
      return b.kind === "binary" && a.op === b.op && exprEquals(a.left, b.left) &&
        exprEquals(a.right, b.right);
    case "quant":
      return b.kind === "quant" && a.op === b.op && a.var === b.var &&
        domainEquals(a.domain, b.domain) && exprEquals(a.body, b.body);
    case "distance":
      return b.kind === "distance" && a.from === b.from && a.to === b.to && a.type === b.type &&
        exprEquals(a.edge, b.edge) && exprEquals(a.source, b.source) &&
        exprEquals(a.target, b.target);
  }
}

function domainEquals(a: Domain, b: Domain): boolean {
  if (a.kind === "type") return b.kind === "type" && a.type === b.type;
  return b.kind === "in" && exprEquals(a.list, b.list);
}

function allEqual(a: readonly Expr[], b: readonly Expr[]): boolean {
  return a.length === b.length && a.every((x, i) => exprEquals(x, b[i]));
}

/**
 * A copy of an expression with every span set to `{ start: 0, end: 0 }`, so
 * that expressions can be compared with deep equality or serialised without
 * positions.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { stripSpans } from "./print.ts";
 * const r = parseExpr("x");
 * console.log(r.ok && stripSpans(r.value)); // { kind: "var", name: "x", span: { start: 0, end: 0 } }
 * ```
 */
export function stripSpans(e: Expr): Expr {
  const span = { start: 0, end: 0 };
  switch (e.kind) {
    case "num":
    case "str":
    case "bool":
    case "var":
      return { ...e, span };
    case "list":
      return { kind: "list", items: e.items.map(stripSpans), span };
    case "call":
      return { kind: "call", name: e.name, args: e.args.map(stripSpans), span };
    case "not":
    case "neg":
      return { kind: e.kind, arg: stripSpans(e.arg), span };
    case "binary":
      return {
        kind: "binary",
        op: e.op,
        left: stripSpans(e.left),
        right: stripSpans(e.right),
        span,
      };
    case "quant": {
      const domain: Domain = e.domain.kind === "type"
        ? { kind: "type", type: e.domain.type }
        : { kind: "in", list: stripSpans(e.domain.list) };
      return { kind: "quant", op: e.op, var: e.var, domain, body: stripSpans(e.body), span };
    }
    case "distance":
      return {
        ...e,
        edge: stripSpans(e.edge),
        source: stripSpans(e.source),
        target: stripSpans(e.target),
        span,
      };
  }
}
