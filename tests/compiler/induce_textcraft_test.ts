import { dataPath, dataTest, HAS_DATA } from "../_data.ts";
import assert from "node:assert/strict";
import { induceSkills } from "../../compiler/induce.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { TextCraft, textcraftKit, textcraftTasks } from "../../environments/textcraft/mod.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import { induceLibrary, runVariant } from "../../cli/_variants.ts";
import type { Trace } from "../../dsl/trace.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { withEnvOptions } from "../../runtime/environment.ts";

const RECIPES = dataPath("textcraft/recipes/");

/** The expert's traces of `count` tasks of the given depths (seed 1), with the recipes of `recipes`. */
function expertTraces(depths: number[], count: number, recipes = RECIPES): Promise<Trace[]> {
  return generateExpertTraces(
    withEnvOptions(textcraftKit, { recipes }),
    textcraftTasks({ depths, count, seed: 1 }),
    { envOptions: { recipes } },
  );
}

const traces = HAS_DATA ? await expertTraces([1], 30) : [];
const result = induceSkills(traces, textcraftKit);

dataTest(
  "induction from depth-1 crafting traces yields one craft skill covering every segment",
  () => {
    assert.equal(result.skills.length, 1);
    const [s] = result.skills;
    assert.equal(s.skill.name, "craft_item");
    assert.deepEqual(s.skill.params, [{ name: "item", type: "Item" }]);
    assert.equal(s.covered, s.segments);
    assert.equal(s.region, s.states);
  },
);

dataTest(
  "the craft skill loops over the recipe's ingredients and gets only what is missing",
  () => {
    const skill = result.skills[0].skill;
    const recipe = skill.nodes.find((n) => n.kind === "data" && /makes\(x, item\)/.test(n.expr));
    assert.ok(recipe && recipe.kind === "data");
    const loop = skill.nodes.find((n) => n.kind === "loop");
    assert.ok(loop && loop.kind === "loop");
    assert.equal(loop.over, `select_all(x: Item, uses(${recipe.var}, x))`);
    const guard = skill.nodes.find((n) => n.kind === "check");
    assert.ok(guard && guard.kind === "check");
    assert.equal(guard.cond, `count(${loop.var}) < need(${recipe.var}, ${loop.var})`);
    const get = skill.nodes.find((n) => n.kind === "primitive" && n.action === "get");
    assert.ok(get && get.kind === "primitive");
    assert.equal(get.args.n, `need(${recipe.var}, ${loop.var}) - count(${loop.var})`);
    assert.equal(skill.edges.find((e) => e.from === guard.id && e.label === "yes")?.to, get.id);
    assert.equal(skill.edges.find((e) => e.from === guard.id && e.label === "no")?.to, loop.id);
  },
);

dataTest(
  "the induced craft skill solves unseen depth-1 tasks, holding some ingredients or none",
  async () => {
    const compiled = compileSkill(result.skills[0].skill, textcraftKit.vocabulary);
    assert.ok(compiled.ok);
    const env = new TextCraft({ recipes: RECIPES });
    let prefetched = 0;
    for (const [k, spec] of textcraftTasks({ depths: [1], count: 40, seed: 99 }).entries()) {
      const grounder = textcraftKit.grounder();
      const task = await env.reset(spec);
      const facts = new FactStore();
      facts.apply(grounder.initial(task.observation, task.goal).delta);
      const item = facts.query("goal", [null, null])[0].args[0] as string;
      // In every other task, hold enough of the first ingredient beforehand.
      let held: string | undefined;
      const recipe = facts.query("makes", [null, item])[0]?.args[0];
      const first = recipe === undefined
        ? undefined
        : facts.query("needs", [recipe, null, null])[0];
      if (k % 2 === 1 && first && !facts.has({ pred: "craftable", args: [first.args[1]] })) {
        const action = `get ${first.args[2]} ${first.args[1]}`;
        const step = await env.step(action);
        facts.apply(grounder.step(facts, action, step.observation).delta);
        held = first.args[1] as string;
        prefetched++;
      }
      const { events, result: run } = await collectRun(
        runSkill(compiled.value, { item }, { env, grounder, facts }),
      );
      assert.equal(run.outcome, "success", `${task.taskId}: ${JSON.stringify(run.diagnosis)}`);
      if (held) {
        const gets = events.flatMap((e) =>
          e.type === "act" && e.action.startsWith("get ") ? [e.action] : []
        );
        assert.ok(
          !gets.some((a) => a.endsWith(` ${held}`)),
          `${task.taskId}: fetched ${held} again`,
        );
      }
    }
    assert.ok(prefetched >= 10, `only ${prefetched} tasks had a held ingredient`);
  },
);

