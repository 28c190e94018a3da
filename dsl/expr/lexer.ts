/**
 * The tokenizer of the expression language. Internal to the parser: tokens
 * carry spans so that parse errors can point at the offending text.
 *
 * @module
 */
import type { Span } from "./ast.ts";
import { type ExprError, exprError } from "./errors.ts";
import { err, ok, type Result } from "../result.ts";

/** The kinds of token. Keywords are `ident` tokens; the parser tells them apart. */
export type TokenKind = "num" | "str" | "ident" | "op" | "eof";

/** A token with its source span. */
export interface Token {
  /** What kind of token this is. */
  kind: TokenKind;
  /** The source text of the token (`""` at end of input). */
  text: string;
  /** The decoded value: the number of a `num`, the unescaped text of a `str`. */
  value?: number | string;
  /** Where the token is in the source. */
  span: Span;
}

/** Operators and punctuation, longest first so `<=` wins over `<`. */
const OPERATORS = [
  "<=",
  ">=",
  "==",
  "!=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "(",
  ")",
  "[",
  "]",
  ",",
  ":",
] as const;

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
// Exponents are accepted (beyond plain integers and decimals) because the
// printer writes numbers with String(n), which uses them for very large or
// very small magnitudes; without them printing would not round-trip.
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const SPACE = /\s+/y;

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0" };

/**
 * Splits expression text into tokens, ending with one `eof` token.
 *
 * @param source The expression text.
 * @returns The tokens, or a parse error for an unterminated string or a stray character.
 *
 * @example Usage
 * ```ts
 * import { tokenize } from "./lexer.ts";
 * const r = tokenize("count(x) >= 2");
 * console.log(r.ok && r.value.map((t) => t.text).join(" ")); // count ( x ) >= 2
 * ```
 */
export function tokenize(source: string): Result<Token[], ExprError> {
  const tokens: Token[] = [];
  let pos = 0;
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = pos;
    const m = re.exec(source);
    return m ? m[0] : undefined;
  };
  while (pos < source.length) {
    const space = match(SPACE);
    if (space) {
      pos += space.length;
      continue;
    }
    const ch = source[pos];
    if (ch === "'" || ch === '"') {
      const str = readString(source, pos);
      if (!str.ok) return str;
      tokens.push(str.value);
      pos = str.value.span.end;
      continue;
    }
    const num = match(NUMBER);
    if (num) {
      const value = Number(num);
      if (!Number.isFinite(value)) {
        return err(
          exprError(
            "parse",
            `Number ${num} is too large to represent`,
            span(pos, num.length),
            source,
          ),
        );
      }
      tokens.push({ kind: "num", text: num, value, span: span(pos, num.length) });
      pos += num.length;
      continue;
    }
    const ident = match(IDENT);
    if (ident) {
      tokens.push({ kind: "ident", text: ident, span: span(pos, ident.length) });
      pos += ident.length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, pos));
    if (op) {
      tokens.push({ kind: "op", text: op, span: span(pos, op.length) });
      pos += op.length;
      continue;
    }
    const hint = ch === "=" ? ' (use "==" to compare)' : "";
    return err(
      exprError("parse", `Unexpected character "${ch}"${hint}`, span(pos, 1), source),
    );
  }
  tokens.push({ kind: "eof", text: "", span: { start: source.length, end: source.length } });
  return ok(tokens);
}

/** Reads a quoted string starting at `start` (the opening quote). */
function readString(source: string, start: number): Result<Token, ExprError> {
  const quote = source[start];
  let value = "";
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === quote) {
      const end = i + 1;
      return ok({ kind: "str", text: source.slice(start, end), value, span: { start, end } });
    }
    if (c === "\\") {
      if (i + 1 >= source.length) break;
      const next = source[i + 1];
      // Unknown escapes stand for the character itself (`\'`, `\"`, `\\`, ...).
      value += ESCAPES[next] ?? next;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  return err(exprError("parse", "Unterminated string", span(start, 1), source));
}

function span(start: number, length: number): Span {
  return { start, end: start + length };
}

/**
 * How a token is named in an error message: `")"`, `string 'a'`,
 * `number 3`, or `end of input`.
 *
 * @example Usage
 * ```ts
 * import { describeToken } from "./lexer.ts";
 * console.log(describeToken({ kind: "op", text: ")", span: { start: 0, end: 1 } })); // ")"
 * ```
 */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of input";
    case "str":
      return `string ${token.text}`;
    case "num":
      return `number ${token.text}`;
    default:
      return `"${token.text}"`;
  }
}
