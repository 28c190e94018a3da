import assert from "node:assert/strict";
import { FactStore } from "../../runtime/fact_store.ts";

Deno.test("FactStore.query() matches patterns with wildcards in insertion order", () => {
  const facts = new FactStore([
    { pred: "contains", args: ["fridge 1", "apple 1"] },
    { pred: "contains", args: ["table 1", "mug 1"] },
    { pred: "contains", args: ["fridge 1", "egg 1"] },
    { pred: "is_open", args: ["fridge 1"] },
  ]);
  assert.deepEqual(
    facts.query("contains", ["fridge 1", null]).map((a) => a.args[1]),
    ["apple 1", "egg 1"],
  );
  assert.deepEqual(facts.query("contains", [null, "mug 1"]).map((a) => a.args[0]), ["table 1"]);
  assert.equal(facts.query("contains", []).length, 3);
  assert.deepEqual(facts.query("missing", [null]), []);
  assert.deepEqual(facts.query("contains", ["sink 1", null]), []);
});

Deno.test("FactStore.apply() removes before it adds and keeps the index consistent", () => {
  const facts = new FactStore([{ pred: "inventory", args: ["stick", 4] }]);
  facts.apply({
    remove: [{ pred: "inventory", args: ["stick", 4] }],
    add: [{ pred: "inventory", args: ["stick", 8] }],
  });
  assert.equal(facts.has({ pred: "inventory", args: ["stick", 4] }), false);
  assert.deepEqual(facts.query("inventory", ["stick", null]).map((a) => a.args[1]), [8]);
  assert.deepEqual(facts.query("inventory", [null, 4]), []);
  assert.equal(facts.size, 1);
});

Deno.test("FactStore tells numbers from strings with the same text", () => {
  const facts = new FactStore([{ pred: "p", args: [1] }]);
  assert.equal(facts.has({ pred: "p", args: ["1"] }), false);
  assert.equal(facts.query("p", ["1"]).length, 0);
  assert.equal(facts.query("p", [1]).length, 1);
});

Deno.test("FactStore keeps declared objects by type in first-seen order and retypes them", () => {
  const facts = new FactStore([], { "apple 1": "Item", "fridge 1": "Receptacle" });
  facts.declare("mug 1", "Item");
  assert.deepEqual(facts.objectsOfType("Item"), ["apple 1", "mug 1"]);
  facts.declare("apple 1", "Food");
  assert.deepEqual(facts.objectsOfType("Item"), ["mug 1"]);
  assert.equal(facts.typeOf("apple 1"), "Food");
});

Deno.test("FactStore.clone() is independent of the original", () => {
  const facts = new FactStore([{ pred: "holds", args: ["apple 1"] }], { "apple 1": "Item" });
  const copy = facts.clone();
  copy.remove({ pred: "holds", args: ["apple 1"] });
  assert.equal(facts.has({ pred: "holds", args: ["apple 1"] }), true);
  assert.deepEqual(copy.toLines(), []);
  assert.deepEqual(facts.toLines(), ["holds('apple 1')"]);
});

Deno.test("FactStore.clone() answers as the original, in its order, and changes apart from it", () => {
  const facts = new FactStore([
    { pred: "on", args: ["a", "b"] },
    { pred: "on", args: ["c", "a"] },
    { pred: "clear", args: ["c"] },
    { pred: "handempty", args: [] },
  ], { a: "Block", b: "Block", c: "Block" });
  facts.remove({ pred: "on", args: ["a", "b"] });
  facts.add({ pred: "on", args: ["a", "b"] });
  const copy = facts.clone();
  assert.deepEqual(copy.atoms(), facts.atoms());
  assert.equal(copy.fingerprint(), facts.fingerprint());
  // Insertion order survives: `on(a, b)` was added again last.
  assert.deepEqual(copy.query("on", [null, null]).map((a) => a.args[0]), ["c", "a"]);
  assert.deepEqual(copy.query("on", ["a", null]).map((a) => a.args[1]), ["b"]);
  assert.deepEqual(copy.objectsOfType("Block"), ["a", "b", "c"]);
  copy.apply({
    remove: [{ pred: "on", args: ["c", "a"] }, { pred: "handempty", args: [] }],
    add: [{ pred: "holding", args: ["c"] }],
    objects: { d: "Block" },
  });
  assert.deepEqual(facts.query("on", ["c", null]).map((a) => a.args[1]), ["a"]);
  assert.equal(facts.has({ pred: "handempty", args: [] }), true);
  assert.equal(facts.has({ pred: "holding", args: ["c"] }), false);
  assert.deepEqual(facts.objectsOfType("Block"), ["a", "b", "c"]);
  assert.deepEqual(copy.objectsOfType("Block"), ["a", "b", "c", "d"]);
  assert.notEqual(copy.fingerprint(), facts.fingerprint());
  // Undone, the copy is the original's set of facts again.
  copy.apply({
    remove: [{ pred: "holding", args: ["c"] }],
    add: [{ pred: "on", args: ["c", "a"] }, { pred: "handempty", args: [] }],
  });
  assert.equal(copy.fingerprint(), facts.fingerprint());
});

