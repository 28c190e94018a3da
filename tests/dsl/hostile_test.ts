// Inputs built to break the expression language and the graph checks: each
// gets a clear error (with position and limit) or is valid data.
import assert from "node:assert/strict";
import { MAX_EXPR_DEPTH, parseExpr } from "../../dsl/expr/parse.ts";
import { checkExpr } from "../../dsl/expr/check.ts";
import { DEFAULT_EVAL_BUDGET, evalExpr } from "../../dsl/expr/eval.ts";
import { validateSkill } from "../../dsl/graph/validate.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { own } from "../../dsl/vocabulary.ts";
import { makeFacts, VOCAB } from "./_expr_vocab.ts";
import { VOCAB as GRAPH_VOCAB } from "./_fixtures_graph.ts";

Deno.test("calls named like Object.prototype members are unknown predicates, not crashes", () => {
  for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"]) {
    const p = parseExpr(`${name}(i)`);
    assert.ok(p.ok);
    const c = checkExpr(p.value, { vocab: VOCAB, vars: { i: "Item" } });
    assert.ok(!c.ok && c.error[0].message === `Unknown predicate "${name}"`, name);
    const e = evalExpr(p.value, { vocab: VOCAB, facts: makeFacts(), scope: { i: "apple 1" } });
    assert.ok(!e.ok && e.error.message === `Unknown predicate "${name}"`, name);
  }
  assert.equal(own({ a: 1 }, "constructor"), undefined);
});

Deno.test("deep nesting is a parse error naming the limit and where, not a stack overflow", () => {
  const cases = [
    "(".repeat(2000) + "1" + ")".repeat(2000),
    Array(3000).fill("1").join(" + "),
    Array(5000).fill("true").join(" and "),
    "not ".repeat(5000) + "true",
    "-".repeat(5000) + "1",
  ];
  for (const src of cases) {
    const r = parseExpr(src);
    assert.ok(!r.ok, src.slice(0, 20));
    assert.match(r.error.message, new RegExp(`more than ${MAX_EXPR_DEPTH} levels`));
    assert.ok(r.error.column >= 1);
  }
  // Up to the limit is fine.
  assert.ok(parseExpr(Array(200).fill("1").join(" + ")).ok);
});

Deno.test("a number too large for a double is a parse error", () => {
  const r = parseExpr("count(i) < 1e309");
  assert.ok(!r.ok);
  assert.equal(r.error.message, "Number 1e309 is too large to represent");
  assert.equal(r.error.column, 12);
});

Deno.test("nested quantifiers stop at the evaluation budget with an error saying so", () => {
  // Each body reads its variable (a body that does not is tried once).
  const src =
    "exists(a: Item, exists(b: Item, exists(c: Item, exists(d: Item, a == b and c == d and false))))";
  const p = parseExpr(src);
  assert.ok(p.ok);
  const facts = makeFacts();
  const small = evalExpr(p.value, { vocab: VOCAB, facts, scope: {}, budget: 100 });
  assert.ok(!small.ok);
  assert.match(
    small.error.message,
    /^Evaluation budget exceeded: more than 100 quantifier iterations/,
  );
  // Four items: 4 + 16 + 64 + 256 iterations fit the default budget.
  const full = evalExpr(p.value, { vocab: VOCAB, facts, scope: {} });
  assert.deepEqual(full, { ok: true, value: false });
  assert.ok(DEFAULT_EVAL_BUDGET >= 1_000_000);
});

function chain(ids: string[]): Skill {
  return {
    format: "skillc/skill@1",
    name: "s",
    vocabulary: GRAPH_VOCAB.name,
    params: [],
    doc: { summary: "" },
    entry: ids[0],
    nodes: [
      ...ids.map((id) => ({ id, kind: "check" as const, cond: "true" })),
      { id: "end", kind: "terminal" as const, outcome: "success" as const },
    ],
    edges: ids.flatMap((id, i) => [
      { from: id, to: ids[i + 1] ?? "end", label: "yes" as const },
      { from: id, to: "end", label: "no" as const },
    ]),
  };
}

Deno.test("node ids such as __proto__ are data, and a 5,000-node chain validates", () => {
  assert.deepEqual(validateSkill(chain(["__proto__", "constructor", "toString"]), GRAPH_VOCAB), {
    ok: true,
    value: chain(["__proto__", "constructor", "toString"]),
  });
  const long = chain(Array.from({ length: 5000 }, (_, i) => `n${i}`));
  assert.ok(validateSkill(long, GRAPH_VOCAB).ok);
  // Unreachable nodes are reported, not followed.
  const cut = chain(Array.from({ length: 5000 }, (_, i) => `n${i}`));
  cut.edges = cut.edges.filter((e) => e.from !== "n10" || e.label !== "yes");
  cut.edges.push({ from: "n10", to: "end", label: "yes" });
  const r = validateSkill(cut, GRAPH_VOCAB);
  assert.ok(!r.ok);
  assert.equal(r.error.length, 4989);
  assert.equal(r.error[0].message, `Node "n11" is not reachable from the entry "n0"`);
});

Deno.test("a skill written for another vocabulary is refused, naming both", () => {
  const skill = { ...chain(["a"]), vocabulary: "elsewhere" };
  assert.deepEqual(validateSkill(skill, GRAPH_VOCAB), {
    ok: false,
    error: [{
      field: "vocabulary",
      message: `Skill "s" is written for vocabulary "elsewhere" but the environment's is "tiny"`,
    }],
  });
});
