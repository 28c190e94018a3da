import assert from "node:assert/strict";
import { product } from "../../runtime/learn/product.ts";

Deno.test("product: every tuple in lexicographic order, the first `cap` of them when capped", () => {
  assert.deepEqual(product([["a", "b"], ["x", "y", "z"]]), [
    ["a", "x"],
    ["a", "y"],
    ["a", "z"],
    ["b", "x"],
    ["b", "y"],
    ["b", "z"],
  ]);
  assert.deepEqual(product([["a", "b"], ["x", "y", "z"]], 4), [
    ["a", "x"],
    ["a", "y"],
    ["a", "z"],
    ["b", "x"],
  ]);
  assert.deepEqual(product([]), [[]]);
  assert.deepEqual(product([["a"], []]), []);
});
