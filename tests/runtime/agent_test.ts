import { dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { type AgentEvent, runAgent, type SkillFailure } from "../../runtime/agent/mod.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import type { TaskTemplate } from "../../runtime/store/task_template.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import {
  alfworldLibrary,
  drainAgent,
  RECIPES,
  textcraftDeeperLibrary,
  textcraftLibrary,
} from "./_agent_fixtures.ts";

dataTest("goal regression lets depth-1 crafting skills solve depth 2, 3 and 4 tasks", async () => {
  const { library, templates } = await textcraftLibrary();
  const solved: Record<number, number> = {};
  let deepest = 0;
  let substitutes = 0;
  for (const depth of [2, 3, 4]) {
    solved[depth] = 0;
    for (let seed = 0; seed < 20; seed++) {
      const { events, result } = await drainAgent(runAgent({
        env: textcraftKit.create({ recipes: RECIPES }),
        kit: textcraftKit,
        library,
        templates,
        task: { seed, options: { depth } },
        maxSkillCalls: 60,
        maxActions: 150,
      }));
      if (result.success) solved[depth]++;
      assert.ok(result.actions <= 150 && result.skillCalls <= 60);
      for (const e of events) {
        if (e.type === "call") deepest = Math.max(deepest, e.level);
        if (e.type === "regress" && e.via === "related") substitutes++;
      }
    }
  }
  // Measured: 20, 19 and 20 of 20 (the miss needs more than 100 actions).
  assert.ok(solved[2] >= 19, `depth 2: ${solved[2]} of 20`);
  assert.ok(solved[3] >= 17, `depth 3: ${solved[3]} of 20`);
  assert.ok(solved[4] >= 17, `depth 4: ${solved[4]} of 20`);
  // Subgoals of subgoals were needed, and families were made from their members.
  assert.ok(deepest >= 3, `deepest subgoal level ${deepest}`);
  assert.ok(substitutes > 0);
});

dataTest(
  "the agent reports each skill call with its events and its postcondition verdict",
  async () => {
    const { library, templates } = await textcraftLibrary();
    const { events, result } = await drainAgent(runAgent({
      env: textcraftKit.create({ recipes: RECIPES }),
      kit: textcraftKit,
      library,
      templates,
      task: { seed: 5, options: { depth: 2 } },
    }));
    assert.ok(result.success);
    assert.equal(events[0].type, "task");
    assert.equal(events[1].type, "plan");
    events.forEach((e, i) => {
      if (e.type !== "call") return;
      const next = events[i + 1];
      assert.ok(next.type === "run" && next.event.type === "start" && next.event.skill === e.skill);
    });
    const verdicts = events.filter((e) => e.type === "verify");
    assert.ok(verdicts.some((v) => v.type === "verify" && !v.holds && v.outcome === "failure"));
    assert.ok(verdicts.some((v) => v.type === "verify" && v.holds));
    assert.equal(events.at(-1)!.type, "stop");
    // Every rejected action is counted, and the failed call is recorded with its diagnosis.
    const rejected = events.filter((e) =>
      e.type === "run" && e.event.type === "observe" && e.event.rejected
    );
    assert.equal(result.invalidActions, rejected.length);
    assert.equal(result.failures[0].kind, "failure");
    assert.match(result.failures[0].message, /Could not find/);
  },
);

Deno.test("a skill that ends in success without its postcondition counts as failed", async () => {
  // A skill that only looks at the inventory, yet claims to craft its item.
  const pretend: Skill = {
    format: "skillc/skill@1",
    name: "pretend",
    vocabulary: "textcraft",
    params: [{ name: "item", type: "Item" }],
    doc: { summary: "Claims to craft the item.", post: "count(item) > 0" },
    entry: "look",
    nodes: [
      { id: "look", kind: "primitive", action: "inventory", args: {} },
      { id: "done", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "look", to: "done", label: "next" }],
  };
  const library = compileSkills([{ data: pretend, source: "pretend" }], textcraftKit.vocabulary);
  const templates: TaskTemplate[] = [{
    type: "depth1",
    traces: 1,
    support: 1,
    alternatives: [],
    steps: [{
      skill: "pretend",
      args: [{ name: "item", type: "Item", expr: "select_one(x: Item, goal(x, 1))" }],
    }],
  }];
  const seen: SkillFailure[] = [];
  const { events, result } = await drainAgent(runAgent({
    env: textcraftKit.create(),
    kit: textcraftKit,
    library,
    templates,
    task: { seed: 7, options: { depth: 1 } },
    onFailure: (failure) => {
      seen.push(failure);
      return Promise.resolve(undefined);
    },
  }));
  assert.equal(result.success, false);
  const verify = events.find((e) => e.type === "verify");
  assert.ok(verify?.type === "verify");
  assert.equal(verify.outcome, "success");
  assert.equal(verify.holds, false);
  assert.equal(verify.condition, "count('birch planks') > 0");
  assert.equal(result.failures.length, 1);
  assert.equal(result.failures[0].kind, "verification");
  assert.equal(result.failures[0].condition, "count('birch planks') > 0");
  // The failure goes to the recovery hook with the run that "succeeded".
  assert.equal(seen.length, 1);
  assert.equal(seen[0].skill, "pretend");
  assert.equal(seen[0].result.outcome, "success");
  assert.match(result.stop, /Step 1 \(pretend\) could not be achieved/);
});

dataTest(
  "after the recovery hook reports recovery, the agent checks the postcondition and continues",
  async () => {
    const { library, templates } = await alfworldLibrary();
    // A clean task the library solves as it is.
    const tasks = alfworldKit.tasks!({ split: "unseen" }).filter((t) => t.id!.includes("clean"));
    let task = tasks[0];
    for (const t of tasks) {
      const { result } = await drainAgent(
        runAgent({ env: alfworldKit.create(), kit: alfworldKit, library, templates, task: t }),
      );
      if (result.success) {
        task = t;
        break;
      }
    }
    // The same library with a cleaning skill that always gives up.
    const skills = library.programs().map((p) => p.skill).map((s): Skill =>
      s.name !== "clean_item" ? s : {
        ...s,
        entry: "give_up",
        nodes: [{
          id: "give_up",
          kind: "terminal",
          outcome: "failure",
          message: "Broken on purpose",
        }],
        edges: [],
      }
    );
    const broken = compileSkills(
      skills.map((s) => ({ data: s, source: s.name })),
      alfworldKit.vocabulary,
    );
    const calls: string[] = [];
    const { events, result } = await drainAgent(runAgent({
      env: alfworldKit.create(),
      kit: alfworldKit,
      library: broken,
      templates,
      task,
      // The hook stands in for reflective planning: it runs the real skill.
      onFailure: async (failure) => {
        calls.push(failure.skill);
        const { result } = await collectRun(runSkill(library.get(failure.skill)!, failure.args, {
          env: failure.env,
          grounder: failure.grounder,
          facts: failure.facts,
          library,
        }));
        return { recovered: result.outcome === "success", actions: result.actions };
      },
    }));
    assert.deepEqual(calls, ["clean_item"]);
    const recover = events.find((e) => e.type === "recover");
    assert.ok(
      recover?.type === "recover" && recover.recovered && recover.holds,
      JSON.stringify(recover),
    );
    assert.ok(result.success, result.stop);
    // The plan went on to place the cleaned item after the recovery.
    const after = events.slice(events.indexOf(recover!));
    assert.ok(after.some((e) => e.type === "call" && e.skill === "place"));
  },
);

dataTest(
  "the agent solves most unseen ALFWorld tasks with skills induced from the demonstrations",
  async () => {
    const { library, templates } = await alfworldLibrary();
    const byType = new Map<string, { solved: number; total: number }>();
    let invalid = 0;
    let actions = 0;
    const tasks = alfworldKit.tasks!({ split: "unseen" });
    assert.equal(tasks.length, 134);
    for (const task of tasks) {
      const { result } = await drainAgent(
        runAgent({ env: alfworldKit.create(), kit: alfworldKit, library, templates, task }),
      );
      const type = task.id!.split("/")[1];
      const entry = byType.get(type) ?? { solved: 0, total: 0 };
      entry.total++;
      if (result.success) entry.solved++;
      byType.set(type, entry);
      invalid += result.invalidActions;
      actions += result.actions;
    }
    const solved = [...byType.values()].reduce((n, e) => n + e.solved, 0);
    // Measured without honing: 127 of 134 (94.8%), 5 invalid actions in 3151.
    assert.ok(solved / 134 >= 0.9, `solved ${solved} of 134`);
    for (const [type, e] of byType) {
      assert.ok(e.solved / e.total >= 0.75, `${type}: ${e.solved}/${e.total}`);
    }
    assert.ok(invalid / actions < 0.02, `${invalid} invalid of ${actions}`);
  },
);

dataTest("the agent stops when the action or skill call budget is spent", async () => {
  const { library, templates } = await textcraftLibrary();
  const task = { seed: 0, options: { depth: 4 } };
  const few = await drainAgent(runAgent({
    env: textcraftKit.create({ recipes: RECIPES }),
    kit: textcraftKit,
    library,
    templates,
    task,
    maxActions: 5,
  }));
  assert.equal(few.result.success, false);
  assert.equal(few.result.actions, 5);
  assert.match(few.result.stop, /Action budget of 5 spent/);
  assert.ok(few.result.failures.some((f) => f.kind === "budget"));
  const short = await drainAgent(runAgent({
    env: textcraftKit.create({ recipes: RECIPES }),
    kit: textcraftKit,
    library,
    templates,
    task,
    maxSkillCalls: 2,
  }));
  assert.equal(short.result.skillCalls, 2);
  assert.match(short.result.stop, /Skill call budget of 2 spent/);
});

dataTest("without a fitting template the agent stops before acting and says why", async () => {
  const { library } = await textcraftLibrary();
  const { events, result } = await drainAgent(runAgent({
    env: textcraftKit.create(),
    kit: textcraftKit,
    library,
    templates: [],
    task: { seed: 1 },
  }));
  assert.equal(result.actions, 0);
  assert.equal(result.success, false);
  const stop = events.at(-1) as Extract<AgentEvent, { type: "stop" }>;
  assert.equal(stop.type, "stop");
  assert.match(stop.reason, /no task templates/);
});

Deno.test("the agent reports every action it sends as a transition", async () => {
  const { compileTraces } = await import("../../compiler/compile.ts");
  const { generateExpertTraces } = await import("../../runtime/eval/expert_traces.ts");
  const { textcraftTasks } = await import("../../environments/textcraft/mod.ts");
  const traces = await generateExpertTraces(
    textcraftKit,
    textcraftTasks({ depths: [1], count: 20, seed: 1 }),
  );
  const { library, templates } = compileTraces(traces, textcraftKit);
  const transitions: { action: string; ok: boolean }[] = [];
  const { result } = await drainAgent(runAgent({
    env: textcraftKit.create(),
    kit: textcraftKit,
    library,
    templates,
    task: { seed: 3, options: { depth: 2 } },
    onTransition: (t) => transitions.push({ action: t.action, ok: t.ok }),
  }));
  assert.equal(transitions.length, result.actions);
  assert.equal(transitions.filter((t) => !t.ok).length, result.invalidActions);
});

dataTest(
  "a failed call inside a skill is achieved on its own, then the caller runs again",
  async () => {
    const { library, templates, actionModel: model } = await textcraftDeeperLibrary();
    let innerFirst = 0;
    let solved = 0;
    // Granite wall: the granite crafted in a loop needs diorite, whose recipe uses
    // up the quartz fetched for the granite; a pink bed needs planks of any kind
    // inside the nested white bed, which the library never saw.
    const tasks = [{ seed: 49, options: { depth: 3 } }, { seed: 27, options: { depth: 2 } }];
    for (const task of tasks) {
      const { events, result } = await drainAgent(runAgent({
        env: textcraftKit.create({ recipes: RECIPES }),
        kit: textcraftKit,
        library,
        templates,
        actionModel: model,
        task,
        maxActions: 100,
      }));
      if (result.success) solved++;
      // A call made inside a failed run comes back as a subgoal of its own.
      for (let i = 0; i < events.length; i++) {
        const e = events[i];
        if (e.type !== "call" || e.reason !== "subgoal") continue;
        const nested = events.slice(0, i).some((x) =>
          x.type === "run" && x.event.type === "end" && x.event.depth > 0 &&
          x.event.outcome === "failure" && x.event.skill === e.skill
        );
        if (nested) innerFirst++;
      }
    }
    assert.equal(solved, tasks.length);
    assert.ok(innerFirst > 0);
  },
);

dataTest("a skill whose later step used up what an earlier one provided runs again", async () => {
  const { library, templates, actionModel } = await textcraftDeeperLibrary();
  // Crossbow: the tripwire hook crafted after the iron ingot uses that ingot up.
  const { events, result } = await drainAgent(runAgent({
    env: textcraftKit.create({ recipes: RECIPES }),
    kit: textcraftKit,
    library,
    templates,
    actionModel,
    task: { seed: 29, options: { depth: 3 } },
    maxActions: 100,
  }));
  assert.ok(result.success);
  const retries = events.filter((e) => e.type === "call" && e.reason === "retry" && e.level === 0);
  assert.ok(retries.length > 0);
});
