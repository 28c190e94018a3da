import assert from "node:assert/strict";
import { formatAtom } from "../../dsl/facts.ts";
import { matchAction } from "../../dsl/action.ts";
import { VocabularySchema } from "../../dsl/vocabulary.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import {
  isFamilyMember,
  parseRecipeLine,
  TextCraft,
  TextCraftGrounder,
  textcraftKit,
  textcraftVocabulary,
} from "../../environments/textcraft/mod.ts";
import { dataTest } from "../_data.ts";
import { RECIPES } from "../fixtures/_libraries.ts";

const COMMANDS = [
  "craft 4 oak planks using 1 oak logs",
  "craft 4 spruce planks using 1 spruce logs",
  "craft 4 stick using 2 planks",
  "craft 1 wooden sword using 1 stick, 2 planks",
  "craft 1 iron block using 9 iron ingot",
];

function facts(store: FactStore, ...preds: string[]): string[] {
  return store.atoms().filter((a) => preds.includes(a.pred)).map(formatAtom).sort();
}

Deno.test("parseRecipeLine and isFamilyMember read commands and family names", () => {
  assert.deepEqual(parseRecipeLine("craft 1 wooden sword using 1 stick, 2 planks"), {
    output: "wooden sword",
    count: 1,
    inputs: [{ item: "stick", count: 1 }, { item: "planks", count: 2 }],
  });
  assert.equal(parseRecipeLine("craft stick using 2 planks"), undefined);
  assert.ok(isFamilyMember("oak planks", "planks"));
  assert.ok(isFamilyMember("oak slab", "wooden slabs"));
  assert.ok(isFamilyMember("red wool", "wool"));
  assert.ok(!isFamilyMember("stick", "planks"));
  assert.ok(!isFamilyMember("planks", "planks"));
  assert.ok(!isFamilyMember("blue dye", "green dye"));
  assert.ok(isFamilyMember("crimson stem", "crimson stems"));
});

Deno.test("the grounder turns the first observation into recipe, family and goal facts", async () => {
  const env = new TextCraft();
  const reset = await env.reset({ spec: { goal: "wooden sword", commands: COMMANDS } });
  const g = new TextCraftGrounder().initial(reset.observation, reset.goal);
  assert.equal(g.unknown, undefined);
  const store = new FactStore();
  store.apply(g.delta);
  assert.deepEqual(store.objectsOfType("Recipe"), [1, 2, 3, 4, 5].map((i) => `recipe ${i}`));
  assert.ok(store.objectsOfType("Item").includes("planks"));
  assert.deepEqual(facts(store, "goal", "is_tag", "member"), [
    "goal('wooden sword', 1)",
    "is_tag('planks')",
    "member('oak planks', 'planks')",
    "member('spruce planks', 'planks')",
  ]);
  assert.deepEqual(facts(store, "makes", "produces").filter((l) => l.includes("recipe 4")), [
    "makes('recipe 4', 'wooden sword')",
    "produces('recipe 4', 'wooden sword', 1)",
  ]);
  assert.deepEqual(store.query("needs", ["recipe 4", null, null]).map(formatAtom), [
    "needs('recipe 4', 'stick', 1)",
    "needs('recipe 4', 'planks', 2)",
  ]);
  assert.deepEqual(store.query("uses", ["recipe 3", null]).map(formatAtom), [
    "uses('recipe 3', 'planks')",
  ]);
  assert.deepEqual(facts(store, "craftable"), [
    "craftable('iron block')",
    "craftable('oak planks')",
    "craftable('spruce planks')",
    "craftable('stick')",
    "craftable('wooden sword')",
  ]);
  assert.deepEqual(facts(store, "recipe_inputs"), [
    "recipe_inputs('recipe 1', '1 oak logs')",
    "recipe_inputs('recipe 2', '1 spruce logs')",
    "recipe_inputs('recipe 3', '2 oak planks')",
    "recipe_inputs('recipe 4', '1 stick, 2 oak planks')",
    "recipe_inputs('recipe 5', '9 iron ingot')",
  ]);
});

