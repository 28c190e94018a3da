import { dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import type { Environment, EnvironmentKit, TaskSpec } from "../../runtime/environment.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import { callKey, Planner } from "../../runtime/plan/planner.ts";
import {
  alfworldLibrary,
  breadAtCountertop,
  handWrittenAlfworld,
  RECIPES,
  textcraftLibrary,
} from "./_agent_fixtures.ts";
import { initialState, step } from "../../runtime/exec/step.ts";
import { withValueDomains } from "../../runtime/exec/value_domains.ts";

async function start(
  kit: EnvironmentKit,
  task: TaskSpec,
  envOptions: Record<string, unknown> = {},
): Promise<{ env: Environment; facts: FactStore; taskType?: string; goal: string }> {
  const env = kit.create(envOptions);
  const reset = await env.reset(task);
  const facts = new FactStore();
  facts.apply(kit.grounder().initial(reset.observation, reset.goal).delta);
  return { env, facts, taskType: reset.taskType, goal: reset.goal };
}

/** The hand-written ALFWorld library and the start of the first unseen pick-two task. */
async function pickTwoStart() {
  const { library, templates } = await handWrittenAlfworld();
  const task = alfworldKit.tasks!({ split: "unseen" }).find((t) =>
    t.id!.includes("pick_two_obj_and_place")
  )!;
  return { library, templates, ...await start(alfworldKit, task) };
}

dataTest(
  "plan() follows the template of the task type, with arguments from the goal facts",
  async () => {
    const { library, templates, facts, taskType } = await pickTwoStart();
    const plan = new Planner(library, templates).plan(facts, taskType);
    assert.ok(plan.ok, !plan.ok ? plan.error : "");
    assert.equal(plan.value.matchedBy, "type");
    assert.equal(plan.value.template.type, "pick_two_obj_and_place");
    const item = facts.query("goal_item", [null])[0].args[0];
    const receptacle = facts.query("goal_receptacle", [null])[0].args[0];
    assert.deepEqual(plan.value.calls, [
      { skill: "find_and_take", args: { item_type: item } },
      { skill: "place", args: { target_type: receptacle, item_type: item } },
      { skill: "find_and_take", args: { item_type: item } },
      { skill: "place", args: { target_type: receptacle, item_type: item } },
    ]);
  },
);

dataTest(
  "plan() takes a template whose arguments evaluate when no template has the task's type",
  async () => {
    const { library, templates } = await textcraftLibrary();
    const { facts, taskType, goal } = await start(
      textcraftKit,
      { seed: 3, options: { depth: 3 } },
      { recipes: RECIPES },
    );
    assert.equal(taskType, "depth3");
    const plan = new Planner(library, templates).plan(facts, taskType);
    assert.ok(plan.ok, !plan.ok ? plan.error : "");
    assert.equal(plan.value.matchedBy, "arguments");
    // The template's task program runs; its first call crafts the goal item.
    assert.deepEqual(plan.value.calls, []);
    const program = plan.value.program!;
    assert.equal(program.skill.name, "task_depth1");
    const view = withValueDomains(textcraftKit.vocabulary, facts).facts;
    let state = initialState(program, {});
    let out = step(program, state, { facts: view });
    while (out.kind === "think") {
      state = out.state;
      out = step(program, state, { facts: view });
    }
    assert.equal(out.kind, "call");
    assert.ok(out.kind === "call");
    assert.deepEqual({ skill: out.skill, args: out.args }, {
      skill: "craft_item",
      args: { item: goal.replace(/^craft /, "").replace(/\.$/, "") },
    });
  },
);

dataTest("plan() says why no template fits", async () => {
  const { library, templates } = await textcraftLibrary();
  const { facts } = await start(textcraftKit, { seed: 1, options: { depth: 1 } });
  const none = new Planner(library, []).plan(facts);
  assert.ok(!none.ok);
  assert.match(none.error, /no task templates/);
  const sequences = templates.map(({ program: _program, ...t }) => t);
  const broken = sequences.map((t) => ({
    ...t,
    steps: [{ skill: "fly", args: [] }],
    alternatives: [],
  }));
  const bad = new Planner(library, broken).plan(facts, "depth1");
  assert.ok(!bad.ok);
  assert.match(bad.error, /step 1 calls unknown skill "fly"/);
  const unbound = sequences.map((t) => ({
    ...t,
    steps: [{ skill: "craft_item", args: [{ name: "item", type: "Item" }] }],
    alternatives: [],
  }));
  const r = new Planner(library, unbound).plan(facts, "depth1");
  assert.ok(!r.ok);
  assert.match(r.error, /argument "item" has no expression and no earlier value/);
  // A task program that does not compile against the library is named.
  const wrong = templates.map((t) => ({
    ...t,
    program: {
      ...t.program!,
      nodes: t.program!.nodes.map((n) => n.kind === "primitive" ? { ...n, action: "fly" } : n),
    },
    steps: [{ skill: "fly", args: [] }],
    alternatives: [],
  }));
  const w = new Planner(library, wrong).plan(facts, "depth1");
  assert.ok(!w.ok);
  assert.match(w.error, /task program "depth1": Node "craft_item": unknown action "fly"/);
});

dataTest(
  "canSkip() skips a step whose postcondition holds, but not a repeated subgoal",
  async () => {
    const { library, templates, facts, taskType } = await pickTwoStart();
    const planner = new Planner(library, templates);
    const plan = planner.plan(facts, taskType);
    assert.ok(plan.ok);
    const place = plan.value.calls[1].args;
    assert.equal(planner.canSkip(plan.value, 1, facts), undefined);
    const target = facts.query("receptacle_type", [null, place.target_type as string])[0].args[0];
    facts.apply({
      add: [
        { pred: "contains", args: [target, "thing 1"] },
        { pred: "is_type", args: ["thing 1", place.item_type as string] },
      ],
      remove: [],
      objects: { "thing 1": "Item" },
    });
    const skip = planner.canSkip(plan.value, 1, facts);
    assert.ok(skip?.holds);
    assert.match(skip.condition!, /contains\(v0, v1\)/);
    // The fourth step is the same call as the second: done once is not done twice.
    assert.equal(callKey(plan.value.calls[3]), callKey(plan.value.calls[1]));
    assert.equal(planner.canSkip(plan.value, 3, facts), undefined);
  },
);

dataTest("regress() proposes crafting the missing ingredient a rejected action names", async () => {
  const { library, templates } = await textcraftLibrary();
  const planner = new Planner(library, templates);
  const { env, facts } = await start(
    textcraftKit,
    { seed: 5, options: { depth: 2 } },
    { recipes: RECIPES },
  );
  const program = library.get("craft_item")!;
  const args = { item: "pink terracotta" };
  const { events, result } = await collectRun(
    runSkill(program, args, { env, grounder: textcraftKit.grounder(), facts, library }),
  );
  assert.equal(result.outcome, "failure");
  assert.match(result.diagnosis!.message, /get 1 pink dye/);
  const [first] = planner.regress({ program, args, result, events }, facts);
  assert.deepEqual(first.call, { skill: "craft_item", args: { item: "pink dye" } });
  assert.equal(first.via, "object");
  assert.equal(first.more, false);
  assert.equal(first.condition, "count('pink dye') >= 1");
  // A call already on the goal stack is not proposed again.
  const excluded = planner.regress({ program, args, result, events }, facts, {
    exclude: new Set([callKey(first.call)]),
  });
  assert.ok(!excluded.some((s) => callKey(s.call) === callKey(first.call)));
});

dataTest(
  "regress() proposes a craftable member when a rejected action names a family",
  async () => {
    const { library, templates } = await textcraftLibrary();
    const planner = new Planner(library, templates);
    const program = library.get("craft_item")!;
    let checked = 0;
    for (let seed = 0; seed < 40 && checked < 3; seed++) {
      const { env, facts } = await start(
        textcraftKit,
        { seed, options: { depth: 2 } },
        { recipes: RECIPES },
      );
      // Craft each listed item until a get of a family (a tag) is rejected.
      for (const made of facts.query("makes", [null, null])) {
        const args = { item: made.args[1] as string };
        const { events, result } = await collectRun(
          runSkill(program, args, { env, grounder: textcraftKit.grounder(), facts, library }),
        );
        const rejected = events.findLast((e) => e.type === "observe" && e.rejected !== undefined);
        if (result.outcome !== "failure" || rejected?.type !== "observe") continue;
        const family = rejected.action.replace(/^get \d+ /, "");
        if (!facts.has({ pred: "is_tag", args: [family] })) continue;
        const subgoals = planner.regress({ program, args, result, events }, facts);
        const forFamily = subgoals.filter((s) => s.object === family);
        assert.ok(forFamily.length > 0, `no subgoal for ${family}`);
        // The family itself has no recipe: only its craftable members are proposed.
        for (const s of forFamily) {
          assert.equal(s.via, "related");
          assert.equal(s.relation, "member");
          const member = s.call.args.item as string;
          assert.ok(facts.has({ pred: "member", args: [member, family] }), member);
          assert.ok(facts.query("makes", [null, member]).length > 0, member);
        }
        checked++;
        break;
      }
    }
    assert.ok(checked > 0, "no task with a rejected family found");
  },
);

dataTest(
  "regress() proposes only skills whose postcondition is about what the failed run checked",
  async () => {
    const { library, templates } = await handWrittenAlfworld();
    const planner = new Planner(library, templates);
    const task = alfworldKit.tasks!({ split: "unseen" }).find((t) =>
      t.id!.includes("pick_clean_then_place_in_recep")
    )!;
    const { env, facts } = await start(alfworldKit, task);
    // Placing before holding anything fails when the held item is bound.
    const program = library.get("place")!;
    const args = {
      target_type: facts.query("goal_receptacle", [null])[0].args[0] as string,
      item_type: facts.query("goal_item", [null])[0].args[0] as string,
    };
    const { events, result } = await collectRun(
      runSkill(program, args, { env, grounder: alfworldKit.grounder(), facts, library }),
    );
    assert.equal(result.outcome, "failure");
    const subgoals = planner.regress({ program, args, result, events }, facts);
    // place read holds(x): taking the item is the subgoal; cleaning, heating, ... are not.
    assert.deepEqual(subgoals.map((s) => s.call), [
      { skill: "find_and_take", args: { item_type: args.item_type } },
    ]);
  },
);

dataTest(
  "after cooling, placing is not skipped because another object of the type is already at the target",
  async () => {
    const { library, templates } = await alfworldLibrary();
    const planner = new Planner(library, templates);
    const place = library.get("place");
    assert.ok(place, "the induced library has a place skill");
    // The parameter the postcondition binds to the object acted on.
    const itemParam = place.skill.params.find((p) => p.type === "Item");
    assert.ok(itemParam, JSON.stringify(place.skill.params));
    const facts = breadAtCountertop();
    const call = (item: string) => ({
      skill: "place",
      args: Object.fromEntries(
        place.skill.params.map((p) => [p.name, p.type === "Item" ? item : "countertop"]),
      ),
    });
    // The cooled bread 2 is still to be placed; the bread already there says nothing about it.
    assert.equal(planner.skippable(call("bread 2"), [], facts), undefined);
    assert.ok(planner.skippable(call("bread 1"), [], facts));
  },
);
