import assert from "node:assert/strict";
import type { Value } from "../../dsl/facts.ts";
import type { FactStore } from "../../runtime/fact_store.ts";
import { matchAction } from "../../dsl/action.ts";
import {
  evalText,
  hardChoice,
  liftAction,
  type Occurrence,
  type Scope,
} from "../../compiler/operators/lifting.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { markCalls } from "../../compiler/skill_action.ts";
import { atom, type AtomTuple, BOX_VOCAB, facts } from "./_induce_toy.ts";

/** An occurrence of an action text in a state, with the fact change it caused. */
function occ(
  member: number,
  text: string,
  state: FactStore,
  scope: Record<string, Value>,
  change: { add?: AtomTuple[]; remove?: AtomTuple[] } = {},
  landmark = false,
): Occurrence {
  const m = matchAction(BOX_VOCAB, text);
  if (!m) throw new Error(`No template matches "${text}"`);
  const delta = { add: (change.add ?? []).map(atom), remove: (change.remove ?? []).map(atom) };
  return {
    member,
    step: { index: 0, action: m.action, args: m.args, text },
    facts: state,
    grounded: { action: text, observation: "ok", delta },
    scope,
    landmark,
  };
}

/** A fresh-name allocator that numbers repeats: `x`, `x_2`, ... */
function namer(taken: string[] = []): (base: string) => string {
  const used = new Set(taken);
  return (base) => {
    let name = base;
    for (let k = 2; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    return name;
  };
}

function scopeOf(types: Record<string, string>): Scope {
  return { types, bound: new Map() };
}

Deno.test("liftAction() uses the scope variable that equals the argument in every occurrence", () => {
  const f = facts({ b1: "Box", b2: "Box", c1: "Box", c2: "Box" });
  const lifted = liftAction(
    "go",
    [occ(0, "go to b2", f, { r: "b2", s: "b1" }), occ(1, "go to c1", f, { r: "c1", s: "c1" })],
    scopeOf({ r: "Box", s: "Box" }),
    BOX_VOCAB,
    namer(["r", "s"]),
  );
  assert.deepEqual(lifted.stmts, [{ kind: "act", action: "go", args: { b: "r" } }]);
  assert.deepEqual(lifted.types, {});
  assert.deepEqual([...lifted.values], [[0, {}], [1, {}]]);
  assert.deepEqual(lifted.notes, []);
});

// Member 0: box b1 holds a blue and a red ball; member 1: box c1 holds a
// blue and a red ball, and another box holds a red ball too.
const OBJECTS = {
  b1: "Box",
  c1: "Box",
  c2: "Box",
  x1: "Ball",
  x2: "Ball",
  y5: "Ball",
  y6: "Ball",
  y7: "Ball",
};
const STATE_0 = facts(
  OBJECTS,
  ["inside", "b1", "x2"],
  ["color", "x2", "blue"],
  ["inside", "b1", "x1"],
  ["color", "x1", "red"],
);
const STATE_1 = facts(
  OBJECTS,
  ["inside", "c1", "y5"],
  ["color", "y5", "blue"],
  ["inside", "c1", "y6"],
  ["color", "y6", "red"],
  ["inside", "c2", "y7"],
  ["color", "y7", "red"],
);
const SELECT = "select_one(x: Ball, color(x, x_type) and inside(r, x))";

Deno.test("liftAction() binds a determined selection with a DataOp before the action", () => {
  const scope = scopeOf({ r: "Box", x_type: "Color" });
  const lifted = liftAction(
    "take",
    [
      occ(0, "take x1 from b1", STATE_0, { r: "b1", x_type: "red" }),
      occ(1, "take y6 from c1", STATE_1, { r: "c1", x_type: "red" }),
    ],
    scope,
    BOX_VOCAB,
    namer(["r", "x_type"]),
  );
  assert.deepEqual(lifted.stmts, [
    { kind: "bind", var: "x", expr: SELECT },
    { kind: "act", action: "take", args: { x: "x", b: "r" } },
  ]);
  assert.deepEqual(lifted.types, { x: "Ball" });
  assert.deepEqual([...lifted.values], [[0, { x: "x1" }], [1, { x: "y6" }]]);
  assert.deepEqual(lifted.notes, [`x := ${SELECT}`]);
  // The selection is recorded in the scope so a later action reuses the variable.
  assert.deepEqual([...scope.bound], [[SELECT, "x"]]);
  const again = liftAction(
    "grab",
    [
      occ(0, "grab x1", STATE_0, { r: "b1", x_type: "red", x: "x1" }),
      occ(1, "grab y6", STATE_1, { r: "c1", x_type: "red", x: "y6" }),
    ],
    scope,
    BOX_VOCAB,
    namer(["r", "x_type", "x"]),
  );
  assert.deepEqual(again.stmts, [{ kind: "act", action: "grab", args: { x: "x" } }]);
  assert.deepEqual(again.types, {});
});

Deno.test("liftAction() binds afresh when an earlier binding of the same expression has another value now", () => {
  // ball was bound by the same selection to x9 and y9 earlier; it now gives x1 and y6.
  const scope = scopeOf({ r: "Box", x_type: "Color", ball: "Ball" });
  scope.bound.set(SELECT, "ball");
  const lifted = liftAction(
    "grab",
    [
      occ(0, "grab x1", STATE_0, { r: "b1", x_type: "red", ball: "x9" }),
      occ(1, "grab y6", STATE_1, { r: "c1", x_type: "red", ball: "y9" }),
    ],
    scope,
    BOX_VOCAB,
    namer(["r", "x_type", "ball"]),
  );
  assert.deepEqual(lifted.stmts, [
    { kind: "bind", var: "x", expr: SELECT },
    { kind: "act", action: "grab", args: { x: "x" } },
  ]);
});

Deno.test("liftAction() notes an under-determined selection as the replay's choice", () => {
  // Two red balls in the box: no expression tells the one taken from the
  // other, though the box rules out the red ball elsewhere.
  const state = facts(
    { b1: "Box", b2: "Box", x1: "Ball", x2: "Ball", x3: "Ball" },
    ["inside", "b1", "x1"],
    ["color", "x1", "red"],
    ["inside", "b1", "x2"],
    ["color", "x2", "red"],
    ["inside", "b2", "x3"],
    ["color", "x3", "red"],
  );
  const lifted = liftAction(
    "grab",
    [occ(0, "grab x2", state, { r: "b1" })],
    scopeOf({ r: "Box" }),
    BOX_VOCAB,
    namer(["r"]),
  );
  assert.deepEqual(lifted.stmts, [
    { kind: "bind", var: "x", expr: "select_one(x: Ball, inside(r, x))" },
    { kind: "act", action: "grab", args: { x: "x" } },
  ]);
  assert.deepEqual(lifted.notes, [
    "x := select_one(x: Ball, inside(r, x)) (any candidate; replay picks)",
  ]);
  assert.deepEqual([...lifted.values], [[0, { x: "x2" }]]);
});

Deno.test("liftAction() never bakes an object id in: interchangeable objects are a free choice", () => {
  // Nothing about x2 tells it from x1: any ball will do.
  const state = facts({ x1: "Ball", x2: "Ball" });
  const lifted = liftAction(
    "grab",
    [occ(0, "grab x2", state, {})],
    scopeOf({}),
    BOX_VOCAB,
    namer(),
  );
  assert.deepEqual(lifted.stmts, [
    { kind: "bind", var: "x", expr: "select_one(x: Ball, true)" },
    { kind: "act", action: "grab", args: { x: "x" } },
  ]);
  assert.deepEqual(lifted.types, { x: "Ball" });
  assert.deepEqual(lifted.notes, ["x := select_one(x: Ball, true) (any candidate; replay picks)"]);
  assert(!JSON.stringify(lifted.stmts).includes("x2"));
});

Deno.test("liftAction() binds the same interchangeable object of every example by a choice, not its id", () => {
  const state = facts({ x1: "Ball", x2: "Ball" });
  const lifted = liftAction(
    "grab",
    [occ(0, "grab x2", state, {}), occ(1, "grab x2", state, {})],
    scopeOf({}),
    BOX_VOCAB,
    namer(),
  );
  assert(!JSON.stringify(lifted.stmts).includes("x2"), JSON.stringify(lifted.stmts));
});

// `get n x` tops the stock of x up to what is wanted: 2 -> 5 and 0 -> 4.
const WANT_0 = facts({ x1: "Ball" }, ["stock", "x1", 2], ["wanted", "x1", 5]);
const WANT_1 = facts({ y1: "Ball" }, ["wanted", "y1", 4]);

function getOccurrences(landmark: boolean, after0 = 5): Occurrence[] {
  return [
    occ(0, "get 3 x1", WANT_0, { ball: "x1" }, {
      add: [["stock", "x1", after0]],
      remove: [["stock", "x1", 2]],
    }, landmark),
    occ(1, "get 4 y1", WANT_1, { ball: "y1" }, { add: [["stock", "y1", 4]] }, landmark),
  ];
}

Deno.test("liftAction() lifts a preparatory amount as what is missing, guarded by f(x) < E", () => {
  const lifted = liftAction(
    "get",
    getOccurrences(false),
    scopeOf({ ball: "Ball" }),
    BOX_VOCAB,
    namer(["ball"]),
  );
  assert.deepEqual(lifted.stmts, [{
    kind: "if",
    cond: "count(ball) < want(ball)",
    then: [{ kind: "act", action: "get", args: { x: "ball", n: "want(ball) - count(ball)" } }],
    else: [],
  }]);
  assert.deepEqual(lifted.types, {});
  assert.deepEqual(lifted.notes, [
    "n := want(ball) - count(ball) (what the action adds to reach the needed amount)",
  ]);
});

// Without the guard the amount is still found, as a plain difference of terms.
const UNGUARDED = [{
  kind: "act",
  action: "get",
  args: { x: "ball", n: "want(ball) - count(ball)" },
}];

Deno.test("liftAction() does not guard the amount of the landmark step", () => {
  const lifted = liftAction(
    "get",
    getOccurrences(true),
    scopeOf({ ball: "Ball" }),
    BOX_VOCAB,
    namer(["ball"]),
  );
  assert.deepEqual(lifted.stmts, UNGUARDED);
  assert.deepEqual(lifted.notes, ["n := want(ball) - count(ball)"]);
});

Deno.test("liftAction() does not guard an amount that is not the change the action made", () => {
  // The stock went from 2 to 6 after `get 3`: the amount is not `after - before`.
  const lifted = liftAction(
    "get",
    getOccurrences(false, 6),
    scopeOf({ ball: "Ball" }),
    BOX_VOCAB,
    namer(["ball"]),
  );
  assert.deepEqual(lifted.stmts, UNGUARDED);
  assert.deepEqual(lifted.notes, ["n := want(ball) - count(ball)"]);
});

Deno.test("liftAction() makes a choice by the object's own property a preference, not a requirement", () => {
  // Two red balls and a blue one: the expert grabbed a red one, either.
  const state = facts(
    { x1: "Ball", x2: "Ball", x3: "Ball" },
    ["color", "x1", "red"],
    ["color", "x2", "red"],
    ["color", "x3", "blue"],
  );
  const lifted = liftAction(
    "grab",
    [occ(0, "grab x1", state, {}), occ(1, "grab x2", state, {})],
    scopeOf({}),
    BOX_VOCAB,
    namer(),
  );
  const bind = lifted.stmts[0];
  assert.ok(bind.kind === "bind");
  assert.equal(
    bind.expr,
    "select_one(x: Ball, color(x, 'red') or not exists(x2: Ball, color(x2, 'red')))",
  );
});

Deno.test("liftAction() repeats a call that raises a quantity while it falls short of the need", () => {
  // A skill "refill(ball)" marked as a call: it raised the stock of x1 from 2 to 6, 5 were wanted.
  const vocab = markCalls({
    ...BOX_VOCAB,
    actions: {
      ...BOX_VOCAB.actions,
      refill: { template: "refill(ball={ball})", params: [{ name: "ball", type: "Ball" }] },
    },
  }, ["refill"]);
  const before = facts({ x1: "Ball" }, ["stock", "x1", 2], ["wanted", "x1", 5]);
  const after = facts({ x1: "Ball" }, ["stock", "x1", 6], ["wanted", "x1", 5]);
  const m = matchAction(vocab, "refill(ball=x1)")!;
  const occurrence: Occurrence = {
    member: 0,
    step: { index: 0, action: m.action, args: m.args, text: "refill(ball=x1)" },
    facts: before,
    after,
    grounded: { action: "refill(ball=x1)", observation: "", delta: { add: [], remove: [] } },
    scope: { b: "x1" },
    landmark: false,
  };
  const lifted = liftAction("refill", [occurrence], scopeOf({ b: "Ball" }), vocab, namer(["b"]));
  assert.deepEqual(lifted.stmts, [{
    kind: "if",
    cond: "count(b) < want(b)",
    then: [{ kind: "act", action: "refill", args: { ball: "b" } }],
    else: [],
    repeat: true,
  }]);
});

Deno.test("liftAction() keeps a selection learned from one example within the action's relations", () => {
  // Box b1 holds x1 and x2; the expert took x1, the only ball held: `holds(x)` selects it.
  const state = facts(
    { b1: "Box", c1: "Box", x1: "Ball", x2: "Ball", y5: "Ball" },
    ["inside", "b1", "x1"],
    ["inside", "b1", "x2"],
    ["inside", "c1", "y5"],
    ["holds", "x1"],
  );
  const lift = (relations: { pred: string; params: string[] }[]) =>
    liftAction(
      "take",
      [occ(0, "take x1 from b1", state, { r: "b1" })],
      scopeOf({ r: "Box" }),
      BOX_VOCAB,
      namer(["r"]),
      relations,
    ).stmts[0];
  assert.deepEqual(lift([]), { kind: "bind", var: "x", expr: "select_one(x: Ball, holds(x))" });
  const expr = "select_one(x: Ball, inside(r, x) and holds(x))";
  assert.deepEqual(lift([{ pred: "inside", params: ["b", "x"] }]), {
    kind: "bind",
    var: "x",
    expr,
  });
  // Where the ball held is in another box, the action could not take it: nothing is selected.
  const elsewhere = facts(
    { b1: "Box", c1: "Box", x2: "Ball", y5: "Ball" },
    ["inside", "b1", "x2"],
    ["inside", "c1", "y5"],
    ["holds", "y5"],
  );
  assert.equal(evalText(expr, elsewhere, { r: "b1" }, BOX_VOCAB), undefined);
  assert.equal(evalText("select_one(x: Ball, holds(x))", elsewhere, { r: "b1" }, BOX_VOCAB), "y5");
});

/** Lifts `take` from box `r`, the action's relation `inside(b, x)` given. */
function takeInside(occurrences: Occurrence[]) {
  return liftAction(
    "take",
    occurrences,
    scopeOf({ r: "Box" }),
    BOX_VOCAB,
    namer(["r"]),
    [{ pred: "inside", params: ["b", "x"] }],
  ).stmts;
}

Deno.test("liftAction() leaves a selection that several examples agree on as it is", () => {
  const state = (box: string, ball: string) =>
    facts({ [box]: "Box", [ball]: "Ball" }, ["inside", box, ball], ["holds", ball]);
  const [bind] = takeInside([
    occ(0, "take x1 from b1", state("b1", "x1"), { r: "b1" }),
    occ(1, "take y6 from c1", state("c1", "y6"), { r: "c1" }),
  ]);
  assert.deepEqual(bind, { kind: "bind", var: "x", expr: "select_one(x: Ball, holds(x))" });
});

Deno.test("liftAction() keeps a relation only where it held for every example's target", () => {
  const state = facts(
    { b1: "Box", c1: "Box", x1: "Ball", y5: "Ball" },
    ["inside", "c1", "x1"],
    ["holds", "x1"],
  );
  const [bind] = takeInside([occ(0, "take x1 from b1", state, { r: "b1" })]);
  assert.deepEqual(bind, { kind: "bind", var: "x", expr: "select_one(x: Ball, holds(x))" });
});

Deno.test("hardChoice() gives the required form of a preference kept within relations", () => {
  const soft = "select_one(x: Ball, inside(r, x) and (holds(x) or not exists(x2: Ball, " +
    "inside(r, x2) and holds(x2))))";
  const parsed = parseExpr(soft);
  assert.ok(parsed.ok);
  assert.equal(
    printExpr(hardChoice(parsed.value)),
    "select_one(x: Ball, inside(r, x) and holds(x))",
  );
  const plain = parseExpr("select_one(x: Ball, holds(x) or not exists(y: Ball, holds(y)))");
  assert.ok(plain.ok);
  assert.equal(printExpr(hardChoice(plain.value)), "select_one(x: Ball, holds(x))");
});
