/**
 * The type checker: infers an expression's type name against a vocabulary
 * and the types of the variables in scope, collecting every error with the
 * span of the sub-expression that caused it.
 *
 * @module
 */
import type { Expr } from "./ast.ts";
import { type ExprError, exprError } from "./errors.ts";
import { err, ok, type Result } from "../result.ts";
import {
  formatType,
  isAssignable,
  isKnownType,
  isObjectType,
  own,
  parseTypeName,
  type TypeDecl,
  type Vocabulary,
} from "../vocabulary.ts";

/** What the checker knows: the vocabulary and the type of each variable in scope. */
export interface CheckEnv {
  /** Types, predicates and functions. */
  vocab: Vocabulary;
  /** Variable name -> type name, e.g. `{ loc: "Receptacle" }`. */
  vars: Readonly<Record<string, string>>;
}

/**
 * A scope of the walk. `undefined` marks a variable whose type could not be
 * determined (its quantifier's domain was wrong); uses of it are not
 * reported again.
 */
type Scope = ReadonlyMap<string, string | undefined>;

/**
 * Infers the type of an expression: `Bool`, `Num`, `Str`, a vocabulary type
 * or `List<T>`.
 *
 * @param expr The expression.
 * @param env The vocabulary and the variable types.
 * @param source The expression text, for error lines and columns.
 * @returns The type name, or every type error found.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { checkExpr } from "./check.ts";
 * const vocab = {
 *   name: "demo",
 *   types: { Item: { kind: "object" as const } },
 *   predicates: { holds: { params: ["Item"] } },
 *   functions: {},
 *   actions: {},
 * };
 * const r = parseExpr("select_all(x: Item, holds(x))");
 * console.log(r.ok && checkExpr(r.value, { vocab, vars: {} })); // { ok: true, value: "List<Item>" }
 * ```
 */
export function checkExpr(
  expr: Expr,
  env: CheckEnv,
  source = "",
): Result<string, ExprError[]> {
  const checker = new Checker(env.vocab, source);
  const type = checker.infer(expr, new Map(Object.entries(env.vars)));
  if (checker.errors.length > 0) return err(checker.errors);
  // A type is only unknown after an error has been recorded.
  return ok(type ?? "Object");
}

class Checker {
  readonly errors: ExprError[] = [];

  constructor(readonly vocab: Vocabulary, readonly source: string) {}

  report(node: Expr, message: string): undefined {
    this.errors.push(exprError("check", message, node.span, this.source));
    return undefined;
  }

  /** The node's type, or `undefined` when it has an error (already reported). */
  infer(e: Expr, scope: Scope): string | undefined {
    switch (e.kind) {
      case "num":
        return "Num";
      case "str":
        return "Str";
      case "bool":
        return "Bool";
      case "var":
        if (!scope.has(e.name)) return this.report(e, `Unknown variable "${e.name}"`);
        return scope.get(e.name);
      case "list":
        return this.list(e, scope);
      case "call":
        return this.call(e, scope);
      case "not": {
        const t = this.infer(e.arg, scope);
        if (t !== undefined && t !== "Bool") {
          this.report(e.arg, `"not" needs a Bool operand but it is ${t}`);
        }
        return "Bool";
      }
      case "neg": {
        const t = this.infer(e.arg, scope);
        if (t !== undefined && t !== "Num") {
          this.report(e.arg, `Unary "-" needs a Num operand but it is ${t}`);
        }
        return "Num";
      }
      case "binary":
        return this.binary(e, scope);
      case "quant":
        return this.quant(e, scope);
      case "distance":
        return this.distance(e, scope);
    }
  }

  private list(e: Extract<Expr, { kind: "list" }>, scope: Scope): string | undefined {
    if (e.items.length === 0) return "List<Object>";
    let acc: string | undefined;
    let failed = false;
    e.items.forEach((item, i) => {
      const t = this.infer(item, scope);
      if (t === undefined) failed = true;
      else if (acc === undefined) acc = t;
      else {
        const joined = this.join(acc, t);
        if (joined === undefined) {
          failed = true;
          this.report(
            item,
            `List items must have one type: item ${i + 1} is ${t} but earlier items are ${acc}`,
          );
        } else acc = joined;
      }
    });
    return failed || acc === undefined ? undefined : `List<${acc}>`;
  }

  /**
   * The type of a list holding both an `a` and a `b`: the other when one is
   * assignable to it, else their nearest common object ancestor.
   */
  private join(a: string, b: string): string | undefined {
    if (isAssignable(this.vocab, b, a)) return a;
    if (isAssignable(this.vocab, a, b)) return b;
    if (!isObjectType(this.vocab, a) || !isObjectType(this.vocab, b)) return undefined;
    const seen = new Set<string>();
    let cur: string | undefined = a;
    while (cur !== undefined && !seen.has(cur)) {
      if (isAssignable(this.vocab, b, cur)) return cur;
      seen.add(cur);
      const decl: TypeDecl | undefined = own(this.vocab.types, cur);
      cur = decl?.kind === "object" ? (decl.parent ?? "Object") : undefined;
    }
    return "Object";
  }

