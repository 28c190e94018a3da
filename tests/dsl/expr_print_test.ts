import { deepEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { BinaryOp, Expr, QuantOp } from "../../dsl/expr/ast.ts";
import { KEYWORDS } from "../../dsl/expr/ast.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { exprEquals, printExpr, stripSpans } from "../../dsl/expr/print.ts";

/** mulberry32: a small seeded PRNG, so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPAN = { start: 0, end: 0 };
const NAMES = ["x", "y", "loc", "item_2", "_tmp", "List", "len", "select_idx", "notx", "orange"];
const STR_CHARS = ["a", "b", " ", "'", '"', "\\", "\n", "\t", "é", "0"];
const NUMBERS = [0, 1, 2, 42, 3.5, 0.1 + 0.2, 1e21, 1.5e-7, 123456789, 0.001];
const BINARY_OPS: BinaryOp[] = ["and", "or", "<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "/"];
const QUANT_OPS: QuantOp[] = ["exists", "forall", "select_one", "select_all"];
const TYPES = ["Item", "Receptacle", "List<Item>", "List<List<Num>>", "Object"];

/** A random well-formed AST of at most `depth` levels. */
function randomExpr(rand: () => number, depth: number): Expr {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const leaf = depth <= 0 || rand() < 0.25;
  const kind = leaf ? pick(["num", "str", "bool", "var"] as const) : pick(
    ["list", "call", "not", "neg", "binary", "binary", "binary", "quant", "distance"] as const,
  );
  const sub = () => randomExpr(rand, depth - 1);
  const some = (max: number) => Array.from({ length: Math.floor(rand() * (max + 1)) }, sub);
  switch (kind) {
    case "num":
      return { kind, value: pick(NUMBERS), span: SPAN };
    case "str":
      return { kind, value: randomString(rand, pick), span: SPAN };
    case "bool":
      return { kind, value: rand() < 0.5, span: SPAN };
    case "var":
      return { kind, name: pick(NAMES), span: SPAN };
    case "list":
      return { kind, items: some(3), span: SPAN };
    case "call":
      return {
        kind,
        name: pick(["p", "contains", "count", "len", "f_1"]),
        args: some(3),
        span: SPAN,
      };
    case "not":
    case "neg":
      return { kind, arg: sub(), span: SPAN };
    case "binary":
      return { kind, op: pick(BINARY_OPS), left: sub(), right: sub(), span: SPAN };
    case "quant":
      return {
        kind,
        op: pick(QUANT_OPS),
        var: pick(NAMES),
        domain: rand() < 0.5 ? { kind: "type", type: pick(TYPES) } : { kind: "in", list: sub() },
        body: sub(),
        span: SPAN,
      };
    case "distance":
      return {
        kind,
        from: pick(NAMES),
        to: pick(NAMES),
        type: pick(TYPES),
        edge: sub(),
        source: sub(),
        target: sub(),
        span: SPAN,
      };
  }
}

function randomString(rand: () => number, pick: <T>(xs: readonly T[]) => T): string {
  const n = Math.floor(rand() * 6);
  return Array.from({ length: n }, () => pick(STR_CHARS)).join("");
}

Deno.test("random ASTs survive print -> parse -> print unchanged", () => {
  const rand = prng(20240611);
  let deep = 0;
  for (let i = 0; i < 600; i++) {
    const e = randomExpr(rand, 1 + (i % 6));
    const printed = printExpr(e);
    const r = parseExpr(printed);
    assert(r.ok, `case ${i}: ${printed}\n${r.ok ? "" : r.error.message}`);
    assert(exprEquals(r.value, e), `case ${i}: reparsed tree differs for ${printed}`);
    assertEquals(printExpr(r.value), printed, `case ${i}`);
    if (printed.includes("(") && e.kind === "binary") deep++;
  }
  // The generator must actually exercise nesting, not only leaves.
  assert(deep > 100, `only ${deep} nested binary cases`);
});

Deno.test("the random generator never produces keyword variable names", () => {
  for (const name of NAMES) assert(!(KEYWORDS as readonly string[]).includes(name));
});

function binary(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, left, right, span: SPAN };
}
const v = (name: string): Expr => ({ kind: "var", name, span: SPAN });

Deno.test("printExpr() uses minimal parentheses by precedence and associativity", () => {
  const [a, b, c] = [v("a"), v("b"), v("c")];
  assertEquals(printExpr(binary("-", a, binary("-", b, c))), "a - (b - c)");
  assertEquals(printExpr(binary("-", binary("-", a, b), c)), "a - b - c");
  assertEquals(printExpr(binary("*", binary("+", a, b), c)), "(a + b) * c");
  assertEquals(printExpr(binary("+", a, binary("*", b, c))), "a + b * c");
  assertEquals(printExpr(binary("and", binary("or", a, b), c)), "(a or b) and c");
  assertEquals(printExpr(binary("or", binary("and", a, b), c)), "a and b or c");
  assertEquals(printExpr(binary("<", binary("<", a, b), c)), "(a < b) < c");
  assertEquals(printExpr(binary("==", a, binary("!=", b, c))), "a == (b != c)");
  assertEquals(printExpr({ kind: "not", arg: binary("and", a, b), span: SPAN }), "not (a and b)");
  assertEquals(printExpr({ kind: "not", arg: binary("<", a, b), span: SPAN }), "not a < b");
  assertEquals(printExpr(binary("+", a, { kind: "not", arg: b, span: SPAN })), "a + (not b)");
  assertEquals(printExpr({ kind: "neg", arg: binary("*", a, b), span: SPAN }), "-(a * b)");
  assertEquals(
    printExpr({ kind: "neg", arg: { kind: "num", value: 3, span: SPAN }, span: SPAN }),
    "-3",
  );
});

Deno.test("printExpr() writes strings single-quoted with escapes and both quantifier domains", () => {
  assertEquals(
    printExpr({ kind: "str", value: `it's a \\ "x"`, span: SPAN }),
    `'it\\'s a \\\\ "x"'`,
  );
  const body = binary("==", v("x"), { kind: "num", value: 1, span: SPAN });
  assertEquals(
    printExpr({
      kind: "quant",
      op: "exists",
      var: "x",
      domain: { kind: "type", type: "Item" },
      body,
      span: SPAN,
    }),
    "exists(x: Item, x == 1)",
  );
  assertEquals(
    printExpr({
      kind: "quant",
      op: "select_all",
      var: "x",
      domain: { kind: "in", list: v("xs") },
      body,
      span: SPAN,
    }),
    "select_all(x in xs, x == 1)",
  );
});

Deno.test("exprEquals() ignores spans but not structure", () => {
  const a = parseExpr("f(x, 1) + 2");
  const b = parseExpr("f( x,1 )+2");
  const c = parseExpr("f(x, 1) - 2");
  const d = parseExpr("exists(x in xs, p(x))");
  const e = parseExpr("exists(x: xs, p(x))");
  assert(a.ok && b.ok && c.ok && d.ok && e.ok);
  assert(exprEquals(a.value, b.value));
  assert(!exprEquals(a.value, c.value));
  assert(!exprEquals(d.value, e.value));
  assertEquals(stripSpans(a.value), stripSpans(b.value));
});
