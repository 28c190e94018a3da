/**
 * A recursive-descent parser for the expression syntax documented in
 * `ast.ts`. It is strict: only the documented grammar is accepted, and
 * comparisons do not chain.
 *
 * @module
 */
import type { BinaryOp, Expr, QuantOp, Span } from "./ast.ts";
import { childExprs, KEYWORDS } from "./ast.ts";
import { type ExprError, exprError } from "./errors.ts";
import { describeToken, type Token, tokenize } from "./lexer.ts";
import { err, ok, type Result } from "../result.ts";

const QUANTS: readonly string[] = ["exists", "forall", "select_one", "select_all"];
const COMPARISONS: readonly string[] = ["<", ">", "<=", ">=", "==", "!="];
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

/**
 * Parses expression text into an {@linkcode Expr}.
 *
 * @param source The expression text; may span several lines.
 * @returns The expression, or the first parse error with its line and column.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * const r = parseExpr("select_one(x: Item, is_type(x, 'apple') and contains(loc, x))");
 * console.log(r.ok && r.value.kind); // quant
 * ```
 *
 * @example A parse error
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * const r = parseExpr("a(b))");
 * console.log(!r.ok && `${r.error.message} at ${r.error.line}:${r.error.column}`); // Unexpected ")" at 1:5
 * ```
 */
export function parseExpr(source: string): Result<Expr, ExprError> {
  const tokens = tokenize(source);
  if (!tokens.ok) return tokens;
  const parser = new Parser(tokens.value, source);
  try {
    const expr = parser.expr();
    const rest = parser.peek();
    if (rest.kind !== "eof") parser.fail(`Unexpected ${describeToken(rest)}`, rest.span);
    const deep = deepestBeyond(expr, MAX_EXPR_DEPTH);
    if (deep) {
      parser.fail(
        `Expression nested too deeply: more than ${MAX_EXPR_DEPTH} levels (a chain of operators counts one level per operator)`,
        deep.span,
      );
    }
    return ok(expr);
  } catch (e) {
    if (e instanceof ParseFailure) return err(e.error);
    throw e;
  }
}

/**
 * Thrown inside the parser to unwind the recursion at the first error; it
 * never escapes {@linkcode parseExpr}, which turns it into a `Result`.
 */
class ParseFailure extends Error {
  constructor(readonly error: ExprError) {
    super(error.message);
  }
}

/**
 * Deepest expression tree accepted. Everything that walks a tree (checker,
 * printer, evaluator) recurses once per level; the limit keeps them far from
 * the stack's end, and no written expression comes near it.
 */
export const MAX_EXPR_DEPTH = 256;

/** A node deeper than `limit` in the tree (iteratively: the tree may be deep). */
function deepestBeyond(root: Expr, limit: number): Expr | undefined {
  const stack: [Expr, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [e, depth] = stack.pop()!;
    if (depth > limit) return e;
    for (const child of childExprs(e)) stack.push([child, depth + 1]);
  }
  return undefined;
}

class Parser {
  #pos = 0;
  /** Productions entered and not left: bounds the parser's own recursion. */
  #depth = 0;

