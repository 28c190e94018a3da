import { dataTest, dataUrl } from "../_data.ts";
import assert from "node:assert/strict";
import { TraceSchema } from "../../dsl/trace.ts";
import type { Environment } from "../../runtime/environment.ts";
import {
  loadRecipeBook,
  planTextCraft,
  RecipeBook,
  TextCraft,
  TextCraftExpert,
  textcraftKit,
  textcraftTasks,
} from "../../environments/textcraft/mod.ts";

const FULL = dataUrl("textcraft/recipes/");
const INVALID = /^(Could not|Wrong)/;

dataTest(
  "the expert solves 200 generated full-set tasks of depth 1-4 without invalid actions",
  async () => {
    const env = new TextCraft({ book: loadRecipeBook(FULL) });
    const expert = new TextCraftExpert();
    const tasks = textcraftTasks({ depths: [1, 2, 3, 4], count: 50, seed: 100 });
    assert.equal(tasks.length, 200);
    const goals = new Set<string>();
    for (const task of tasks) {
      const trace = TraceSchema.parse(await expert.solve(env, task));
      assert.equal(trace.success, true, task.id);
      assert.equal(trace.task.id, task.id);
      assert.equal(trace.task.type, `depth${(task.options as { depth: number }).depth}`);
      const invalid = trace.steps.filter((s) => INVALID.test(s.observation));
      assert.deepEqual(invalid, [], task.id);
      const last = trace.steps.at(-1)!;
      assert.deepEqual([last.reward, last.done], [1, true]);
      assert.ok(trace.steps.slice(0, -1).every((s) => s.reward === 0 && !s.done));
      assert.match(trace.initial, /^Crafting commands:\n/);
      goals.add(trace.goal);
    }
    assert.ok(goals.size > 100, `only ${goals.size} distinct goals`);
  },
);

Deno.test("the expert solves every depth 1-4 item of the built-in recipe set", async () => {
  const env = textcraftKit.create() as TextCraft;
  const expert = textcraftKit.expert!();
  for (const depth of [1, 2, 3, 4]) {
    for (const goal of env.book.itemsAtDepth(depth)) {
      const trace = await expert.solve(env, { spec: { goal } });
      assert.equal(trace.success, true, goal);
      assert.ok(trace.steps.every((s) => !INVALID.test(s.observation)), goal);
      assert.equal(trace.env, "textcraft");
      assert.equal(trace.source, "expert");
    }
  }
});

Deno.test("the expert crafts ceil(missing / output) times and reuses leftovers", async () => {
  const env = new TextCraft();
  const trace = await new TextCraftExpert().solve(env, { spec: { goal: "ladder" } });
  // 7 sticks: two crafts of 4 from 4 planks, which one log yields.
  assert.deepEqual(trace.steps.map((s) => s.action), [
    "get 1 birch logs",
    "craft 4 birch planks using 1 birch logs",
    "craft 4 stick using 2 birch planks",
    "craft 4 stick using 2 birch planks",
    "craft 3 ladder using 7 stick",
  ]);
  assert.deepEqual(trace.task, { id: "textcraft/spec/ladder", type: "depth3", seed: 0 });
  assert.equal(trace.goal, "craft ladder");
});

Deno.test("inputs gathered for a craft are reserved while other inputs are made", async () => {
  const shaped = (out: string, pattern: string[], key: Record<string, unknown>, count = 1) => ({
    name: `${out}.json`,
    json: {
      type: "minecraft:crafting_shaped",
      pattern,
      key,
      result: { item: `minecraft:${out}`, count },
    },
  });
  const item = (id: string) => ({ item: `minecraft:${id}` });
  // thing needs 3 boards then a widget, and the widget itself eats 2 boards.
  const book = RecipeBook.fromFiles([
    shaped("board", ["#"], { "#": item("log") }, 4),
    shaped("thing", ["BBB", "W"], { B: item("board"), W: item("widget") }),
    shaped("widget", ["BB"], { B: item("board") }),
  ]);
  const actions = planTextCraft(book, "minecraft:thing");
  assert.deepEqual(actions, [
    "get 1 log",
    "craft 4 board using 1 log",
    "get 1 log",
    "craft 4 board using 1 log",
    "craft 1 widget using 2 board",
    "craft 1 thing using 3 board, 1 widget",
  ]);
  const env = new TextCraft({ book });
  await env.reset({ spec: { goal: "thing" } });
  const replies = [];
  for (const a of actions) replies.push(await env.step(a));
  assert.ok(replies.every((r) => !INVALID.test(r.observation)));
  assert.deepEqual(replies.at(-1), {
    observation: "Crafted 1 minecraft:thing",
    reward: 1,
    done: true,
  });
});

Deno.test("the expert refuses environments that are not the TextCraft simulator", async () => {
  const other = { name: "other" } as unknown as Environment;
  await assert.rejects(() => new TextCraftExpert().solve(other, {}), /needs a TextCraft simulator/);
});

dataTest("the kit names the environment and builds a working grounder", async () => {
  assert.equal(textcraftKit.name, "textcraft");
  assert.equal(textcraftKit.vocabulary.name, "textcraft");
  const env = textcraftKit.create({ recipes: FULL.pathname });
  const r = await env.reset({ seed: 2, options: { depth: 2 } });
  const g = textcraftKit.grounder().initial(r.observation, r.goal);
  assert.ok(g.delta.add.some((a) => a.pred === "goal"));
  assert.throws(() => textcraftKit.create({ recipes: 3 }), /"recipes" must be a directory path/);
});
