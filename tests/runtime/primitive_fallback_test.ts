import assert from "node:assert/strict";
import type { FactView } from "../../dsl/facts.ts";
import { findPrimitivePlan } from "../../runtime/exec/primitive_fallback.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { learnActionModel } from "../../runtime/learn/action_model.ts";
import { toyGrounder, toySetup, toyVocab } from "./_toy.ts";

async function learnedModel() {
  const transitions = [];
  for (const open of [true, false]) {
    const { env, facts } = await toySetup([{ id: "b1", color: "red", open }]);
    for (const action of ["take b1", "open b1", "take b1"]) {
      const before = facts.clone();
      const r = await env.step(action);
      const g = toyGrounder.step(facts, action, r.observation);
      facts.apply(g.delta);
      transitions.push({ facts: before, action, ok: g.rejected === undefined, delta: g.delta });
    }
  }
  return learnActionModel(toyVocab, transitions);
}

Deno.test("findPrimitivePlan() finds the shortest predicted plan that reaches the goal", async () => {
  const model = await learnedModel();
  const { facts } = await toySetup([
    { id: "b2", color: "blue", open: true },
    { id: "b3", color: "red", open: false },
  ]);
  const goal = (f: FactView) => f.has({ pred: "taken", args: ["b3"] });
  assert.deepEqual(findPrimitivePlan(toyVocab, facts, model, ["b2", "b3"], goal), [
    "open b3",
    "take b3",
  ]);
  // Nothing is changed by the search itself.
  assert.equal(facts.has({ pred: "is_open", args: ["b3"] }), false);
});

Deno.test("findPrimitivePlan() respects the depth bound and learned preconditions", async () => {
  const model = await learnedModel();
  const { facts } = await toySetup([{ id: "b3", color: "red", open: false }]);
  const goal = (f: FactView) => f.has({ pred: "taken", args: ["b3"] });
  assert.equal(findPrimitivePlan(toyVocab, facts, model, ["b3"], goal, { maxDepth: 1 }), undefined);
  assert.equal(findPrimitivePlan(toyVocab, facts, model, [], goal), undefined);
});

Deno.test("findPrimitivePlan() tries for an amount the numbers the facts state of the objects", () => {
  const vocab = {
    name: "store",
    types: { Item: { kind: "object" as const } },
    predicates: {
      needs: { params: ["Item", "Num"] },
      stock: { params: ["Item", "Num"] },
    },
    functions: {},
    actions: {
      fetch: {
        template: "fetch {n} {item}",
        params: [{ name: "n", type: "Num" }, { name: "item", type: "Item" }],
      },
    },
  };
  const facts = new FactStore([{ pred: "needs", args: ["nail", 9] }], { nail: "Item" });
  const model = {
    unmet: () => [],
    // Fetching adds the amount to the stock.
    predict: (_f: FactView, action: string) => {
      const m = /^fetch (\d+) (\w+)$/.exec(action)!;
      return { add: [{ pred: "stock", args: [m[2], Number(m[1])] }], remove: [] };
    },
  };
  const nine = (f: FactView) => f.query("stock", ["nail", null]).some((a) => a.args[1] === 9);
  assert.deepEqual(findPrimitivePlan(vocab, facts, model, ["nail"], nine), ["fetch 9 nail"]);
});

Deno.test("findPrimitivePlan() with what each action's effects vouch for moves a thing only from where it is", () => {
  const vocab = {
    name: "slide",
    types: { Thing: { kind: "object" as const }, Place: { kind: "object" as const } },
    predicates: { at: { params: ["Thing", "Place"] } },
    functions: {},
    actions: {
      move: {
        template: "move {x} {from} {to}",
        params: [
          { name: "x", type: "Thing" },
          { name: "from", type: "Place" },
          { name: "to", type: "Place" },
        ],
      },
    },
  };
  const objects = { disc: "Thing", p1: "Place", p2: "Place", p3: "Place" };
  const at = (x: string, p: string) => ({ pred: "at", args: [x, p] });
  // Demonstrations alone: every move accepted, none refused, so no rule is confirmed.
  const transitions = [["p1", "p2"], ["p2", "p3"], ["p3", "p1"]].map(([from, to]) => ({
    facts: new FactStore([at("disc", from)], objects),
    action: `move disc ${from} ${to}`,
    ok: true,
    delta: { add: [at("disc", to)], remove: [at("disc", from)] },
  }));
  const model = learnActionModel(vocab, transitions);
  const facts = new FactStore([at("disc", "p1")], objects);
  const goal = (f: FactView) => f.has(at("disc", "p3"));
  // The confirmed rules allow any move: the first the search tries moves the
  // disc from where it is not (the environment would refuse it).
  const objectsTried = ["disc", "p3", "p1"];
  assert.deepEqual(findPrimitivePlan(vocab, facts, model, objectsTried, goal), [
    "move disc p3 p3",
  ]);
  // A move removes where the disc was: it must have been there.
  assert.deepEqual(
    findPrimitivePlan(vocab, facts, model.assumingConsumed(), objectsTried, goal),
    ["move disc p1 p3"],
  );
});