Deno.test("the grounder follows a scripted episode step by step", async () => {
  const env = new TextCraft();
  const reset = await env.reset({ spec: { goal: "wooden sword", commands: COMMANDS } });
  const grounder = new TextCraftGrounder();
  const store = new FactStore();
  store.apply(grounder.initial(reset.observation, reset.goal).delta);
  const play = async (action: string) => {
    const { observation } = await env.step(action);
    const g = grounder.step(store, action, observation);
    store.apply(g.delta);
    return g;
  };
  const tracked = () => facts(store, "inventory", "unavailable");
  const inputsOf = (r: string) => store.query("recipe_inputs", [r, null]).map((a) => a.args[1]);

  const refused = await play("get 1 oak planks");
  assert.equal(refused.rejected, "Could not find oak planks");
  assert.deepEqual(tracked(), ["unavailable('oak planks')"]);

  assert.equal((await play("get 1 spruce logs")).rejected, undefined);
  assert.deepEqual(tracked(), ["inventory('spruce logs', 1)", "unavailable('oak planks')"]);

  const crafted = await play("craft 4 spruce planks using 1 spruce logs");
  assert.deepEqual(crafted.delta.remove.map(formatAtom), [
    "inventory('spruce logs', 1)",
    "recipe_inputs('recipe 3', '2 oak planks')",
    "recipe_inputs('recipe 4', '1 stick, 2 oak planks')",
  ]);
  assert.deepEqual(tracked(), ["inventory('spruce planks', 4)", "unavailable('oak planks')"]);
  assert.deepEqual(inputsOf("recipe 3"), ["2 spruce planks"]);
  assert.deepEqual(inputsOf("recipe 4"), ["1 stick, 2 spruce planks"]);

  const family = await play("craft 4 stick using 2 planks");
  assert.equal(family.rejected, "Could not find enough items to craft minecraft:stick");
  assert.deepEqual([family.delta.add, family.delta.remove], [[], []]);

  await play("craft 4 stick using 2 spruce planks");
  assert.deepEqual(tracked(), [
    "inventory('spruce planks', 2)",
    "inventory('stick', 4)",
    "unavailable('oak planks')",
  ]);
  assert.deepEqual(inputsOf("recipe 4"), ["1 stick, 2 spruce planks"]);

  const listing = await play("inventory");
  assert.deepEqual([listing.delta.add, listing.delta.remove, listing.rejected], [
    [],
    [],
    undefined,
  ]);

  await play("craft 1 wooden sword using 1 stick, 2 spruce planks");
  assert.deepEqual(tracked(), [
    "inventory('stick', 3)",
    "inventory('wooden sword', 1)",
    "unavailable('oak planks')",
  ]);
  assert.deepEqual(inputsOf("recipe 4"), ["1 stick, 2 oak planks"]);

  assert.equal((await play("dance")).rejected, "Could not execute dance");
  assert.equal((await play("craft 1 stick using planks")).rejected, "Wrong item format: planks");
  const wrong = await play("craft 4 stick using 1 stick");
  assert.match(wrong.rejected ?? "", /^Could not find a valid recipe for ItemTagWithCount/);
  assert.equal(store.has({ pred: "unavailable", args: ["stick"] }), false);
});

Deno.test("the grounder replaces the inventory from a listing and reports unknown replies", () => {
  const grounder = new TextCraftGrounder();
  const store = new FactStore();
  store.apply(
    grounder.initial(`Crafting commands:\n${COMMANDS.join("\n")}\n\nGoal: craft stick.`, "")
      .delta,
  );
  assert.ok(store.has({ pred: "goal", args: ["stick", 1] }));
  store.apply(grounder.step(store, "get 3 oak logs", "Got 3 oak logs").delta);
  const listed = grounder.step(store, "inventory", "Inventory: [stick] (2) [oak planks] (2) ");
  store.apply(listed.delta);
  assert.deepEqual(facts(store, "inventory"), [
    "inventory('oak planks', 2)",
    "inventory('stick', 2)",
  ]);
  store.apply(grounder.step(store, "inventory", "Inventory: You are not carrying anything.").delta);
  assert.deepEqual(facts(store, "inventory"), []);
  const odd = grounder.step(store, "look", "Nothing happens.");
  assert.deepEqual(odd.unknown, ["Nothing happens."]);
  assert.equal(odd.rejected, undefined);
});

