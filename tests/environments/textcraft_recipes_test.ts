import { dataTest, dataUrl } from "../_data.ts";
import assert from "node:assert/strict";
import {
  BUILTIN_RECIPES,
  loadRecipeBook,
  parseRecipeJson,
  RecipeBook,
  recipeText,
} from "../../environments/textcraft/mod.ts";

const FULL = dataUrl("textcraft/recipes/");

const shaped = (out: string, pattern: string[], key: Record<string, unknown>, extra = {}) => ({
  type: "minecraft:crafting_shaped",
  pattern,
  key,
  result: { item: `minecraft:${out}` },
  ...extra,
});
const item = (id: string) => ({ item: `minecraft:${id}` });
const tag = (id: string) => ({ tag: `minecraft:${id}` });

dataTest("the full recipe set loads with the benchmark's stick and plank recipes", () => {
  const book = loadRecipeBook(FULL);
  assert.deepEqual(book.itemRecipes("minecraft:stick").map(recipeText), [
    "craft 4 stick using 2 planks",
    "craft 1 stick using 2 bamboo",
  ]);
  assert.deepEqual(book.itemRecipes("minecraft:oak_planks")[0].inputs, [
    { id: "minecraft:oak_logs", isTag: false, count: 1 },
  ]);
  assert.ok(book.isTag("minecraft:planks"));
  assert.equal(book.tagOf("minecraft:oak_planks"), "minecraft:planks");
  assert.ok(book.membersOf("minecraft:planks").includes("minecraft:crimson_planks"));
  assert.ok(book.isFetchable("minecraft:oak_logs") && !book.isTag("minecraft:oak_logs"));
  assert.equal(book.minDepth("minecraft:oak_planks"), 1);
  assert.equal(book.minDepth("minecraft:oak_logs"), 0);
  // A family whose members have no recipes is a plain item: wooden slabs (group wooden_slab).
  assert.deepEqual(book.itemRecipes("minecraft:barrel").map(recipeText), [
    "craft 1 barrel using 6 planks, 2 wooden slabs",
  ]);
  assert.ok(book.isFetchable("minecraft:wooden_slabs"));
  for (let d = 1; d <= 4; d++) assert.ok(book.itemsAtDepth(d).length > 0, `depth ${d}`);
});

dataTest("the full set skips smelting and block recipes", () => {
  const book = loadRecipeBook(FULL);
  // charcoal is only smelted; iron ingots also come out of iron blocks (a block recipe).
  assert.equal(book.itemRecipes("minecraft:charcoal").length, 0);
  const ingot = book.itemRecipes("minecraft:iron_ingot");
  assert.ok(ingot.length > 0);
  assert.ok(ingot.every((r) => r.inputs.every((i) => !i.id.endsWith("_block"))));
  assert.deepEqual(book.itemRecipes("minecraft:iron_block").map(recipeText), [
    "craft 1 iron block using 9 iron ingot",
  ]);
});

Deno.test("shaped counts come from the pattern and lists take their first choice", () => {
  const r = parseRecipeJson("torch.json", {
    ...shaped("torch", ["X", "#"], { "#": item("stick"), X: [item("coal"), item("charcoal")] }),
    result: { item: "minecraft:torch", count: 4 },
  });
  assert.deepEqual(r?.inputs, [
    { id: "minecraft:stick", isTag: false, count: 1 },
    { id: "minecraft:coal", isTag: false, count: 1 },
  ]);
  assert.equal(r?.count, 4);
  const ladder = parseRecipeJson(
    "l.json",
    shaped("ladder", ["# #", "###", "# #"], { "#": item("stick") }),
  );
  assert.equal(ladder?.inputs[0].count, 7);
});