  private call(e: Extract<Expr, { kind: "call" }>, scope: Scope): string | undefined {
    const argTypes = e.args.map((a) => this.infer(a, scope));
    if (e.name === "len" || e.name === "select_idx") return this.builtin(e, argTypes);
    const pred = own(this.vocab.predicates, e.name);
    const fn = pred ? undefined : own(this.vocab.functions, e.name);
    if (!pred && !fn) return this.report(e, `Unknown predicate "${e.name}"`);
    const params = (pred ?? fn)!.params;
    const what = pred ? "Predicate" : "Function";
    if (params.length !== e.args.length) {
      this.report(
        e,
        `${what} "${e.name}" expects ${plural(params.length)} but got ${e.args.length}`,
      );
    } else {
      argTypes.forEach((t, i) => {
        if (t !== undefined && !isAssignable(this.vocab, t, params[i])) {
          this.report(
            e.args[i],
            `Argument ${i + 1} of "${e.name}" must be ${params[i]} but is ${t}`,
          );
        }
      });
    }
    return pred ? "Bool" : fn!.returns;
  }

  private builtin(
    e: Extract<Expr, { kind: "call" }>,
    argTypes: (string | undefined)[],
  ): string | undefined {
    const arity = e.name === "len" ? 1 : 2;
    if (e.args.length !== arity) {
      return this.report(e, `"${e.name}" expects ${plural(arity)} but got ${e.args.length}`);
    }
    const listType = argTypes[0] === undefined ? undefined : parseTypeName(argTypes[0]);
    let element: string | undefined;
    if (listType?.kind === "list") element = formatType(listType.of);
    else if (argTypes[0] !== undefined) {
      this.report(e.args[0], `Argument 1 of "${e.name}" must be a list but is ${argTypes[0]}`);
    }
    if (e.name === "len") return "Num";
    if (argTypes[1] !== undefined && argTypes[1] !== "Num") {
      this.report(e.args[1], `Argument 2 of "select_idx" must be Num but is ${argTypes[1]}`);
    }
    return element;
  }

  private binary(e: Extract<Expr, { kind: "binary" }>, scope: Scope): string | undefined {
    const left = this.infer(e.left, scope);
    const right = this.infer(e.right, scope);
    switch (e.op) {
      case "and":
      case "or":
        this.operand(e, "Bool", "left", e.left, left);
        this.operand(e, "Bool", "right", e.right, right);
        return "Bool";
      case "==":
      case "!=":
        if (
          left !== undefined && right !== undefined &&
          !isAssignable(this.vocab, left, right) && !isAssignable(this.vocab, right, left)
        ) {
          this.report(e, `"${e.op}" cannot compare ${left} with ${right}`);
        }
        return "Bool";
      case "<":
      case ">":
      case "<=":
      case ">=":
        this.operand(e, "Num", "left", e.left, left);
        this.operand(e, "Num", "right", e.right, right);
        return "Bool";
      default:
        this.operand(e, "Num", "left", e.left, left);
        this.operand(e, "Num", "right", e.right, right);
        return "Num";
    }
  }

  private operand(
    e: Extract<Expr, { kind: "binary" }>,
    want: string,
    side: string,
    node: Expr,
    type: string | undefined,
  ): void {
    if (type !== undefined && type !== want) {
      this.report(node, `"${e.op}" needs ${want} operands but the ${side} one is ${type}`);
    }
  }

  private quant(e: Extract<Expr, { kind: "quant" }>, scope: Scope): string | undefined {
    let bound: string | undefined;
    if (e.domain.kind === "type") {
      const t = e.domain.type;
      if (isObjectType(this.vocab, t)) bound = t;
      else if (isKnownType(this.vocab, t)) {
        this.report(e, `Domain of "${e.op}" must be an object type but "${t}" is not`);
      } else this.report(e, `Unknown type "${t}"`);
    } else {
      const lt = this.infer(e.domain.list, scope);
      const ref = lt === undefined ? undefined : parseTypeName(lt);
      if (ref?.kind === "list") bound = formatType(ref.of);
      else if (lt !== undefined) {
        this.report(e.domain.list, `Domain of "${e.op}" must be a list but is ${lt}`);
      }
    }
    const inner = new Map(scope);
    inner.set(e.var, bound);
    const body = this.infer(e.body, inner);
    if (body !== undefined && body !== "Bool") {
      this.report(e.body, `Body of "${e.op}" must be Bool but is ${body}`);
    }
    switch (e.op) {
      case "exists":
      case "forall":
        return "Bool";
      case "select_one":
        return bound;
      case "select_all":
        return bound === undefined ? undefined : `List<${bound}>`;
    }
  }

  private distance(e: Extract<Expr, { kind: "distance" }>, scope: Scope): string {
    let bound: string | undefined;
    if (isObjectType(this.vocab, e.type)) bound = e.type;
    else if (isKnownType(this.vocab, e.type)) {
      this.report(e, `The nodes of "distance" must be an object type but "${e.type}" is not`);
    } else this.report(e, `Unknown type "${e.type}"`);
    const inner = new Map(scope);
    inner.set(e.from, bound);
    inner.set(e.to, bound);
    const edge = this.infer(e.edge, inner);
    if (edge !== undefined && edge !== "Bool") {
      this.report(e.edge, `The edge condition of "distance" must be Bool but is ${edge}`);
    }
    for (const [end, what] of [[e.source, "start"], [e.target, "end"]] as const) {
      const t = this.infer(end, scope);
      if (t !== undefined && bound !== undefined && !isAssignable(this.vocab, t, bound)) {
        this.report(end, `The ${what} of "distance" must be ${bound} but is ${t}`);
      }
    }
    return "Num";
  }
}

function plural(n: number): string {
  return n === 1 ? "1 argument" : `${n} arguments`;
}