dataTest(
  "without declared landmarks every trace is one task-level segment and still gets a skill",
  () => {
    const { landmarks: _none, ...vocabulary } = textcraftKit.vocabulary;
    const kit = { ...textcraftKit, vocabulary };
    const r = induceSkills(traces.slice(0, 8), kit);
    assert.equal(r.segments, 8);
    assert.equal(r.skills.length, 1);
    const [s] = r.skills;
    assert.equal(s.skill.name, "solve_depth1");
    assert.deepEqual(s.skill.params, []);
    assert.equal(s.skill.doc.post, undefined);
    assert.ok(compileSkill(s.skill, vocabulary).ok);
    // Nothing ties a parameterless task skill to the goal, so it reproduces
    // only some episodes; it must reproduce at least those it was built from.
    assert.ok(s.covered >= 1, `${s.covered}/${s.segments}`);
  },
);

dataTest(
  "a count landmark without a function over its predicate gives a postcondition without the count",
  () => {
    const vocabulary = {
      ...textcraftKit.vocabulary,
      functions: {},
      landmarks: [{ pred: "inventory", on: "add" as const, when: "craftable(a0)" }],
    };
    const kit = { ...textcraftKit, vocabulary };
    const r = induceSkills(traces.slice(0, 4), kit);
    assert.equal(r.skills.length, 1);
    assert.equal(r.skills[0].skill.doc.post, undefined);
    assert.ok(compileSkill(r.skills[0].skill, vocabulary).ok);
  },
);

dataTest("the action model learned from traces never skips an action with an amount", async () => {
  const { learnActionModelFromTraces } = await import("../../compiler/action_model_from_traces.ts");
  const model = learnActionModelFromTraces(traces, textcraftKit);
  const env = new TextCraft({ recipes: RECIPES });
  const grounder = textcraftKit.grounder();
  const task = await env.reset(textcraftTasks({ depths: [1], count: 1, seed: 5 })[0]);
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const needs = facts.query("needs", [null, null, null])[0];
  const item = needs.args[1] as string;
  const action = `get 1 ${item}`;
  const step = await env.step(action);
  facts.apply(grounder.step(facts, action, step.observation).delta);
  assert.ok(facts.has({ pred: "inventory", args: [item, 1] }));
  // Getting one more when one is held still changes the count.
  assert.equal(model.satisfied(facts, action), false);
});

dataTest(
  "from depth-2 traces the craft skill crafts a craftable ingredient by calling itself",
  async () => {
    const deeper = await expertTraces([2], 10);
    const induced = induceSkills(deeper, textcraftKit);
    assert.equal(induced.skills.length, 1);
    const { skill, covered, segments } = induced.skills[0];
    assert.equal(covered, segments);
    const loop = skill.nodes.find((n) => n.kind === "loop");
    assert.ok(loop && loop.kind === "loop");
    assert.match(loop.over, /^select_all\(x: Item, uses\(\w+, x\)\)$/);
    // In the loop: a call of craft_item on the ingredient, behind craftable(ingredient).
    const call = skill.nodes.find((n) => n.kind === "primitive" && n.action === "craft_item");
    assert.ok(call && call.kind === "primitive");
    assert.deepEqual(call.args, { item: loop.var });
    // Repeated while the ingredient falls short (one batch may not be enough) ...
    const again = skill.edges.find((e) => e.to === call.id && e.label === "yes");
    const repeat = skill.nodes.find((n) => n.id === again?.from);
    assert.ok(repeat && repeat.kind === "check");
    assert.match(repeat.cond, new RegExp(`^count\\(${loop.var}\\) < need\\(\\w+, ${loop.var}\\)$`));
    assert.ok(
      skill.edges.some((e) => e.from === call.id && e.to === repeat.id && e.label === "next"),
    );
    // ... and only for a craftable ingredient.
    const guard = skill.edges.find((e) =>
      e.to === repeat.id && e.label === "yes" && e.from !== call.id
    );
    const check = skill.nodes.find((n) => n.id === guard?.from);
    assert.ok(check && check.kind === "check");
    assert.equal(check.cond, `craftable(${loop.var})`);
    // The library compiles it as a call of itself.
    const library = compileSkills([{ data: skill, source: "craft_item" }], textcraftKit.vocabulary);
    assert.ok(library.get("craft_item"));
  },
);