  constructor(readonly tokens: readonly Token[], readonly source: string) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.#pos + offset, this.tokens.length - 1)];
  }

  fail(message: string, span: Span): never {
    throw new ParseFailure(exprError("parse", message, span, this.source));
  }

  expr(): Expr {
    return this.nested(() => this.or());
  }

  /** Runs a production that may recurse, failing past {@linkcode MAX_EXPR_DEPTH} levels. */
  private nested(parse: () => Expr): Expr {
    if (++this.#depth > MAX_EXPR_DEPTH) {
      this.fail(
        `Expression nested too deeply: more than ${MAX_EXPR_DEPTH} levels`,
        this.peek().span,
      );
    }
    try {
      return parse();
    } finally {
      this.#depth--;
    }
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.#pos++;
    return t;
  }

  private isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "ident" && t.text === word;
  }

  private isOp(op: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "op" && t.text === op;
  }

  /** Consumes the operator `op`, or fails naming what was expected instead. */
  private expectOp(op: string, expected = `"${op}"`): Token {
    if (!this.isOp(op)) this.unexpected(expected);
    return this.next();
  }

  private unexpected(expected: string): never {
    const t = this.peek();
    return this.fail(`Expected ${expected} but found ${describeToken(t)}`, t.span);
  }

  private or(): Expr {
    let left = this.and();
    while (this.isWord("or")) {
      this.next();
      left = binary("or", left, this.and());
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.isWord("and")) {
      this.next();
      left = binary("and", left, this.not());
    }
    return left;
  }

  private not(): Expr {
    if (!this.isWord("not")) return this.cmp();
    const start = this.next().span.start;
    const arg = this.nested(() => this.not());
    return { kind: "not", arg, span: { start, end: arg.span.end } };
  }

  private cmp(): Expr {
    const left = this.sum();
    const t = this.peek();
    if (t.kind !== "op" || !COMPARISONS.includes(t.text)) return left;
    this.next();
    const node = binary(t.text as BinaryOp, left, this.sum());
    const again = this.peek();
    if (again.kind === "op" && COMPARISONS.includes(again.text)) {
      this.fail(
        `Unexpected "${again.text}": comparisons cannot be chained, add parentheses`,
        again.span,
      );
    }
    return node;
  }

  private sum(): Expr {
    let left = this.product();
    while (this.isOp("+") || this.isOp("-")) {
      const op = this.next().text as BinaryOp;
      left = binary(op, left, this.product());
    }
    return left;
  }

  private product(): Expr {
    let left = this.unary();
    while (this.isOp("*") || this.isOp("/")) {
      const op = this.next().text as BinaryOp;
      left = binary(op, left, this.unary());
    }
    return left;
  }

  private unary(): Expr {
    if (!this.isOp("-")) return this.primary();
    const start = this.next().span.start;
    const arg = this.nested(() => this.unary());
    return { kind: "neg", arg, span: { start, end: arg.span.end } };
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case "num":
        this.next();
        return { kind: "num", value: t.value as number, span: t.span };
      case "str":
        this.next();
        return { kind: "str", value: t.value as string, span: t.span };
      case "ident":
        return this.word(t);
      case "op":
        if (t.text === "[") return this.list();
        if (t.text === "(") {
          this.next();
          const inner = this.expr();
          const close = this.expectOp(")");
          // Widen the span over the parentheses so that an enclosing node's
          // span (from its first to its last child) covers its whole text.
          return { ...inner, span: { start: t.span.start, end: close.span.end } };
        }
        break;
    }
    return this.fail(`Unexpected ${describeToken(t)}`, t.span);
  }

  /** A list literal `[a, b, ...]`. */
  private list(): Expr {
    const start = this.next().span.start;
    const items: Expr[] = [];
    if (!this.isOp("]")) {
      items.push(this.expr());
      while (this.isOp(",")) {
        this.next();
        items.push(this.expr());
      }
    }
    const close = this.expectOp("]", items.length === 0 ? '"]"' : '"," or "]"');
    return { kind: "list", items, span: { start, end: close.span.end } };
  }

  /** An identifier in primary position: literal, quantifier, call or variable. */
  private word(t: Token): Expr {
    if (t.text === "true" || t.text === "false") {
      this.next();
      return { kind: "bool", value: t.text === "true", span: t.span };
    }
    if (QUANTS.includes(t.text)) return this.quant();
    if (t.text === "distance") return this.distance();
    if (KEYWORD_SET.has(t.text)) this.fail(`Unexpected "${t.text}"`, t.span);
    this.next();
    if (!this.isOp("(")) return { kind: "var", name: t.text, span: t.span };
    this.next();
    const args: Expr[] = [];
    if (!this.isOp(")")) {
      args.push(this.expr());
      while (this.isOp(",")) {
        this.next();
        args.push(this.expr());
      }
    }
    const close = this.expectOp(")", args.length === 0 ? '")"' : '"," or ")"');
    return { kind: "call", name: t.text, args, span: { start: t.span.start, end: close.span.end } };
  }

  private quant(): Expr {
    const head = this.next();
    this.expectOp("(");
    const name = this.peek();
    if (name.kind !== "ident" || KEYWORD_SET.has(name.text)) this.unexpected("a variable name");
    this.next();
    let domain: Extract<Expr, { kind: "quant" }>["domain"];
    if (this.isOp(":")) {
      this.next();
      domain = { kind: "type", type: this.typeName() };
    } else if (this.isWord("in")) {
      this.next();
      domain = { kind: "in", list: this.expr() };
    } else {
      return this.unexpected('":" or "in"');
    }
    this.expectOp(",");
    const body = this.expr();
    const close = this.expectOp(")");
    return {
      kind: "quant",
      op: head.text as QuantOp,
      var: name.text,
      domain,
      body,
      span: { start: head.span.start, end: close.span.end },
    };
  }

  /** `distance(u, v: T, edge, a, b)`. */
  private distance(): Expr {
    const head = this.next();
    this.expectOp("(");
    const vars: string[] = [];
    for (const sep of [",", ":"]) {
      const name = this.peek();
      if (name.kind !== "ident" || KEYWORD_SET.has(name.text)) this.unexpected("a variable name");
      this.next();
      vars.push(name.text);
      this.expectOp(sep);
    }
    const type = this.typeName();
    this.expectOp(",");
    const edge = this.expr();
    this.expectOp(",");
    const source = this.expr();
    this.expectOp(",");
    const target = this.expr();
    const close = this.expectOp(")");
    return {
      kind: "distance",
      from: vars[0],
      to: vars[1],
      type,
      edge,
      source,
      target,
      span: { start: head.span.start, end: close.span.end },
    };
  }

  /** A type name: an identifier, or `List<T>` (written canonically). */
  private typeName(): string {
    const t = this.peek();
    if (t.kind !== "ident" || KEYWORD_SET.has(t.text)) this.unexpected("a type name");
    this.next();
    if (t.text !== "List" || !this.isOp("<")) return t.text;
    this.next();
    const inner = this.typeName();
    this.expectOp(">");
    return `List<${inner}>`;
  }
}

function binary(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, left, right, span: { start: left.span.start, end: right.span.end } };
}
