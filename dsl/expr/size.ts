/**
 * The size of an expression: its number of AST nodes, a quantifier's type
 * domain counting as one. The program-size term of the MDL objective.
 *
 * @module
 */
import { childExprs, type Expr } from "./ast.ts";

/** How {@linkcode exprNodes} counts. */
export interface ExprSizeOptions {
  /**
   * What a quantifier's type domain (`x: Item`) counts: 1 as a node of its
   * own (the MDL size of a program), or 0 where candidates are ranked
   * (synthesized bindings, learned action preconditions), which induction
   * and the action model were tuned with: counting it there changes which
   * TextCraft programs win. @default 1
   */
  typeDomain?: 0 | 1;
}

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
export function exprNodes(e: Expr, options: ExprSizeOptions = {}): number {
  const domain = e.kind === "quant" && e.domain.kind === "type" ? options.typeDomain ?? 1 : 0;
  return childExprs(e).reduce((n, x) => n + exprNodes(x, options), 1 + domain);
}
