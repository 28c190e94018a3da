import { dataTest, dataUrl } from "./_data.ts";
import assert from "node:assert/strict";
import { TextCraft, textcraftKit, textcraftTasks } from "../environments/textcraft/mod.ts";
import { FactStore } from "../runtime/fact_store.ts";
import { collectRun, runSkill } from "../runtime/exec/interpreter.ts";
import { loadSkillFile } from "../runtime/store/library.ts";

const FULL_RECIPES = dataUrl("textcraft/recipes/");
const example = new URL("../examples/textcraft/craft_from_gettable.json", import.meta.url).pathname;

async function solveWithExample(env: TextCraft, seed: number) {
  const program = await loadSkillFile(example, textcraftKit.vocabulary);
  const grounder = textcraftKit.grounder();
  const task = await env.reset({ seed, options: { depth: 1 } });
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const target = facts.query("goal", [null, null])[0].args[0] as string;
  const { events, result } = await collectRun(
    runSkill(program, { target }, { env, grounder, facts }),
  );
  const rejected = events.filter((e) => e.type === "observe" && e.rejected !== undefined);
  return { task, result, rejected };
}

dataTest(
  "the example skill crafts the goal of 100 depth-1 tasks of the full recipe set",
  async () => {
    const env = new TextCraft({ recipes: FULL_RECIPES });
    const seeds = textcraftTasks({ depths: [1], count: 100, seed: 11 }).map((t) => t.seed ?? 0);
    assert.equal(seeds.length, 100);
    for (const seed of seeds) {
      const { task, result, rejected } = await solveWithExample(env, seed);
      assert.equal(
        result.outcome,
        "success",
        `${task.taskId}: ${JSON.stringify(result.diagnosis)}`,
      );
      assert.equal(result.episodeDone, true, task.taskId);
      assert.equal(rejected.length, 0, task.taskId);
    }
  },
);

dataTest("the example skill gets only the missing ingredients", async () => {
  const env = new TextCraft({ recipes: FULL_RECIPES });
  const program = await loadSkillFile(example, textcraftKit.vocabulary);
  const grounder = textcraftKit.grounder();
  // TNT: 4 sand and 5 gunpowder; hold 3 gunpowder already.
  const task = await env.reset({ spec: { goal: "tnt" } });
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const got = await env.step("get 3 gunpowder");
  facts.apply(grounder.step(facts, "get 3 gunpowder", got.observation).delta);
  const { events, result } = await collectRun(
    runSkill(program, { target: "tnt" }, { env, grounder, facts }),
  );
  const actions = events.flatMap((e) => e.type === "act" ? [e.action] : []);
  assert.equal(result.outcome, "success", JSON.stringify(result.diagnosis));
  assert.deepEqual(actions, [
    "get 4 sand",
    "get 2 gunpowder",
    "craft 1 tnt using 4 sand, 5 gunpowder",
  ]);
});

Deno.test("the ALFWorld example skill finds and takes the goal item in all 134 unseen tasks", async () => {
  const { alfworldKit, splitTaskIds } = await import("../environments/alfworld/mod.ts");
  const skill = new URL("../examples/alfworld/find_and_take.json", import.meta.url).pathname;
  const program = await loadSkillFile(skill, alfworldKit.vocabulary);
  const ids = splitTaskIds("unseen");
  assert.equal(ids.length, 134);
  const env = alfworldKit.create();
  const { findAndTakeOn } = await import("./runtime/_agent_fixtures.ts");
  for (const id of ids) {
    const { result, facts, itemType } = await findAndTakeOn(program, env, id);
    assert.equal(result.outcome, "success", `${id}: ${JSON.stringify(result.diagnosis)}`);
    const held = facts.query("holds", [null]).map((a) => a.args[0] as string);
    assert.equal(held.length, 1, id);
    assert.ok(facts.has({ pred: "is_type", args: [held[0], itemType] }), id);
  }
});
