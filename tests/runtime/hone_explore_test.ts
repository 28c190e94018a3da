// Exploration as recovery: a skill that only takes an item it already knows
// of fails in a room it has not seen; the honer explores, starting with the
// places the facts link to the item's class, until the item is revealed.
import { dataPath, dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { readTraces } from "../../compiler/trace_io.ts";
import { learnActionModelFromTraces } from "../../compiler/action_model_from_traces.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { Honer } from "../../runtime/hone/hone.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { SkillSchema } from "../../dsl/graph/schema.ts";

const DEMOS = dataPath("alfworld/react_demos_2per_type.json");

const takeKnown = SkillSchema.parse({
  name: "take_known",
  vocabulary: "alfworld",
  params: [{ name: "item_type", type: "ItemType" }],
  doc: { summary: "Take an item of the class that is known to be somewhere." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "data", var: "item", expr: "select_one(x: Item, is_type(x, item_type))" },
    {
      id: "where",
      kind: "data",
      var: "place",
      expr: "select_one(r: Receptacle, contains(r, item))",
    },
    { id: "go", kind: "primitive", action: "goto", args: { target: "place" } },
    { id: "take", kind: "primitive", action: "take", args: { item: "item", source: "place" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "where", label: "next" },
    { from: "where", to: "go", label: "next" },
    { from: "go", to: "take", label: "next" },
    { from: "take", to: "ok", label: "next" },
  ],
});

dataTest("a skill that found nothing is recovered by exploring, linked places first", async () => {
  const traces = (await readTraces(DEMOS, alfworldKit)).filter((t) => t.source!.includes("#act_"));
  const model = learnActionModelFromTraces(traces, alfworldKit);
  const honer = new Honer([takeKnown], alfworldKit.vocabulary, { advisor: model });
  const env = alfworldKit.create();
  const grounder = alfworldKit.grounder();
  const task = await env.reset({
    spec: {
      goal: "put some apple in sidetable.",
      receptacles: [
        { id: "toilet 1" },
        { id: "countertop 1", contents: ["apple 1"] },
        { id: "sidetable 1" },
      ],
    },
  });
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const program = compileSkill(takeKnown, alfworldKit.vocabulary);
  assert.ok(program.ok);
  const args = { item_type: "apple" };
  const first = await collectRun(runSkill(program.value, args, { env, grounder, facts }));
  assert.equal(first.result.outcome, "failure");
  assert.equal(first.result.diagnosis?.node, "pick");
  const outcome = await honer.onFailure({
    skill: "take_known",
    args,
    result: first.result,
    events: first.events,
    env,
    grounder,
    facts,
  });
  assert.equal(outcome.recovered, true);
  // A toilet cannot hold an apple, so the countertop is visited first.
  assert.equal(outcome.note, "explored go to countertop 1");
  // Run again as the agent does: the model skips going where the agent already is.
  const again = await collectRun(
    runSkill(program.value, args, {
      env,
      grounder,
      facts,
      actionModel: model,
      skipSatisfied: true,
    }),
  );
  assert.equal(again.result.outcome, "success");
});
