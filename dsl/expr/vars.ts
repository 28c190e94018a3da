/**
 * Variables of expressions: which free variables an expression reads, and
 * substituting values for them (to print diagnoses such as
 * `not exists(x: Item, contains('fridge 1', x))`).
 *
 * @module
 */
import type { Domain, Expr, Span } from "./ast.ts";
import type { Value } from "../facts.ts";

/**
 * The variables an expression reads, excluding those bound by a quantifier
 * inside it. A quantifier's `in` list is outside its binding.
 *
 * @param expr The expression.
 * @returns The free variable names, in first-occurrence order.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { freeVars } from "./vars.ts";
 * const r = parseExpr("select_one(x: Item, contains(loc, x))");
 * console.log(r.ok && [...freeVars(r.value)]); // ["loc"]
 * ```
 */
export function freeVars(expr: Expr): Set<string> {
  const out = new Set<string>();
  collect(expr, new Set(), out);
  return out;
}

function collect(e: Expr, bound: ReadonlySet<string>, out: Set<string>): void {
  switch (e.kind) {
    case "num":
    case "str":
    case "bool":
      return;
    case "var":
      if (!bound.has(e.name)) out.add(e.name);
      return;
    case "list":
      for (const item of e.items) collect(item, bound, out);
      return;
    case "call":
      for (const arg of e.args) collect(arg, bound, out);
      return;
    case "not":
    case "neg":
      collect(e.arg, bound, out);
      return;
    case "binary":
      collect(e.left, bound, out);
      collect(e.right, bound, out);
      return;
    case "quant":
      if (e.domain.kind === "in") collect(e.domain.list, bound, out);
      collect(e.body, new Set([...bound, e.var]), out);
      return;
    case "distance":
      collect(e.edge, new Set([...bound, e.from, e.to]), out);
      collect(e.source, bound, out);
      collect(e.target, bound, out);
      return;
  }
}

/**
 * The literal expression of a value: strings, numbers (a negative number
 * becomes `neg` of its magnitude, as the parser reads `-3`), booleans, and
 * lists of literals.
 *
 * @param value The value.
 * @param span The span to give every produced node.
 *
 * @example Usage
 * ```ts
 * import { literalExpr } from "./vars.ts";
 * console.log(literalExpr(-3).kind); // neg
 * ```
 */
export function literalExpr(value: Value, span: Span = { start: 0, end: 0 }): Expr {
  if (typeof value === "string") return { kind: "str", value, span };
  if (typeof value === "boolean") return { kind: "bool", value, span };
  if (Array.isArray(value)) {
    return { kind: "list", items: value.map((v) => literalExpr(v, span)), span };
  }
  if (value < 0) return { kind: "neg", arg: { kind: "num", value: -value, span }, span };
  // -0 prints as "0", so it is read back as 0; normalise it here.
  return { kind: "num", value: value === 0 ? 0 : value, span };
}

/**
 * Replaces the free variables named in `values` by literal nodes (see
 * {@linkcode literalExpr}); variables bound by a quantifier are left alone.
 * Replacement nodes keep the span of the variable they replace.
 *
 * @param expr The expression.
 * @param values Values of variables to replace; others stay variables.
 * @returns A new expression.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { printExpr } from "./print.ts";
 * import { substitute } from "./vars.ts";
 * const r = parseExpr("not exists(x: Item, contains(loc, x))");
 * console.log(r.ok && printExpr(substitute(r.value, { loc: "fridge 1" })));
 * // not exists(x: Item, contains('fridge 1', x))
 * ```
 */
export function substitute(expr: Expr, values: Readonly<Record<string, Value>>): Expr {
  return subst(expr, new Map(Object.entries(values)));
}

function subst(e: Expr, values: ReadonlyMap<string, Value>): Expr {
  switch (e.kind) {
    case "num":
    case "str":
    case "bool":
      return e;
    case "var": {
      const v = values.get(e.name);
      return v === undefined ? e : literalExpr(v, e.span);
    }
    case "list":
      return { ...e, items: e.items.map((item) => subst(item, values)) };
    case "call":
      return { ...e, args: e.args.map((arg) => subst(arg, values)) };
    case "not":
    case "neg":
      return { ...e, arg: subst(e.arg, values) };
    case "binary":
      return { ...e, left: subst(e.left, values), right: subst(e.right, values) };
    case "quant": {
      const domain: Domain = e.domain.kind === "in"
        ? { kind: "in", list: subst(e.domain.list, values) }
        : e.domain;
      let inner = values;
      if (values.has(e.var)) {
        // The bound variable shadows an outer one of the same name.
        const copy = new Map(values);
        copy.delete(e.var);
        inner = copy;
      }
      return { ...e, domain, body: subst(e.body, inner) };
    }
    case "distance": {
      const inner = new Map(values);
      inner.delete(e.from);
      inner.delete(e.to);
      return {
        ...e,
        edge: subst(e.edge, inner),
        source: subst(e.source, values),
        target: subst(e.target, values),
      };
    }
  }
}

/**
 * Renames free variables (bound ones are left alone), e.g. to rebind a
 * transplanted condition to another skill's variable.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { printExpr } from "./print.ts";
 * import { renameVars } from "./vars.ts";
 * const e = parseExpr("is_closed(r) and exists(r: Item, holds(r))");
 * if (e.ok) console.log(printExpr(renameVars(e.value, { r: "target" })));
 * // is_closed(target) and exists(r: Item, holds(r))
 * ```
 */
export function renameVars(expr: Expr, renames: Readonly<Record<string, string>>): Expr {
  const walk = (x: Expr, bound: ReadonlySet<string>): Expr => {
    switch (x.kind) {
      case "var":
        return !bound.has(x.name) && Object.hasOwn(renames, x.name)
          ? { ...x, name: renames[x.name] }
          : x;
      case "list":
        return { ...x, items: x.items.map((i) => walk(i, bound)) };
      case "call":
        return { ...x, args: x.args.map((i) => walk(i, bound)) };
      case "not":
      case "neg":
        return { ...x, arg: walk(x.arg, bound) };
      case "binary":
        return { ...x, left: walk(x.left, bound), right: walk(x.right, bound) };
      case "quant": {
        const domain = x.domain.kind === "in"
          ? { kind: "in" as const, list: walk(x.domain.list, bound) }
          : x.domain;
        return { ...x, domain, body: walk(x.body, new Set([...bound, x.var])) };
      }
      case "distance":
        return {
          ...x,
          edge: walk(x.edge, new Set([...bound, x.from, x.to])),
          source: walk(x.source, bound),
          target: walk(x.target, bound),
        };
      default:
        return x;
    }
  };
  return walk(expr, new Set());
}