Deno.test("shapeless ingredients merge with counts; string results count one; others are skipped", () => {
  const r = parseRecipeJson("book.json", {
    type: "minecraft:crafting_shapeless",
    ingredients: [item("paper"), item("leather"), item("paper"), [tag("planks"), item("x")]],
    result: "minecraft:book",
  });
  assert.deepEqual(r, {
    file: "book.json",
    output: "minecraft:book",
    count: 1,
    group: undefined,
    inputs: [
      { id: "minecraft:paper", isTag: false, count: 2 },
      { id: "minecraft:leather", isTag: false, count: 1 },
      { id: "minecraft:planks", isTag: true, count: 1 },
    ],
  });
  assert.equal(parseRecipeJson("s.json", { type: "minecraft:smelting", result: "x" }), undefined);
  assert.throws(
    () => parseRecipeJson("bad.json", { type: "minecraft:crafting_shaped", pattern: ["#"] }),
    /Cannot read recipe file "bad.json"/,
  );
});

Deno.test("a recipe whose input already depends on its output is skipped", () => {
  const book = RecipeBook.fromFiles([
    { name: "a.json", json: shaped("a", ["#"], { "#": item("b") }) },
    { name: "b.json", json: shaped("b", ["##"], { "#": item("a") }) },
  ]);
  assert.equal(book.itemRecipes("minecraft:a").length, 1);
  assert.equal(book.itemRecipes("minecraft:b").length, 0);
  assert.ok(book.isFetchable("minecraft:b"));
  assert.deepEqual([book.minDepth("minecraft:a"), book.minDepth("minecraft:b")], [1, 0]);
});

Deno.test("longer cycles the original does not catch still give finite loading and no goals", () => {
  // As in the original, dependencies are recorded when a recipe is added, so a
  // cycle closed through a later file survives; depths must not loop on it.
  const book = RecipeBook.fromFiles([
    { name: "a.json", json: shaped("a", ["#"], { "#": item("b") }) },
    { name: "b.json", json: shaped("b", ["#"], { "#": item("c") }) },
    { name: "c.json", json: shaped("c", ["#"], { "#": item("a") }) },
  ]);
  assert.equal(book.itemRecipes("minecraft:c").length, 1);
  assert.equal(book.minDepth("minecraft:a"), Infinity);
  assert.deepEqual([1, 2, 3, 4].flatMap((d) => book.itemsAtDepth(d)), []);
});

Deno.test("groups make families, and a memberless tag becomes an item", () => {
  const book = RecipeBook.fromFiles([
    { name: "p.json", json: shaped("red_plank", ["#"], { "#": item("log") }, { group: "plank" }) },
    { name: "q.json", json: shaped("thing", ["##", "%"], { "#": tag("plank"), "%": tag("dust") }) },
    { name: "r.json", json: shaped("same", ["#"], { "#": item("log") }, { group: "same" }) },
  ]);
  assert.ok(book.isTag("minecraft:plank"));
  assert.equal(book.tagOf("minecraft:red_plank"), "minecraft:plank");
  assert.deepEqual(book.itemRecipes("minecraft:thing")[0].inputs, [
    { id: "minecraft:plank", isTag: true, count: 2 },
    { id: "minecraft:dust", isTag: false, count: 1 },
  ]);
  assert.ok(book.isItem("minecraft:dust") && !book.isTag("minecraft:dust"));
  assert.equal(book.tagOf("minecraft:same"), undefined);
  assert.equal(book.minDepth("minecraft:plank"), 1);
  assert.equal(book.minDepth("minecraft:thing"), 2);
});

Deno.test("the built-in recipe set has tasks of every depth 1-4 and the families it advertises", () => {
  const book = loadRecipeBook(BUILTIN_RECIPES);
  const counts = [1, 2, 3, 4].map((d) => book.itemsAtDepth(d).length);
  assert.ok(counts.every((n) => n >= 3), `depth counts ${counts}`);
  assert.deepEqual(book.membersOf("minecraft:wooden_slabs"), [
    "minecraft:birch_slab",
    "minecraft:oak_slab",
    "minecraft:spruce_slab",
  ]);
  assert.ok(book.isTag("minecraft:wool") && book.isTag("minecraft:planks"));
  assert.equal(book.itemRecipes("minecraft:charcoal").length, 0);
  assert.ok(book.isFetchable("minecraft:iron_ingot"));
});

Deno.test("loading a missing directory fails with the path in the message", () => {
  assert.throws(() => loadRecipeBook("/nonexistent/recipes"), /"\/nonexistent\/recipes"/);
});
