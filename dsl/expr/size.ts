/**
 * The size of an expression: its number of AST nodes, a quantifier's type
 * domain counting as one. The program-size term of the MDL objective.
 *
 * @module
 */
import { childExprs, type Expr } from "./ast.ts";

/**
 * Number of AST nodes of an expression.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { exprNodes } from "./size.ts";
 * const e = parseExpr("exists(x: Item, holds(x))");
 * if (e.ok) console.log(exprNodes(e.value)); // 4
 * ```
 */
export function exprNodes(e: Expr): number {
  // A quantifier's type domain is a node of its own.
  const domain = e.kind === "quant" && e.domain.kind === "type" ? 1 : 0;
  return childExprs(e).reduce((n, x) => n + exprNodes(x), 1 + domain);
}