Deno.test("FactStore.objectsOfType() hands out the same array until an object of the type is declared", () => {
  const facts = new FactStore([], { a: "Block", t: "Table" });
  const blocks = facts.objectsOfType("Block");
  const tables = facts.objectsOfType("Table");
  assert.equal(facts.objectsOfType("Block"), blocks);
  facts.add({ pred: "clear", args: ["a"] });
  assert.equal(facts.objectsOfType("Block"), blocks);
  facts.declare("b", "Block");
  assert.deepEqual(facts.objectsOfType("Block"), ["a", "b"]);
  assert.deepEqual(blocks, ["a"]);
  assert.equal(facts.objectsOfType("Table"), tables);
  // Retyping changes the lists of both types.
  facts.declare("a", "Table");
  assert.deepEqual(facts.objectsOfType("Block"), ["b"]);
  assert.deepEqual(facts.objectsOfType("Table"), ["t", "a"]);
});

Deno.test("FactStore.atomsAbout() finds each atom with a value among its arguments once", () => {
  const facts = new FactStore([
    { pred: "on", args: ["a", "b"] },
    { pred: "on", args: ["b", "c"] },
    { pred: "same", args: ["a", "a"] },
    { pred: "clear", args: ["c"] },
  ]);
  const about = (v: string) => facts.atomsAbout(v).map((a) => `${a.pred}(${a.args})`).sort();
  assert.deepEqual(about("a"), ["on(a,b)", "same(a,a)"]);
  assert.deepEqual(about("b"), ["on(a,b)", "on(b,c)"]);
  facts.remove({ pred: "on", args: ["b", "c"] });
  assert.deepEqual(about("c"), ["clear(c)"]);
  assert.deepEqual(about("z"), []);
});

Deno.test("FactStore tells strings from numbers, finds atoms only at their arity and refuses a second arity", () => {
  const facts = new FactStore([
    { pred: "count", args: ["a", 1] },
    { pred: "count", args: ["b", "1"] },
    { pred: "flag", args: [] },
  ]);
  assert.equal(facts.has({ pred: "count", args: ["a", 1] }), true);
  assert.equal(facts.has({ pred: "count", args: ["a", "1"] }), false);
  assert.equal(facts.has({ pred: "count", args: ["b", "1"] }), true);
  assert.equal(facts.has({ pred: "count", args: ["a"] }), false);
  assert.equal(facts.has({ pred: "count", args: ["a", 1, 2] }), false);
  assert.equal(facts.has({ pred: "flag", args: [] }), true);
  assert.throws(
    () => facts.add({ pred: "count", args: ["c"] }),
    /count\(.*c.*\): "count" already holds of atoms with 2 arguments/,
  );
  // Removing prunes the trie; the atom can come back, last in order.
  assert.equal(facts.remove({ pred: "count", args: ["a", 1] }), true);
  assert.equal(facts.remove({ pred: "count", args: ["a", 1] }), false);
  assert.equal(facts.has({ pred: "count", args: ["a", 1] }), false);
  facts.add({ pred: "count", args: ["a", 1] });
  assert.deepEqual(facts.query("count", [null, null]).map((a) => a.args[0]), ["b", "a"]);
  assert.deepEqual(facts.query("count", ["a", null]).map((a) => a.args[1]), [1]);
  assert.deepEqual(facts.query("count", ["z", null]), []);
  assert.equal(facts.size, 3);
});

Deno.test("fingerprintAfter() is the fingerprint the store has once the delta is applied", () => {
  const facts = new FactStore([
    { pred: "on", args: ["a", "b"] },
    { pred: "clear", args: ["a"] },
  ]);
  const deltas = [
    { add: [{ pred: "holding", args: ["a"] }], remove: [{ pred: "on", args: ["a", "b"] }] },
    // Removing what is absent, adding what is present, both at once, twice over.
    { add: [{ pred: "clear", args: ["a"] }], remove: [{ pred: "on", args: ["b", "a"] }] },
    {
      add: [{ pred: "on", args: ["a", "b"] }, { pred: "on", args: ["a", "b"] }],
      remove: [{ pred: "on", args: ["a", "b"] }, { pred: "clear", args: ["a"] }],
    },
  ];
  for (const delta of deltas) {
    const copy = facts.clone();
    copy.apply(delta);
    assert.equal(facts.fingerprintAfter(delta), copy.fingerprint(), JSON.stringify(delta));
  }
  assert.notEqual(facts.fingerprintAfter(deltas[0]), facts.fingerprint());
  assert.equal(facts.fingerprintAfter(deltas[1]), facts.fingerprint());
});
