import assert from "node:assert/strict";
import {
  RecipeKnowledge,
  recipeText,
  recipeTree,
  TextCraft,
  textcraftTasks,
} from "../../environments/textcraft/mod.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { RecipeBook } from "../../environments/textcraft/recipe_book.ts";
import { idToName } from "../../environments/textcraft/names.ts";

const STICK_SPEC = {
  goal: "stick",
  commands: [
    "craft 4 oak planks using 1 oak logs",
    "craft 4 stick using 2 planks",
  ],
};

async function stickEnv(): Promise<TextCraft> {
  const env = new TextCraft();
  await env.reset({ spec: STICK_SPEC });
  return env;
}

async function replies(env: TextCraft, actions: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const a of actions) out.push((await env.step(a)).observation);
  return out;
}

Deno.test("get replies with the benchmark's texts for basic, craftable, tag and unknown items", async () => {
  const env = await stickEnv();
  assert.deepEqual(
    await replies(env, ["get 2 oak logs", "get 1 oak planks", "get 3 planks", "get 1 diamond"]),
    [
      "Got 2 oak logs",
      "Could not find oak planks",
      "Could not find planks",
      "Could not find diamond",
    ],
  );
  assert.deepEqual([...env.inventory()], [["minecraft:oak_logs", 2]]);
});

Deno.test("craft yields the recipe's output count whatever count is typed", async () => {
  const env = await stickEnv();
  const out = await replies(env, ["get 1 oak logs", "craft 1 oak planks using 1 oak logs"]);
  assert.equal(out[1], "Crafted 4 minecraft:oak_planks");
  assert.deepEqual([...env.inventory()], [["minecraft:oak_planks", 4]]);
});

Deno.test("craft refuses missing items, family names as inputs and wrong formats", async () => {
  const env = await stickEnv();
  assert.deepEqual(await replies(env, ["craft 4 stick using 2 oak planks"]), [
    "Could not find enough items to craft minecraft:stick",
  ]);
  await replies(env, ["get 1 oak logs", "craft 4 oak planks using 1 oak logs"]);
  assert.deepEqual(
    await replies(env, [
      "craft 4 stick using 2 planks",
      "craft 4 stick using oak planks",
      "craft 4 stick using 2 oak planks,",
      "craft 1 planks using 5 diamond",
    ]),
    [
      "Could not find enough items to craft minecraft:stick",
      "Wrong item format: oak planks",
      "Wrong item format: ",
      "Could not find enough items to craft None",
    ],
  );
  assert.deepEqual([...env.inventory()], [["minecraft:oak_planks", 4]]);
});

Deno.test("craft with held items but no matching recipe prints the original's Python repr", async () => {
  const env = await stickEnv();
  await replies(env, ["get 3 oak logs", "craft 4 oak planks using 1 oak logs"]);
  assert.deepEqual(
    await replies(env, [
      "craft 4 stick using 1 oak planks",
      "craft 4 stick using 2 oak planks, 1 oak logs",
      "craft stick using 3 oak planks",
      "craft 4 planks using 1 oak logs",
    ]),
    [
      "Could not find a valid recipe for ItemTagWithCount(item_tag=ItemTag(tag=None, item_id='minecraft:stick'), count=4)",
      "Could not find a valid recipe for ItemTagWithCount(item_tag=ItemTag(tag=None, item_id='minecraft:stick'), count=4)",
      "Could not find a valid recipe for ItemTagWithCount(item_tag=ItemTag(tag=None, item_id='minecraft:stick'), count=1)",
      "Could not find a valid recipe for ItemTagWithCount(item_tag=ItemTag(tag='minecraft:planks', item_id=None), count=4)",
    ],
  );
  assert.deepEqual([...env.inventory()], [["minecraft:oak_logs", 2], ["minecraft:oak_planks", 4]]);
});

Deno.test("inventory lists items in insertion order with a trailing space, or says it is empty", async () => {
  const env = await stickEnv();
  assert.deepEqual(await replies(env, ["inventory"]), [
    "Inventory: You are not carrying anything.",
  ]);
  await replies(env, ["get 1 oak logs", "get 2 iron ingot", "craft 4 oak planks using 1 oak logs"]);
  assert.deepEqual(await replies(env, ["inventory"]), [
    "Inventory: [iron ingot] (2) [oak planks] (4) ",
  ]);
});

Deno.test("unrecognised actions are answered with Could not execute", async () => {
  const env = await stickEnv();
  assert.deepEqual(await replies(env, ["dance", "get oak logs", "Inventory"]), [
    "Could not execute dance",
    "Could not execute get oak logs",
    "Could not execute Inventory",
  ]);
});

Deno.test("crafting the goal gives reward 1 and done; other steps give 0", async () => {
  const env = await stickEnv();
  const a = await env.step("get 1 oak logs");
  const b = await env.step("craft 4 oak planks using 1 oak logs");
  const c = await env.step("craft 4 stick using 2 oak planks");
  assert.deepEqual([a.reward, a.done, b.reward, b.done], [0, false, 0, false]);
  assert.deepEqual(c, { observation: "Crafted 4 minecraft:stick", reward: 1, done: true });
});

