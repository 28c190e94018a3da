import { deepEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Expr } from "../../dsl/expr/ast.ts";
import { type EvalEnv, evalExpr } from "../../dsl/expr/eval.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import type { FactView, Value } from "../../dsl/facts.ts";
import { makeFacts, VOCAB } from "./_expr_vocab.ts";
import { FactStore } from "../../runtime/fact_store.ts";

const SCOPE: Record<string, Value> = {
  loc: "fridge 1",
  shelf: "shelf 1",
  apple: "apple 1",
  n: 4,
  flag: true,
  nums: [3, 1, 4, 1, 5],
};

function parse(source: string): Expr {
  const r = parseExpr(source);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function run(source: string, extra: Partial<EvalEnv> = {}): Value {
  const env: EvalEnv = { vocab: VOCAB, facts: makeFacts(), scope: SCOPE, source, ...extra };
  const r = evalExpr(parse(source), env);
  if (!r.ok) throw new Error(`${source}: ${r.error.message}`);
  return r.value;
}

/** The error's message and the source text its span covers. */
function failure(source: string, extra: Partial<EvalEnv> = {}): [string, string] {
  const env: EvalEnv = { vocab: VOCAB, facts: makeFacts(), scope: SCOPE, source, ...extra };
  const r = evalExpr(parse(source), env);
  assert(!r.ok, `expected ${source} to fail, got ${JSON.stringify(r.ok && r.value)}`);
  assertEquals(r.error.stage, "eval");
  return [r.error.message, source.slice(r.error.span.start, r.error.span.end)];
}

Deno.test("evalExpr() reads predicates from the fact store", () => {
  assertEquals(run("contains(loc, 'apple 1')"), true);
  assertEquals(run("contains(loc, 'pear 1')"), false);
  assertEquals(run("inventory(apple, 3)"), true);
  assertEquals(run("inventory(apple, n)"), false);
  assertEquals(run("is_open(shelf) and not is_open(loc)"), true);
});

Deno.test("evalExpr() reads functions, falling back to the declared default", () => {
  assertEquals(run("count(apple)"), 3);
  assertEquals(run("count('pear 1')"), 0);
  assertEquals(run("place('pear 1')"), "shelf 1");
  assertEquals(failure("place(apple) == shelf"), ["No value for place('apple 1')", "place(apple)"]);
});

Deno.test("evalExpr() ranges type quantifiers over the type and its subtypes in store order", () => {
  assertEquals(run("select_all(x: Item, true)"), ["apple 1", "apple 2", "pear 1", "knife 1"]);
  assertEquals(run("select_all(x: Tool, true)"), ["knife 1"]);
  assertEquals(run("select_all(x: Object, true)"), [
    "apple 1",
    "apple 2",
    "pear 1",
    "knife 1",
    "fridge 1",
    "shelf 1",
  ]);
  assertEquals(run("exists(x: Item, is_type(x, 'apple'))"), true);
  assertEquals(run("not exists(x: Item, is_type(x, 'banana'))"), true);
  assertEquals(run("forall(x: Item, exists(r: Receptacle, contains(r, x)))"), true);
  assertEquals(run("forall(x: Item, contains(loc, x))"), false);
  assertEquals(run("select_all(x: Item, contains(shelf, x))"), ["pear 1", "knife 1"]);
});

Deno.test("evalExpr() de-duplicates objects seen under several types of a domain", () => {
  const base = makeFacts();
  const facts: FactView = {
    has: (a) => base.has(a),
    query: (p, pat) => base.query(p, pat),
    typeOf: (id) => base.typeOf(id),
    // A view may list an object under its type and a supertype.
    objectsOfType: (t) => t === "Tool" ? ["knife 1", "apple 1"] : base.objectsOfType(t),
  };
  assertEquals(run("select_all(x: Item, true)", { facts }), [
    "apple 1",
    "apple 2",
    "pear 1",
    "knife 1",
  ]);
});

Deno.test("evalExpr() quantifies over lists", () => {
  assertEquals(run("exists(x in nums, x > 4)"), true);
  assertEquals(run("forall(x in nums, x > 0)"), true);
  assertEquals(run("forall(x in [], false)"), true);
  assertEquals(run("exists(x in [], true)"), false);
  assertEquals(run("select_all(x in nums, x < 4)"), [3, 1, 1]);
  assertEquals(run("select_one(x in nums, x > 3)"), 4);
  assertEquals(run("select_all(x in select_all(y: Item, true), contains(loc, x))"), [
    "apple 1",
    "apple 2",
  ]);
});

Deno.test("evalExpr() evaluates the paper's binding examples", () => {
  assertEquals(run("select_one(x: Item, is_type(x, 'apple') and contains(loc, x))"), "apple 1");
  assertEquals(run("select_one(y: Receptacle, contains(y, 'knife 1'))"), "shelf 1");
});

Deno.test("select_one() passes all satisfying candidates to the choose hook", () => {
  const calls: [Value[], string][] = [];
  const choose = (candidates: Value[], expr: Expr): Value | undefined => {
    calls.push([candidates, printExpr(expr)]);
    return candidates[candidates.length - 1];
  };
  assertEquals(run("select_one(x: Item, contains(loc, x))", { choose }), "apple 2");
  assertEquals(calls, [[["apple 1", "apple 2"], "select_one(x: Item, contains(loc, x))"]]);
  // undefined falls back to the first candidate.
  assertEquals(
    run("select_one(x: Item, contains(loc, x))", { choose: () => undefined }),
    "apple 1",
  );
  // With no candidate the hook is not consulted.
  let called = false;
  const source = "select_one(x: Item, is_type(x, 'fig'))";
  failure(source, { choose: () => (called = true, "x") });
  assert(!called);
});

Deno.test("evalExpr() evaluates builtins, arithmetic and comparisons", () => {
  assertEquals(run("len(nums)"), 5);
  assertEquals(run("len([])"), 0);
  assertEquals(run("select_idx(nums, 2)"), 4);
  assertEquals(run("select_idx(select_all(x: Item, true), 0)"), "apple 1");
  assertEquals(run("n + 2 * 3 - 1"), 9);
  assertEquals(run("(n + 2) * 3"), 18);
  assertEquals(run("n / 8"), 0.5);
  assertEquals(run("-n + 1"), -3);
  assertEquals(run("- -n"), 4);
  assertEquals(run("n - 1 - 1"), 2);
  assertEquals(run("n - (1 - 1)"), 4);
  assertEquals([run("1 < 2"), run("2 < 2"), run("2 <= 2"), run("3 > 2"), run("2 >= 3")], [
    true,
    false,
    true,
    true,
    false,
  ]);
  assertEquals(run("count(apple) >= 3 and count('pear 1') == 0"), true);
});

Deno.test("evalExpr() compares values structurally with == and !=", () => {
  assertEquals(run("loc == 'fridge 1'"), true);
  assertEquals(run("nums == [3, 1, 4, 1, 5]"), true);
  assertEquals(run("nums == [3, 1, 4]"), false);
  assertEquals(run("[[1, 'a'], true] == [[1, 'a'], true]"), true);
  assertEquals(run("'1' == 1"), false);
  assertEquals(run("flag != false"), true);
  assertEquals(run("select_all(x: Tool, true) != ['knife 1']"), false);
});

Deno.test("evalExpr() short-circuits and/or", () => {
  assertEquals(run("false and undefined_pred(1)"), false);
  assertEquals(run("true or 1 / 0 == 1"), true);
  assertEquals(run("exists(x: Item, true) or missing_var"), true);
  assertEquals(failure("true and missing_var"), ['Unknown variable "missing_var"', "missing_var"]);
});

Deno.test("evalExpr() reports lookup errors with the failing node's span", () => {
  assertEquals(failure("contains(loc, y)"), ['Unknown variable "y"', "y"]);
  assertEquals(failure("foo(loc)"), ['Unknown predicate "foo"', "foo(loc)"]);
  assertEquals(failure("contains(loc)"), [
    'Predicate "contains" expects 2 arguments but got 1',
    "contains(loc)",
  ]);
  assertEquals(failure("count()"), ['Function "count" expects 1 argument but got 0', "count()"]);
  assertEquals(failure("contains(loc, flag)"), [
    'Argument 2 of "contains" must be a string or number but is true',
    "flag",
  ]);
});

Deno.test("evalExpr() reports select_one without a candidate, printing the body", () => {
  assertEquals(failure("select_one(x: Item, is_type(x, 'fig') and contains(loc, x))"), [
    "select_one found no x: Item with is_type(x, 'fig') and contains(loc, x)",
    "select_one(x: Item, is_type(x, 'fig') and contains(loc, x))",
  ]);
  assertEquals(failure("select_one(x in nums, x > 9)"), [
    "select_one found no x in nums with x > 9",
    "select_one(x in nums, x > 9)",
  ]);
});

Deno.test("evalExpr() reports builtin and arithmetic errors", () => {
  assertEquals(failure("select_idx(nums, 5)"), [
    "Index 5 of select_idx is out of range for a list of 5 items",
    "select_idx(nums, 5)",
  ]);
  assertEquals(failure("select_idx(nums, -1)"), [
    "Index -1 of select_idx is out of range for a list of 5 items",
    "select_idx(nums, -1)",
  ]);
  assertEquals(failure("select_idx([1], 0.5)"), [
    "Index 0.5 of select_idx is out of range for a list of 1 item",
    "select_idx([1], 0.5)",
  ]);
  assertEquals(failure("select_idx(nums, 'a')"), [
    "Argument 2 of \"select_idx\" must be a number but got 'a'",
    "'a'",
  ]);
  assertEquals(failure("len(n)"), ['Argument 1 of "len" must be a list but got 4', "n"]);
  assertEquals(failure("len(nums, 1)"), ['"len" expects 1 argument but got 2', "len(nums, 1)"]);
  assertEquals(failure("1 + n / (n - 4)"), ["Division by zero in n / (n - 4)", "n / (n - 4)"]);
});

Deno.test("evalExpr() reports operands and domains of the wrong kind", () => {
  assertEquals(failure("not n"), ['"not" needs a boolean but got 4', "n"]);
  assertEquals(failure("-loc"), ["Unary \"-\" needs a number but got 'fridge 1'", "loc"]);
  assertEquals(failure("n + flag"), ['"+" needs numbers but got true', "flag"]);
  assertEquals(failure("loc < 2"), ["\"<\" needs numbers but got 'fridge 1'", "loc"]);
  assertEquals(failure("flag and n"), ['"and" needs booleans but got 4', "n"]);
  assertEquals(failure("nums or flag"), ['"or" needs booleans but got [3, 1, 4, 1, 5]', "nums"]);
  assertEquals(failure("exists(x in n, true)"), [
    'Domain of "exists" must be a list but got 4',
    "n",
  ]);
  assertEquals(failure("forall(x: ItemType, true)"), [
    'Domain of "forall" must be an object type but "ItemType" is not',
    "forall(x: ItemType, true)",
  ]);
  assertEquals(failure("select_all(x: Item, count(x))"), [
    'Body of "select_all" must be a boolean but got 3',
    "count(x)",
  ]);
});

Deno.test("evalExpr() errors carry line and column of multi-line source", () => {
  const source = "is_open(shelf)\n  and contains(loc,\n    zz)";
  const r = evalExpr(parse(source), { vocab: VOCAB, facts: makeFacts(), scope: SCOPE, source });
  assert(!r.ok);
  assertEquals([r.error.message, r.error.line, r.error.column], ['Unknown variable "zz"', 3, 5]);
});

Deno.test("evalExpr() does not leak quantifier bindings into the outer scope", () => {
  assertEquals(run("exists(loc: Receptacle, is_open(loc)) and loc == 'fridge 1'"), true);
});

Deno.test("a quantifier narrowed by the facts keeps the domain's order, whatever the facts' order", () => {
  // Forty items and a tool, in this order; the box holds three of them,
  // recorded in another order.
  const types: Record<string, string> = {};
  for (let i = 0; i < 40; i++) types[`item ${i}`] = "Item";
  types["knife 1"] = "Tool";
  types["box 1"] = "Receptacle";
  const held = ["item 37", "knife 1", "item 5", "item 21"];
  const facts = new FactStore(
    held.map((x) => ({ pred: "contains", args: ["box 1", x] })),
    types,
  );
  const env = (source: string): EvalEnv => ({ vocab: VOCAB, facts, scope: {}, source });
  const evaluate = (source: string) => {
    const r = evalExpr(parse(source), env(source));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  // Looked up in the facts, and tried one by one (a body that does not narrow).
  const narrowed = evaluate("select_all(x: Item, contains('box 1', x))");
  const tried = evaluate("select_all(x: Item, not not contains('box 1', x))");
  assertEquals(narrowed, ["item 5", "item 21", "item 37", "knife 1"]);
  assertEquals(narrowed, tried);
  assertEquals(evaluate("select_one(x: Item, contains('box 1', x))"), "item 5");
  // Nested: the outer quantifier's every candidate narrows the inner one.
  assertEquals(
    evaluate("select_all(r: Receptacle, exists(x: Item, contains(r, x) and x == 'item 21'))"),
    ["box 1"],
  );
});

Deno.test("a quantifier's first atom allowing many is narrowed by an atom with a known argument", () => {
  // Forty open receptacles; the item is at one of them. `is_open(r)` allows
  // all forty, `at('item 1', r)` one: five iterations are enough.
  const types: Record<string, string> = { "item 1": "Item" };
  const atoms = [];
  for (let i = 0; i < 40; i++) {
    types[`box ${i}`] = "Receptacle";
    atoms.push({ pred: "is_open", args: [`box ${i}`] });
  }
  atoms.push({ pred: "at", args: ["item 1", "box 23"] });
  const facts = new FactStore(atoms, types);
  const source = "select_all(r: Receptacle, is_open(r) and at('item 1', r))";
  const r = evalExpr(parse(source), { vocab: VOCAB, facts, scope: {}, source, budget: 5 });
  assertEquals(r, { ok: true, value: ["box 23"] });
  // Every candidate tried (a body that does not narrow) exceeds that budget.
  const tried = "select_all(r: Receptacle, not not (is_open(r) and at('item 1', r)))";
  assert(!evalExpr(parse(tried), { vocab: VOCAB, facts, scope: {}, budget: 5 }).ok);
});

Deno.test("a quantifier whose body does not read its variable is tried once", () => {
  // 40 x 40 x 40 candidates if each were tried; the inner bodies never
  // read `b` or `c`, so 40 x 3 iterations are enough.
  const types: Record<string, string> = {};
  for (let i = 0; i < 40; i++) types[`item ${i}`] = "Item";
  const facts = new FactStore([], types);
  const source = "exists(a: Item, exists(b: Item, forall(c: Item, a == 'item 39')))";
  const r = evalExpr(parse(source), { vocab: VOCAB, facts, scope: {}, source, budget: 120 });
  assertEquals(r, { ok: true, value: true });
  // Where a body reads its variable, every candidate is tried as before.
  const reads = "exists(a: Item, exists(b: Item, forall(c: Item, a == b and c == 'x')))";
  const tried = evalExpr(parse(reads), { vocab: VOCAB, facts, scope: {}, budget: 120 });
  assert(!tried.ok);
});

Deno.test("a quantifier that reads no outer variable is worked out once per evaluation", () => {
  // For each of 40 items, "no item is in a box": 40 x 40 iterations if the
  // inner quantifier were tried for each, 40 + 40 once.
  const types: Record<string, string> = {};
  for (let i = 0; i < 40; i++) types[`item ${i}`] = "Item";
  types["box 1"] = "Receptacle";
  const facts = new FactStore([{ pred: "contains", args: ["box 1", "item 39"] }], types);
  const source =
    "select_all(a: Item, a != 'item 0' and not exists(b: Item, not not contains('box 1', b)))";
  const r = evalExpr(parse(source), { vocab: VOCAB, facts, scope: {}, source, budget: 100 });
  assertEquals(r, { ok: true, value: [] });
  // One that reads the outer variable is tried for each.
  const reads =
    "select_all(a: Item, a != 'item 0' and not exists(b: Item, not not contains('box 1', b) and a == b))";
  assert(!evalExpr(parse(reads), { vocab: VOCAB, facts, scope: {}, budget: 100 }).ok);
});

Deno.test("a closed quantifier's value is kept across evaluations until what it reads changes", () => {
  const types: Record<string, string> = {};
  for (let i = 0; i < 40; i++) types[`item ${i}`] = "Item";
  types["box 1"] = "Receptacle";
  const facts = new FactStore([{ pred: "contains", args: ["box 1", "item 39"] }], types);
  const source = "exists(b: Item, not not contains('box 1', b))";
  const expr = parse(source);
  // 40 iterations the first time; none the second, with a budget of 1.
  assertEquals(evalExpr(expr, { vocab: VOCAB, facts, scope: {}, source }), {
    ok: true,
    value: true,
  });
  assertEquals(evalExpr(parse(source), { vocab: VOCAB, facts, scope: {}, source, budget: 1 }), {
    ok: true,
    value: true,
  });
  // Once `contains` changes, it is worked out again.
  facts.apply({ add: [], remove: [{ pred: "contains", args: ["box 1", "item 39"] }] });
  assertEquals(evalExpr(expr, { vocab: VOCAB, facts, scope: {}, source }), {
    ok: true,
    value: false,
  });
});

Deno.test("an atom inside an exists of the body narrows a quantifier, its variable matching anything", () => {
  // Forty items, three of them in some receptacle.
  const types: Record<string, string> = {};
  for (let i = 0; i < 40; i++) types[`item ${i}`] = "Item";
  for (const r of ["box 1", "box 2"]) types[r] = "Receptacle";
  const facts = new FactStore([
    { pred: "contains", args: ["box 2", "item 30"] },
    { pred: "contains", args: ["box 1", "item 4"] },
    { pred: "contains", args: ["box 1", "item 17"] },
    { pred: "at", args: ["item 17", "box 1"] },
  ], types);
  const evaluate = (source: string, budget?: number) => {
    const r = evalExpr(parse(source), { vocab: VOCAB, facts, scope: {}, source, budget });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  // `x` is looked up through `contains('box 1', x)` inside the exists: two
  // candidates, each with two receptacles, well within 20 iterations.
  const inBox =
    "select_all(x: Item, exists(r: Receptacle, contains('box 1', x) and contains(r, x)))";
  assertEquals(evaluate(inBox, 20), ["item 4", "item 17"]);
  assertEquals(evaluate(`select_all(x: Item, not not ${inBox.slice(20, -1)})`), [
    "item 4",
    "item 17",
  ]);
  // An atom whose other arguments all match anything narrows only where no
  // atom with a known argument does (looked up once per evaluation).
  assertEquals(
    evaluate("select_all(x: Item, exists(r: Receptacle, at(x, r) and r == 'box 1'))"),
    ["item 17"],
  );
  // A disjunction narrows to what its disjuncts allow, each through its own quantifier.
  assertEquals(
    evaluate(
      "select_all(x: Item, exists(r: Receptacle, contains('box 2', x)) or exists(r: Receptacle, at(x, 'box 1')))",
      20,
    ),
    ["item 17", "item 30"],
  );
  // A quantifier that rebinds the variable hides it: nothing narrows, every item holds.
  assertEquals(
    (evaluate("select_all(x: Item, exists(x: Item, contains('box 2', x)))") as Value[]).length,
    40,
  );
});

Deno.test("evalExpr: a type's objects are read again once the facts declare another", () => {
  // What evaluations keep between them (each type's objects, their places)
  // must follow the facts: the same store, evaluated before and after.
  const facts = makeFacts();
  for (let i = 1; i <= 12; i++) facts.declare(`plum ${i}`, "Item");
  facts.add({ pred: "contains", args: ["fridge 1", "plum 12"] });
  const env = (source: string): EvalEnv => ({ vocab: VOCAB, facts, scope: SCOPE, source });
  const all = "select_all(x: Item, true)";
  // Few of many: the fridge's items are found through its facts, in the type's order.
  const inFridge = "select_all(x: Item, contains('fridge 1', x))";
  const value = (source: string) => {
    const r = evalExpr(parse(source), env(source));
    if (!r.ok) throw new Error(r.error.message);
    return r.value as Value[];
  };
  assertEquals(value(all).length, 16);
  assertEquals(value(inFridge), ["apple 1", "apple 2", "plum 12"]);
  facts.declare("saw 1", "Tool");
  facts.declare("apple 0", "Item");
  facts.add({ pred: "contains", args: ["fridge 1", "saw 1"] });
  facts.add({ pred: "contains", args: ["fridge 1", "apple 0"] });
  assertEquals(value(all).length, 18);
  assert(value(all).includes("saw 1"));
  assertEquals(value(inFridge), ["apple 1", "apple 2", "plum 12", "apple 0", "saw 1"]);
  // Retyped, an object leaves its old type's domain.
  facts.declare("plum 12", "Receptacle");
  assertEquals(value(inFridge), ["apple 1", "apple 2", "apple 0", "saw 1"]);
});
