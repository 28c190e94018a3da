import assert from "node:assert/strict";
import { matchAction } from "../../dsl/action.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { actionRelations } from "../../compiler/action_relations.ts";
import { evalText, liftAction } from "../../compiler/operators/lifting.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { atom, facts } from "./_induce_toy.ts";

/** Driving from one place to another through a third, adjacent to both. */
const ROADS: Vocabulary = {
  name: "roads",
  types: { place: { kind: "object" } },
  predicates: {
    adjacent: { params: ["place", "place"] },
    at: { params: ["place"] },
    scenic: { params: ["place"] },
  },
  functions: {},
  actions: {
    drive: {
      template: "drive {from} {to} {thru}",
      params: [
        { name: "from", type: "place" },
        { name: "to", type: "place" },
        { name: "thru", type: "place" },
      ],
    },
  },
};

const OBJECTS = { a: "place", b: "place", c: "place", d: "place", e: "place" };

/** A line a - b - c - d, e off the road; c is scenic. */
const LINE = facts(
  OBJECTS,
  ["adjacent", "a", "b"],
  ["adjacent", "b", "c"],
  ["adjacent", "c", "d"],
  ["at", "a"],
  ["scenic", "c"],
);

Deno.test("actionRelations() reads the relations among an action's parameters from its rules", () => {
  const drive = (text: string, from: string, to: string) => ({
    facts: LINE,
    action: text,
    ok: true,
    delta: { add: [atom(["at", to])], remove: [atom(["at", from])] },
  });
  const model = ActionModel.learn(ROADS, [drive("drive a c b", "a", "c")]);
  const relations = actionRelations(model, ROADS).get("drive") ?? [];
  // Unary rules (`at(from)`, `scenic(to)`) are not relations among parameters.
  assert.deepEqual(
    relations.map((r) => `${r.pred}(${r.params.join(", ")})`).sort(),
    ["adjacent(from, thru)", "adjacent(thru, to)"],
  );
});

Deno.test("liftAction() keeps a destination reachable through an argument bound after it", () => {
  // The expert drove from a to c (through b); c is the only scenic place.
  const m = matchAction(ROADS, "drive a c b")!;
  const occurrence = {
    member: 0,
    step: { index: 0, action: m.action, args: m.args, text: "drive a c b" },
    facts: LINE,
    grounded: { action: "drive a c b", observation: "ok", delta: { add: [], remove: [] } },
    scope: { here: "a" },
    landmark: false,
  };
  const lifted = liftAction(
    "drive",
    [occurrence],
    { types: { here: "place" }, bound: new Map() },
    ROADS,
    (base) => base,
    [{ pred: "adjacent", params: ["from", "thru"] }, { pred: "adjacent", params: ["thru", "to"] }],
  );
  const bindTo = lifted.stmts.find((s) => s.kind === "bind" && s.var === "to");
  assert.ok(bindTo && bindTo.kind === "bind");
  assert.equal(
    bindTo.expr,
    "select_one(x: place, exists(x_thru: place, adjacent(here, x_thru) and adjacent(x_thru, x)) " +
      "and scenic(x))",
  );
  // Another map: of two scenic places, the one two roads away (e), not c off the road.
  const other = facts(
    OBJECTS,
    ["adjacent", "a", "b"],
    ["adjacent", "b", "e"],
    ["adjacent", "c", "d"],
    ["scenic", "c"],
    ["scenic", "e"],
  );
  assert.equal(evalText(bindTo.expr, other, { here: "a" }, ROADS), "e");
  assert.equal(evalText("select_one(x: place, scenic(x))", other, { here: "a" }, ROADS), "c");
});