Deno.test("step before reset is an error", async () => {
  await assert.rejects(() => new TextCraft().step("inventory"), /before reset/);
});

Deno.test("the first observation lists the goal's tree and at most ten distractors", async () => {
  const env = new TextCraft();
  const r = await env.reset({ seed: 4, options: { depth: 4 } });
  const m = /^Crafting commands:\n([^]*)\n\nGoal: craft (.+)\.$/.exec(r.observation);
  assert.ok(m, r.observation);
  const lines = m[1].split("\n");
  const goal = env.goal!;
  assert.equal(m[2], goal.replace("minecraft:", "").replaceAll("_", " "));
  assert.equal(r.goal, `craft ${m[2]}`);
  const tree = recipeTree(env.book, goal).map(recipeText);
  for (const line of tree) assert.ok(lines.includes(line), `missing tree line "${line}"`);
  assert.ok(tree.includes("craft 4 stick using 2 planks"));
  assert.equal(new Set(lines).size, lines.length);
  const distractors = lines.filter((l) => !tree.includes(l));
  assert.ok(distractors.length > 0 && distractors.length <= 10);
  assert.equal(env.book.minDepth(goal), 4);
  assert.equal(r.taskType, "depth4");
  assert.equal(r.taskId, "textcraft/d4/s4");
});

Deno.test("reset is deterministic per seed and varies across seeds", async () => {
  const env = new TextCraft();
  const a = await env.reset({ seed: 9, options: { depth: 3 } });
  const b = await env.reset({ seed: 9, options: { depth: 3 } });
  assert.deepEqual(a, b);
  const seen = new Set<string>();
  for (let s = 0; s < 8; s++) {
    seen.add((await env.reset({ seed: s, options: { depth: 3 } })).observation);
  }
  assert.ok(seen.size > 3);
});

Deno.test("reset empties the inventory", async () => {
  const env = await stickEnv();
  await env.step("get 1 oak logs");
  await env.reset({ spec: STICK_SPEC });
  assert.equal(
    (await env.step("inventory")).observation,
    "Inventory: You are not carrying anything.",
  );
});

Deno.test("a task id reproduces the task chosen by seed alone", async () => {
  const env = new TextCraft();
  for (const seed of [0, 1, 2, 3, 17]) {
    const a = await env.reset({ seed });
    assert.match(a.taskId, /^textcraft\/d[1-4]\/s\d+$/);
    const b = await env.reset({ id: a.taskId });
    assert.deepEqual(b, a);
  }
  const depths = new Set<string>();
  for (let seed = 0; seed < 40; seed++) depths.add((await env.reset({ seed })).taskType!);
  assert.deepEqual([...depths].sort(), ["depth1", "depth2", "depth3", "depth4"]);
});

Deno.test("depth options select goals of that minimum depth and are validated", async () => {
  const env = new TextCraft();
  for (const depth of [1, 2, 3, 4]) {
    for (let seed = 0; seed < 5; seed++) {
      await env.reset({ seed, options: { depth } });
      assert.equal(env.book.minDepth(env.goal!), depth);
    }
  }
  await assert.rejects(() => env.reset({ seed: 1, options: { depth: 0 } }), TypeError);
  await assert.rejects(() => env.reset({ seed: 1, options: { depth: 9 } }), /depth 9/);
  await assert.rejects(() => env.reset({ id: "textcraft/x" }), /Invalid TextCraft task id/);
});

Deno.test("explicit spec tasks accept lines or text and are validated", async () => {
  const env = new TextCraft();
  const a = await env.reset({ spec: STICK_SPEC });
  assert.equal(
    a.observation,
    "Crafting commands:\ncraft 4 oak planks using 1 oak logs\ncraft 4 stick using 2 planks\n\nGoal: craft stick.",
  );
  assert.deepEqual([a.goal, a.taskId, a.taskType], [
    "craft stick",
    "textcraft/spec/stick",
    "depth2",
  ]);
  const b = await env.reset({ spec: { goal: "minecraft:stick", commands: a.observation } });
  assert.equal(b.observation, a.observation);
  await assert.rejects(() => env.reset({ spec: { commands: [] } }), /Invalid TextCraft task spec/);
  await assert.rejects(
    () => env.reset({ spec: { goal: "diamond sword", commands: STICK_SPEC.commands } }),
    /Unknown goal item "diamond sword"/,
  );
  await assert.rejects(
    () => env.reset({ spec: { goal: "oak logs", commands: STICK_SPEC.commands } }),
    /"oak logs" cannot be crafted/,
  );
  await assert.rejects(
    () => env.reset({ spec: { goal: "stick", commands: ["make a stick"] } }),
    /command 1 "make a stick"/,
  );
  const generated = await env.reset({ spec: { goal: "ladder" } });
  assert.ok(generated.observation.includes("craft 3 ladder using 7 stick"));
});

