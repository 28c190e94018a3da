// Seeded, bounded fuzzing of parse -> check -> evaluate and of skill files:
// every outcome is a value (a parse, type or evaluation error with a
// position, or an issue naming a node or field), never a thrown exception,
// a stack overflow or a run without end.
import assert from "node:assert/strict";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { checkExpr } from "../../dsl/expr/check.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { validateSkill } from "../../dsl/graph/validate.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { mulberry32, type Random } from "../../environments/_random.ts";
import { makeFacts, VOCAB as EXPR_VOCAB } from "./_expr_vocab.ts";
import { searchSkill, VOCAB as GRAPH_VOCAB } from "./_fixtures_graph.ts";

const WORDS = [
  "x",
  "y",
  "Item",
  "Tool",
  "Receptacle",
  "ItemType",
  "is_type",
  "contains",
  "inventory",
  "at",
  "is_open",
  "count",
  "place",
  "exists",
  "forall",
  "select_one",
  "select_all",
  "and",
  "or",
  "not",
  "in",
  "true",
  "false",
  "len",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
];
const SYMBOLS = [
  "(",
  ")",
  "[",
  "]",
  ",",
  ":",
  "+",
  "-",
  "*",
  "/",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "'",
  '"',
];
const NUMBERS = ["0", "1", "2.5", "1e309", "99999999999999999999", "-1", "1e-400"];
const STRINGS = ["'apple'", "'fridge'", "''", "'\\u0000'", "'a b'"];
const SEEDS = [
  "exists(x: Item, at(x, r) and is_open(r))",
  "select_one(x: Item, contains(r, x) and is_type(x, 'apple'))",
  "count(i) + 1 >= 2 or not is_open(r)",
  "select_all(x: Item, forall(y: Receptacle, not contains(y, x)))",
  "len(select_all(x in [i, i], true)) == 2",
];

function pick<T>(rand: Random, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

/** Random token soup, or a seed expression with random edits. */
function expression(rand: Random): string {
  if (rand() < 0.5) {
    const n = 1 + Math.floor(rand() * 24);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = rand();
      parts.push(
        r < 0.45
          ? pick(rand, WORDS)
          : r < 0.8
          ? pick(rand, SYMBOLS)
          : r < 0.9
          ? pick(rand, NUMBERS)
          : pick(rand, STRINGS),
      );
    }
    return parts.join(rand() < 0.5 ? " " : "");
  }
  let text = pick(rand, SEEDS);
  const edits = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * (text.length + 1));
    const r = rand();
    if (r < 0.3) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(rand() * 6));
    else if (r < 0.7) {
      text = text.slice(0, at) + " " + pick(rand, [...WORDS, ...SYMBOLS, ...NUMBERS]) + " " +
        text.slice(at);
    } else if (r < 0.85) text = `not (${text})`;
    else text = `${text} and ${pick(rand, SEEDS)}`;
  }
  return text;
}

function positioned(e: { message: string; line: number; column: number }, src: string): void {
  assert.ok(e.message.length > 0, `an error without a message for ${src}`);
  assert.ok(e.line >= 1 && e.column >= 1, `an error without a position for ${src}`);
}

Deno.test("fuzz: 20,000 expressions parse, check and evaluate to values or positioned errors", () => {
  const rand = mulberry32(20261123);
  const facts = makeFacts();
  const vars = { i: "Item", r: "Receptacle" };
  const scope = { i: "apple 1", r: "fridge 1" };
  let parsed = 0;
  let evaluated = 0;
  for (let k = 0; k < 20_000; k++) {
    const src = expression(rand);
    const p = parseExpr(src);
    if (!p.ok) {
      positioned(p.error, src);
      continue;
    }
    parsed++;
    // Printing gives text that parses to the same tree's text.
    const printed = printExpr(p.value);
    const again = parseExpr(printed);
    assert.ok(again.ok && printExpr(again.value) === printed, `print/parse of ${src}`);
    const c = checkExpr(p.value, { vocab: EXPR_VOCAB, vars }, src);
    if (!c.ok) {
      for (const e of c.error) positioned(e, src);
      continue;
    }
    const v = evalExpr(p.value, { vocab: EXPR_VOCAB, facts, scope, source: src, budget: 20_000 });
    if (v.ok) evaluated++;
    else positioned(v.error, src);
  }
  // The generator reaches every stage.
  assert.ok(parsed > 2_000, `parsed ${parsed}`);
  assert.ok(evaluated > 500, `evaluated ${evaluated}`);
});

/** A mutation of a valid skill file's JSON value. */
function mutate(rand: Random, value: unknown, depth = 0): unknown {
  if (depth > 6 || rand() < 0.15) {
    return pick(rand, [
      undefined,
      null,
      0,
      -1,
      1e309,
      "",
      "__proto__",
      "constructor",
      "toString",
      [],
      {},
      true,
      "x".repeat(2000),
      "((((((((((",
      "exists(x: Item, true)",
      { __proto__: { kind: "check" } },
    ]);
  }
  if (Array.isArray(value)) {
    const out = value.map((v) => rand() < 0.2 ? mutate(rand, v, depth + 1) : v);
    if (rand() < 0.2 && out.length > 0) out.splice(Math.floor(rand() * out.length), 1);
    if (rand() < 0.2 && out.length > 0) out.push(structuredClone(pick(rand, out)));
    return out;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(out)) {
      if (rand() < 0.2) out[key] = mutate(rand, out[key], depth + 1);
      if (rand() < 0.05) delete out[key];
    }
    if (rand() < 0.1) out[pick(rand, ["__proto__", "constructor", "extra", "id"])] = "x";
    return out;
  }
  if (typeof value === "string" && rand() < 0.5) {
    return pick(rand, ["__proto__", "constructor", value + "(", value.slice(1), "hasOwnProperty"]);
  }
  return value;
}

Deno.test("fuzz: 300 mutated skill files validate and compile to values with issues naming a node or field", () => {
  const rand = mulberry32(7);
  const base = searchSkill();
  let valid = 0;
  for (let k = 0; k < 300; k++) {
    const input = mutate(rand, structuredClone(base));
    // JSON round trip: a skill file is text.
    const text = JSON.stringify(input) ?? "null";
    const data = JSON.parse(text);
    const r = validateSkill(data, GRAPH_VOCAB);
    const c = compileSkill(data, GRAPH_VOCAB);
    assert.equal(r.ok, c.ok, `validate and compile agree on ${text.slice(0, 200)}`);
    if (r.ok) {
      valid++;
      continue;
    }
    for (const issue of r.error) {
      assert.ok(issue.message.length > 0);
      assert.ok(
        issue.node !== undefined || issue.field !== undefined,
        `an issue naming neither node nor field: ${issue.message}`,
      );
    }
  }
  assert.ok(valid > 0 && valid < 300, `valid ${valid}`);
});
