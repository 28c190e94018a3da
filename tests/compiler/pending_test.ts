// What the goal still asks of an object: the learner's computed literal and
// the expression a rule is written with must agree, with the order the
// demonstrations kept between goal relations too.
import assert from "node:assert/strict";
import { FactStore } from "../../runtime/fact_store.ts";
import { StateIndex, TypeIndex } from "../../compiler/policy/conjunction.ts";
import { orderGoals, pending, pendingGoals, pendingText } from "../../compiler/policy/pending.ts";
import type { GroundedTrace } from "../../compiler/ground.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { checkExpr } from "../../dsl/expr/check.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";

const vocab: Vocabulary = {
  name: "tidy",
  types: { Thing: { kind: "object" }, Room: { kind: "object" } },
  predicates: {
    at: { params: ["Thing", "Room"] },
    held: { params: ["Thing"] },
    goal_at: { params: ["Thing", "Room"] },
    goal_held: { params: ["Thing"] },
  },
  functions: {},
  actions: {},
  landmarks: [
    { pred: "at", on: "add", when: "goal_at(a0, a1)" },
    { pred: "held", on: "add", when: "goal_held(a0)" },
  ],
};

Deno.test("pending(x) and its expression agree: a goal atom naming x that does not hold", () => {
  const objects = { cup: "Thing", book: "Thing", pen: "Thing", r1: "Room", r2: "Room", r3: "Room" };
  const facts = new FactStore([
    { pred: "at", args: ["cup", "r1"] },
    { pred: "goal_at", args: ["cup", "r2"] },
    { pred: "at", args: ["book", "r3"] },
    { pred: "goal_at", args: ["book", "r3"] },
    { pred: "goal_held", args: ["pen"] },
    { pred: "at", args: ["pen", "r1"] },
  ], objects);
  const goals = pendingGoals(vocab);
  assert.deepEqual(goals.map((g) => g.goal), ["goal_at", "goal_held"]);
  const state = new StateIndex(facts, Object.keys(vocab.predicates), new TypeIndex(vocab));
  const expected: Record<string, boolean> = {
    cup: true, // not yet in r2
    book: false, // already in r3
    pen: true, // not held yet
    r1: false,
    r2: true, // where the cup must still go
    r3: false,
  };
  for (const [x, want] of Object.entries(expected)) {
    assert.equal(pending(goals, state, x), want, x);
    const text = pendingText(goals, vocab, "x", objects[x as keyof typeof objects], ["x"]);
    const expr = parseExpr(text);
    assert.ok(expr.ok, text);
    const value = evalExpr(expr.value, { vocab, facts, scope: { x } });
    assert.deepEqual(value, { ok: true, value: want }, `${x}: ${text}`);
    const not = parseExpr(
      pendingText(goals, vocab, "x", objects[x as keyof typeof objects], ["x"], true),
    );
    assert.ok(not.ok);
    assert.deepEqual(evalExpr(not.value, { vocab, facts, scope: { x } }), {
      ok: true,
      value: !want,
    });
  }
});

Deno.test("a relation the demonstrations achieved last is pending only once the others are done", () => {
  const objects = { cup: "Thing", pen: "Thing", r1: "Room", r2: "Room" };
  const goalFacts = [
    { pred: "goal_at", args: ["cup", "r2"] },
    { pred: "goal_held", args: ["pen"] },
  ];
  // A demonstration: the cup is taken to r2, then the pen picked up.
  const states = [
    [{ pred: "at", args: ["cup", "r1"] }, { pred: "at", args: ["pen", "r1"] }],
    [{ pred: "at", args: ["cup", "r2"] }, { pred: "at", args: ["pen", "r1"] }],
    [{ pred: "at", args: ["cup", "r2"] }, { pred: "held", args: ["pen"] }],
  ].map((atoms) => new FactStore([...atoms, ...goalFacts], objects));
  // Only the states are read.
  const trace = { states } as unknown as GroundedTrace;
  const goals = orderGoals(pendingGoals(vocab), [trace]);
  assert.deepEqual(goals.map((g) => [g.goal, (g.after ?? []).map((a) => a.goal)]), [
    ["goal_at", []],
    ["goal_held", ["goal_at"]],
  ]);
  // Where another demonstration achieves both at the same step, no order is kept.
  const reversed = { states: [states[0], states[0], states[2]] } as unknown as GroundedTrace;
  assert.ok(orderGoals(pendingGoals(vocab), [trace, reversed]).every((g) => !g.after));
  for (const [facts, pen] of [[states[0], false], [states[1], true]] as const) {
    const state = new StateIndex(facts, Object.keys(vocab.predicates), new TypeIndex(vocab));
    assert.equal(pending(goals, state, "pen"), pen);
    const expr = parseExpr(pendingText(goals, vocab, "x", "Thing", ["x"]));
    assert.ok(expr.ok);
    assert.deepEqual(evalExpr(expr.value, { vocab, facts, scope: { x: "pen" } }), {
      ok: true,
      value: pen,
    });
  }
});

Deno.test("pending(x) of a wider type than a goal relation's place type-checks and agrees", () => {
  // Crates stand on surfaces, and a crate is a surface: what the goal asks
  // of a surface x includes that x, as a crate, is not yet on its place.
  const stacks: Vocabulary = {
    name: "stacks",
    types: { Surface: { kind: "object" }, Crate: { kind: "object", parent: "Surface" } },
    predicates: {
      on: { params: ["Crate", "Surface"] },
      goal_on: { params: ["Crate", "Surface"] },
    },
    functions: {},
    actions: {},
    landmarks: [{ pred: "on", on: "add", when: "goal_on(a0, a1)" }],
  };
  const objects = { c1: "Crate", c2: "Crate", p: "Surface" };
  const facts = new FactStore([
    { pred: "on", args: ["c1", "p"] },
    { pred: "goal_on", args: ["c1", "c2"] },
    { pred: "on", args: ["c2", "p"] },
    { pred: "goal_on", args: ["c2", "p"] },
  ], objects);
  const goals = pendingGoals(stacks);
  const state = new StateIndex(facts, Object.keys(stacks.predicates), new TypeIndex(stacks));
  const text = pendingText(goals, stacks, "x", "Surface", ["x"]);
  const expr = parseExpr(text);
  assert.ok(expr.ok, text);
  assert.deepEqual(checkExpr(expr.value, { vocab: stacks, vars: { x: "Surface" } }), {
    ok: true,
    value: "Bool",
  }, text);
  // c1 must still go onto c2 (both pending); c2 and p are where they should be.
  for (const [x, want] of [["c1", true], ["c2", true], ["p", false]] as const) {
    assert.equal(pending(goals, state, x), want, x);
    assert.deepEqual(evalExpr(expr.value, { vocab: stacks, facts, scope: { x } }), {
      ok: true,
      value: want,
    }, x);
  }
});