Deno.test("textcraftTasks lists deterministic splits that reset to their depth", async () => {
  const tasks = textcraftTasks({ depths: [2, 4], count: 3, seed: 10 });
  assert.deepEqual(tasks.map((t) => t.id), [
    "textcraft/d2/s10",
    "textcraft/d2/s11",
    "textcraft/d2/s12",
    "textcraft/d4/s10",
    "textcraft/d4/s11",
    "textcraft/d4/s12",
  ]);
  const env = new TextCraft();
  for (const t of tasks) {
    const byOptions = await env.reset(t);
    const byId = await env.reset({ id: t.id });
    assert.deepEqual(byId, byOptions);
    assert.equal(byOptions.taskId, t.id);
  }
});

Deno.test("an explicit task whose listing crafts its goal through a cycle is playable whatever the file order", async () => {
  // Honey block from four honey bottles, four honey bottles from a honey block
  // and glass bottles: the database keeps whichever recipe it reads first.
  const block = {
    type: "minecraft:crafting_shaped",
    pattern: ["SS", "SS"],
    key: { S: { item: "minecraft:honey_bottle" } },
    result: { item: "minecraft:honey_block" },
  };
  const bottle = {
    type: "minecraft:crafting_shapeless",
    ingredients: [
      { item: "minecraft:honey_block" },
      ...Array.from({ length: 4 }, () => ({ item: "minecraft:glass_bottle" })),
    ],
    result: { item: "minecraft:honey_bottle", count: 4 },
  };
  const commands = [
    "craft 1 honey block using 4 honey bottle",
    "craft 4 honey bottle using 1 honey block, 4 glass bottle",
  ];
  for (const order of [["block", "bottle"], ["bottle", "block"]]) {
    const files = order.map((n) => ({ name: `${n}.json`, json: n === "block" ? block : bottle }));
    const book = RecipeBook.fromFiles(files);
    // The recipe read second closes the cycle and is left out.
    const kept = order[0] === "block" ? "minecraft:honey_block" : "minecraft:honey_bottle";
    const cut = order[0] === "block" ? "minecraft:honey_bottle" : "minecraft:honey_block";
    assert.equal(book.itemRecipes(kept).length, 1);
    assert.equal(book.itemRecipes(cut).length, 0);
    assert.equal(book.cycleRecipes(cut).length, 1);
    for (const goal of ["honey block", "honey bottle"]) {
      const env = new TextCraft({ book });
      const reset = await env.reset({ spec: { goal, commands } });
      assert.match(reset.goal, new RegExp(goal));
      // The cut item is a base item here: fetch it, craft the other, then the goal.
      const base = idToName(cut);
      const other = base === "honey block" ? "honey bottle" : "honey block";
      const steps = base === "honey bottle"
        ? ["get 4 honey bottle", "get 4 glass bottle", commands[0], commands[1]]
        : ["get 1 honey block", "get 4 glass bottle", commands[1], commands[0]];
      let last;
      for (const action of steps) {
        last = await env.step(action);
        if (last.done) break;
      }
      assert.equal(last!.reward, 1, `${order.join(",")}: ${goal} (${other} crafted on the way)`);
    }
    // Without the listing's command the goal stays uncraftable, and says why.
    const env = new TextCraft({ book });
    await assert.rejects(
      () =>
        env.reset({ spec: { goal: idToName(cut), commands: ["craft 1 stick using 2 planks"] } }),
      /cannot be crafted: it has no crafting recipe \(its recipe closes a cycle/,
    );
  }
});

Deno.test("background knowledge offers a recipe that closes a cycle after the ones that do not", async () => {
  const shapeless = (out: string, count: number, inputs: string[]) => ({
    type: "minecraft:crafting_shapeless",
    ingredients: inputs.map((i) => ({ item: `minecraft:${i}` })),
    result: { item: `minecraft:${out}`, count },
  });
  // Read in this order: a nugget from an ingot; an ingot from nuggets closes
  // the cycle and is left out; an ingot from raw ore is kept.
  const book = RecipeBook.fromFiles([
    { name: "a_nugget.json", json: shapeless("nugget", 9, ["ingot"]) },
    { name: "b_ingot_from_nuggets.json", json: shapeless("ingot", 1, Array(9).fill("nugget")) },
    { name: "c_ingot.json", json: shapeless("ingot", 1, ["ore"]) },
  ]);
  assert.equal(book.cycleRecipes("minecraft:ingot").length, 1);
  const answer = await new RecipeKnowledge(book).ask({
    goal: "craft nugget",
    skill: "craft_item",
    args: { item: "ingot" },
    need: "count(item) > 0",
    diagnosis: "Could not find ingot",
    objects: ["ingot"],
    facts: new FactStore(),
  });
  const makes = answer!.add.filter((a) => a.pred === "makes").map((a) => a.args[0]);
  const uses = (r: unknown) =>
    answer!.add.filter((a) => a.pred === "uses" && a.args[0] === r).map((a) => a.args[1]);
  assert.deepEqual(makes, ["recipe 1", "recipe 2"]);
  assert.deepEqual(uses("recipe 1"), ["ore"]);
  assert.deepEqual(uses("recipe 2"), ["nugget"]);
});
