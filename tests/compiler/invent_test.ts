import { dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { inventPredicate } from "../../compiler/invent.ts";
import type { Example, SynthesisContext } from "../../compiler/synth_types.ts";
import { checkExpr, evalExpr } from "../../dsl/expr/mod.ts";
import type { Atom } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { alfworldVocabulary } from "../../environments/alfworld/vocabulary.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { alfworldTrace, searchSteps } from "./_synth_fixtures.ts";

const VOCAB: Vocabulary = {
  name: "boxes",
  types: {
    Box: { kind: "object" },
    Ball: { kind: "object" },
    Color: { kind: "value" },
    Tag: { kind: "value" },
  },
  predicates: {
    is_open: { params: ["Box"] },
    is_red: { params: ["Box"] },
    big: { params: ["Box"] },
    inside: { params: ["Box", "Ball"] },
    color: { params: ["Ball", "Color"] },
    label: { params: ["Box", "Tag"] },
    note: { params: ["Box", "Str"] },
    stock: { params: ["Ball", "Num"] },
    wanted: { params: ["Ball", "Num"] },
  },
  functions: {
    count: { params: ["Ball"], returns: "Num", predicate: "stock", default: 0 },
    want: { params: ["Ball"], returns: "Num", predicate: "wanted" },
  },
  actions: {},
};

const OBJECTS = { b1: "Box", b2: "Box", b3: "Box", red: "Ball", blue: "Ball", green: "Ball" };

function store(...lines: [string, ...(string | number)[]][]): FactStore {
  return new FactStore(lines.map(([pred, ...args]): Atom => ({ pred, args })), OBJECTS);
}

function at(facts: FactStore, scope: Example["scope"]): Example {
  return { facts, scope };
}

/** Asserts the invented predicate type-checks and separates the examples. */
function assertSeparates(
  ctx: SynthesisContext,
  text: string | undefined,
  pos: Example[],
  neg: Example[],
): void {
  const p = inventPredicate(ctx, pos, neg);
  assert.ok(p, "a predicate is found");
  assert.equal(p.text, text);
  assert.deepEqual(checkExpr(p.expr, { vocab: ctx.vocab, vars: ctx.varTypes }), {
    ok: true,
    value: "Bool",
  });
  for (const [list, want] of [[pos, true], [neg, false]] as const) {
    for (const ex of list) {
      const r = evalExpr(p.expr, { vocab: ctx.vocab, facts: ex.facts, scope: ex.scope });
      assert.deepEqual(r, { ok: true, value: want }, `${p.text} on ${JSON.stringify(ex.scope)}`);
    }
  }
}

Deno.test("inventPredicate() finds the single atom over a scope variable that separates", () => {
  const facts = store(["is_open", "b1"], ["is_red", "b1"], ["is_red", "b2"], ["big", "b3"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  assertSeparates(ctx, "is_open(box)", [at(facts, { box: "b1" })], [
    at(facts, { box: "b2" }),
    at(facts, { box: "b3" }),
  ]);
});

Deno.test("inventPredicate() uses a negated atom when the negatives share a fact", () => {
  const facts = store(["big", "b2"], ["big", "b3"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  assertSeparates(ctx, "not big(box)", [at(facts, { box: "b1" })], [
    at(facts, { box: "b2" }),
    at(facts, { box: "b3" }),
  ]);
});

Deno.test("inventPredicate() conjoins literals when no single one separates, up to maxLiterals", () => {
  const facts = store(["is_open", "b1"], ["is_red", "b1"], ["is_open", "b2"], ["is_red", "b3"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  const pos = [at(facts, { box: "b1" })];
  const neg = [at(facts, { box: "b2" }), at(facts, { box: "b3" })];
  assertSeparates(ctx, "is_open(box) and is_red(box)", pos, neg);
  assert.equal(inventPredicate({ ...ctx, maxLiterals: 1 }, pos, neg), undefined);
});

Deno.test("inventPredicate() prefers a scope variable to an equal constant", () => {
  const a = store(["label", "b1", "fragile"]);
  const b = store(["label", "b1", "heavy"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box", tag: "Str" } };
  // Both label(box, tag) and label(box, 'fragile') separate; the variable wins the tie.
  assertSeparates(ctx, "label(box, tag)", [at(a, { box: "b1", tag: "fragile" })], [
    at(b, { box: "b1", tag: "fragile" }),
  ]);
});

Deno.test("inventPredicate() keeps a constant only when every positive has it", () => {
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  const pos = [
    at(store(["label", "b1", "fragile"]), { box: "b1" }),
    at(store(["label", "b2", "fragile"]), { box: "b2" }),
  ];
  const neg = [at(store(["label", "b1", "heavy"]), { box: "b1" })];
  assertSeparates(ctx, "label(box, 'fragile')", pos, neg);
  const mixed = [...pos, at(store(["label", "b3", "heavy"], ["is_red", "b3"]), { box: "b3" })];
  assert.equal(inventPredicate(ctx, mixed, neg), undefined);
});

Deno.test("inventPredicate() never makes free text a constant, only values of value types", () => {
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  // note(b, text) separates, but only through one example's text.
  const pos = [at(store(["note", "b1", "4 iron ingot, 1 redstone"]), { box: "b1" })];
  const neg = [at(store(["note", "b1", "2 planks"]), { box: "b1" })];
  assert.equal(inventPredicate(ctx, pos, neg), undefined);
});

Deno.test("inventPredicate() invents a one-level existential through another object", () => {
  const facts = store(
    ["inside", "b1", "red"],
    ["color", "red", "crimson"],
    ["inside", "b2", "blue"],
    ["color", "blue", "navy"],
  );
  const ctx = { vocab: VOCAB, varTypes: { box: "Box", c: "Color" } };
  assertSeparates(
    ctx,
    "exists(x: Ball, inside(box, x) and color(x, c))",
    [at(facts, { box: "b1", c: "crimson" }), at(facts, { box: "b2", c: "navy" })],
    [at(facts, { box: "b1", c: "navy" }), at(facts, { box: "b3", c: "navy" })],
  );
});

Deno.test("inventPredicate() compares function applications over the scope", () => {
  const ctx = { vocab: VOCAB, varTypes: { ball: "Ball" } };
  const pos = [
    at(store(["wanted", "red", 3], ["stock", "red", 1]), { ball: "red" }),
    at(store(["wanted", "blue", 2]), { ball: "blue" }),
  ];
  const neg = [
    at(store(["wanted", "red", 3], ["stock", "red", 3]), { ball: "red" }),
    at(store(["wanted", "blue", 1], ["stock", "blue", 4]), { ball: "blue" }),
  ];
  assertSeparates(ctx, "count(ball) < want(ball)", pos, neg);
  assertSeparates(ctx, "count(ball) >= want(ball)", neg, pos);
});

Deno.test("inventPredicate() gives up on contradicting examples and says true without negatives", () => {
  const facts = store(["is_open", "b1"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  const ex = at(facts, { box: "b1" });
  assert.equal(inventPredicate(ctx, [ex], [ex]), undefined);
  assert.equal(inventPredicate(ctx, [ex], [])?.text, "true");
});

Deno.test("inventPredicate() is deterministic and ties go to the text", () => {
  // is_open(box) and is_red(box) both separate with one literal of size 2.
  const facts = store(["is_open", "b1"], ["is_red", "b1"]);
  const ctx = { vocab: VOCAB, varTypes: { box: "Box" } };
  const runs = [0, 1, 2].map(() =>
    inventPredicate(ctx, [at(facts, { box: "b1" })], [at(facts, { box: "b2" })])?.text
  );
  assert.deepEqual(runs, ["is_open(box)", "is_open(box)", "is_open(box)"]);
});

dataTest(
  "inventPredicate() separates a closed receptacle from an open empty one in a real transcript",
  () => {
    // act_put_0: go to cabinet 1 (open, nothing of note), then go to cabinet 2 (closed).
    const g = alfworldTrace("act_put_0");
    assert.equal(g.trace.steps[1].observation, "The cabinet 2 is closed.");
    const ctx = { vocab: alfworldVocabulary, varTypes: { r: "Receptacle" } };
    assertSeparates(ctx, "is_closed(r)", [at(g.states[2], { r: "cabinet 2" })], [
      at(g.states[1], { r: "cabinet 1" }),
    ]);
  },
);

dataTest(
  "inventPredicate() finds 'an object of the goal type is in r' across the search steps of all transcripts",
  () => {
    const steps = searchSteps();
    const pos = steps.filter((s) => s.found).map((s) => s.arrived);
    const neg = steps.filter((s) => !s.found).map((s) => s.arrived);
    assert.ok(pos.length >= 12 && neg.length >= 30, `${pos.length} found, ${neg.length} not`);
    const ctx = { vocab: alfworldVocabulary, varTypes: { r: "Receptacle", T: "ItemType" } };
    // (Its speed is measured by `deno task bench`, not asserted here.)
    assertSeparates(ctx, "exists(x: Item, contains(r, x) and is_type(x, T))", pos, neg);
    assertSeparates(ctx, "not exists(x: Item, contains(r, x) and is_type(x, T))", neg, pos);
  },
);