dataTest(
  "a demonstration of an item two recipes make still gives a loop over one recipe's ingredients",
  async () => {
    // The recipe files read in another order (the nugget recipe before the
    // ingot-from-nuggets one, which then closes a cycle and is left out):
    // other items reach depth 2, and one of the 50 demonstrations crafts
    // an item that two listed recipes make. The loop must still run over the
    // ingredients of the one recipe bound, not over those of every recipe.
    const dir = await Deno.makeTempDir();
    try {
      for await (const f of Deno.readDir(RECIPES)) {
        const to = f.name.replace(/^(iron|gold)_nugget\.json$/, "$1_ingot_0_nugget.json");
        await Deno.copyFile(`${RECIPES}/${f.name}`, `${dir}/${to}`);
      }
      const kit = withEnvOptions(textcraftKit, { recipes: dir });
      const traces = await expertTraces([2], 50, dir);
      const induced = induceSkills(traces, kit);
      const skill = induced.skills[0].skill;
      const recipe = skill.nodes.find((n) => n.kind === "data" && /makes\(x, item\)/.test(n.expr));
      assert.ok(recipe?.kind === "data");
      const loop = skill.nodes.find((n) => n.kind === "loop");
      assert.ok(loop?.kind === "loop");
      assert.equal(loop.over, `select_all(x: Item, uses(${recipe.var}, x))`);
      const compiled = compileTraces(traces, kit);
      let solved = 0;
      const tasks = kit.taskList!({ split: "unseen", n: 100, mix: "real" });
      for (const task of tasks) {
        const run = runAgent({
          env: kit.create({ recipes: dir }),
          kit,
          library: compiled.library,
          templates: compiled.templates,
          actionModel: compiled.actionModel,
          task,
          knowledge: kit.knowledge!({}),
          maxActions: 100,
        });
        let r = await run.next();
        while (!r.done) r = await run.next();
        if (r.value.success) solved++;
      }
      assert.equal(solved, tasks.length);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

dataTest(
  "textcraft: from deeper demonstrations, few rejected actions, long skill calls, and more demonstrations never lower success",
  async () => {
    const envOptions = { recipes: RECIPES };
    const depth2 = await expertTraces([2], 32);
    const tasks = textcraftTasks({ depths: [2, 3, 4], count: 30, seed: 1 });
    const score = async (demos: readonly Trace[]) =>
      (await runVariant({
        name: "full",
        kit: textcraftKit,
        envOptions,
        tasks,
        library: induceLibrary(demos, textcraftKit),
        maxActions: 100,
        progress: false,
      })).report;
    const fewer = await score(depth2.slice(0, 10));
    const mixed = await score([...depth2.slice(0, 10), ...traces.slice(0, 10)]);
    const more = await score(depth2);
    // Measured on the 30 tasks: 100% each; 5.9% rejected with 10 depth-2 traces (no family is crafted
    // there: the agent finds out by regression), 0.7% with 32.
    assert.ok(fewer.success_rate >= 0.98, `10 depth-2 traces: ${fewer.success_rate}`);
    assert.ok(mixed.success_rate >= fewer.success_rate, `mixed: ${mixed.success_rate}`);
    assert.ok(more.success_rate >= fewer.success_rate, `32 depth-2 traces: ${more.success_rate}`);
    assert.ok(more.invalid_action_rate < 0.05, `rejected ${more.invalid_action_rate}`);
    assert.ok((more.steps_per_skill ?? 0) >= 5, `actions per call ${more.steps_per_skill}`);
  },
);

dataTest(
  "a large group is induced from a sample: copies of covered segments are skipped, all are measured",
  async () => {
    const many = await expertTraces([1], 80);
    const lines: string[] = [];
    const sampled = induceSkills(many, textcraftKit, { explain: (l) => lines.push(l) });
    const [s] = sampled.skills;
    assert.equal(s.segments, 80);
    assert.ok(s.skipped !== undefined && s.skipped > 0, `skipped ${s.skipped}`);
    assert.equal(s.covered, s.segments);
    assert.ok(lines.some((l) => /induced from \d+ of 80 segments; \d+ skipped/.test(l)));
    // The same skill as from the 30 traces the tests above induce from.
    assert.deepEqual(s.skill.nodes, result.skills[0].skill.nodes);
  },
);

dataTest(
  "the depth-2 library solves the cycle cases: the only listed way to an ingredient goes through the item being crafted",
  async () => {
    const traces = await expertTraces([2], 50);
    const kit = withEnvOptions(textcraftKit, { recipes: RECIPES });
    const compiled = compileTraces(traces, kit);
    // Each listing crafts the ingot from nuggets and the nuggets from an ingot:
    // crafting one through the other is a cycle; the nuggets can be fetched.
    const cycle = (metal: string) => [
      `craft 1 ${metal} ingot using 9 ${metal} nugget`,
      `craft 9 ${metal} nugget using 1 ${metal} ingot`,
    ];
    const specs = [
      { goal: "iron ingot", commands: cycle("iron") },
      { goal: "gold ingot", commands: cycle("gold") },
      {
        goal: "chain",
        commands: ["craft 1 chain using 1 iron ingot, 2 iron nugget", ...cycle("iron")],
      },
    ];
    for (const knowledge of [false, true]) {
      for (const spec of specs) {
        const run = runAgent({
          env: kit.create({ recipes: RECIPES }),
          kit,
          library: compiled.library,
          templates: compiled.templates,
          actionModel: compiled.actionModel,
          task: { spec },
          maxActions: 100,
          ...(knowledge ? { knowledge: kit.knowledge!({}) } : {}),
        });
        let r = await run.next();
        let cycles = 0;
        for (; !r.done; r = await run.next()) {
          const e = r.value;
          if (e.type === "run" && e.event.type === "think" && e.event.text.startsWith("Cycle")) {
            cycles++;
          }
        }
        assert.ok(r.value.success, `${spec.goal}${knowledge ? " with knowledge" : ""}`);
        // The cycle was met and did not run away: a few actions, far below the budget.
        assert.ok(cycles > 0 || r.value.failures.some((f) => /Cycle/.test(f.message)), spec.goal);
        assert.ok(r.value.actions <= 10, `${spec.goal}: ${r.value.actions} actions`);
      }
    }
  },
);