Deno.test("a fetched family name stops being a family and a fetch clears unavailable", () => {
  const grounder = new TextCraftGrounder();
  const store = new FactStore();
  const obs = [
    "Crafting commands:",
    "craft 1 barrel using 6 planks, 2 wooden slabs",
    "craft 6 oak slab using 3 oak planks",
    "craft 4 oak planks using 1 oak logs",
    "",
    "Goal: craft barrel.",
  ].join("\n");
  store.apply(grounder.initial(obs, "craft barrel").delta);
  assert.deepEqual(facts(store, "is_tag", "member"), [
    "is_tag('planks')",
    "is_tag('wooden slabs')",
    "member('oak planks', 'planks')",
    "member('oak slab', 'wooden slabs')",
  ]);
  assert.deepEqual(store.query("recipe_inputs", ["recipe 1", null]).map((a) => a.args[1]), [
    "6 oak planks, 2 oak slab",
  ]);
  store.apply(grounder.step(store, "get 2 oak logs", "Could not find oak logs").delta);
  assert.ok(store.has({ pred: "unavailable", args: ["oak logs"] }));
  store.apply(grounder.step(store, "get 2 oak logs", "Got 2 oak logs").delta);
  assert.ok(!store.has({ pred: "unavailable", args: ["oak logs"] }));
  store.apply(grounder.step(store, "get 2 wooden slabs", "Got 2 wooden slabs").delta);
  assert.deepEqual(facts(store, "is_tag", "member"), [
    "is_tag('planks')",
    "member('oak planks', 'planks')",
  ]);
  assert.deepEqual(store.query("recipe_inputs", ["recipe 1", null]).map((a) => a.args[1]), [
    "6 oak planks, 2 wooden slabs",
  ]);
});

Deno.test("the vocabulary is valid and its templates read the three actions", () => {
  VocabularySchema.parse(textcraftVocabulary);
  assert.deepEqual(matchAction(textcraftVocabulary, "get 2 oak logs"), {
    action: "get",
    args: { n: 2, item: "oak logs" },
  });
  assert.deepEqual(matchAction(textcraftVocabulary, "craft 4 stick using 2 oak planks"), {
    action: "craft",
    args: { n: 4, item: "stick", inputs: "2 oak planks" },
  });
  assert.deepEqual(matchAction(textcraftVocabulary, "inventory"), {
    action: "inventory",
    args: {},
  });
  const fn = textcraftVocabulary.functions.count;
  assert.deepEqual([fn.predicate, fn.default], ["inventory", 0]);
});

Deno.test("TextCraftGrounder does not take an output made from an ingredient for a member of it", () => {
  const observation = [
    "Crafting commands:",
    "craft 1 mossy cobblestone using 1 cobblestone, 1 vine",
    "craft 6 cobblestone wall using 6 cobblestone",
    "craft 4 stick using 2 planks",
    "craft 4 oak planks using 1 oak logs",
    "",
    "Goal: craft cobblestone wall.",
  ].join("\n");
  const facts = new FactStore();
  facts.apply(new TextCraftGrounder().initial(observation, "craft cobblestone wall").delta);
  assert.equal(facts.has({ pred: "is_tag", args: ["cobblestone"] }), false);
  assert.equal(facts.has({ pred: "member", args: ["mossy cobblestone", "cobblestone"] }), false);
  assert.equal(facts.has({ pred: "is_tag", args: ["planks"] }), true);
  assert.equal(facts.has({ pred: "member", args: ["oak planks", "planks"] }), true);
});

dataTest("with the recipe data, a listed name is a family only when the data says so", () => {
  const listing = [
    "Crafting commands:",
    "craft 6 prismarine slab using 3 prismarine",
    "craft 1 dark prismarine using 8 prismarine shard, 1 black dye",
    "craft 4 oak planks using 1 oak logs",
    "craft 1 crafting table using 4 planks",
    "",
    "Goal: craft prismarine slab.",
  ].join("\n");
  const facts = (grounder: TextCraftGrounder) =>
    grounder.initial(listing, "craft prismarine slab").delta.add.map(formatAtom);
  // By the words alone, prismarine looks like the family of dark prismarine.
  const guessed = facts(new TextCraftGrounder());
  assert.ok(guessed.includes("member('dark prismarine', 'prismarine')"));
  // The full recipe set knows prismarine as an item, and planks as a family.
  const known = facts(textcraftKit.grounder({ recipes: RECIPES }) as TextCraftGrounder);
  assert.ok(!known.includes("is_tag('prismarine')"), known.join(" "));
  assert.ok(!known.some((f) => f.startsWith("member('dark prismarine'")));
  assert.ok(known.includes("is_tag('planks')"));
  assert.ok(known.includes("member('oak planks', 'planks')"));
});
