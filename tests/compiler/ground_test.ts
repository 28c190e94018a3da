import { dataTest, dataUrl } from "../_data.ts";
import assert from "node:assert/strict";
import type { Trace, TraceStep } from "../../dsl/trace.ts";
import type { EnvironmentKit, Expert } from "../../runtime/environment.ts";
import { acceptedSteps, groundTrace } from "../../compiler/mod.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import {
  idToName,
  loadRecipeBook,
  TextCraft,
  textcraftKit,
  textcraftTasks,
} from "../../environments/textcraft/mod.ts";

const FULL = dataUrl("textcraft/recipes/");

/** Replays a trace's actions on a fresh simulator and returns its inventory as [name, count]. */
async function replayInventory(env: TextCraft, trace: Trace): Promise<[string, number][]> {
  await env.reset({ id: trace.task.id });
  for (const step of trace.steps) await env.step(step.action);
  return [...env.inventory()].map(([id, n]): [string, number] => [idToName(id), n]).sort();
}

function inventoryFacts(trace: ReturnType<typeof groundTrace>, index: number): [string, number][] {
  return trace.states[index].query("inventory", [null, null])
    .map((a): [string, number] => [String(a.args[0]), Number(a.args[1])]).sort();
}

dataTest(
  "expert traces ground into one state per step plus the start, matching the simulator",
  async () => {
    const cases: [Record<string, unknown>, TextCraft][] = [
      [{}, new TextCraft()],
      [{ recipes: FULL }, new TextCraft({ book: loadRecipeBook(FULL) })],
    ];
    for (const [envOptions, replay] of cases) {
      const tasks = textcraftTasks({ depths: [1, 2, 3, 4], count: 2, seed: 7 });
      const progress: [number, number][] = [];
      const traces = await generateExpertTraces(textcraftKit, tasks, {
        envOptions,
        onProgress: (done, total) => progress.push([done, total]),
      });
      assert.deepEqual(progress, tasks.map((_, i) => [i + 1, tasks.length]));
      assert.deepEqual(traces.map((t) => t.task.id), tasks.map((t) => t.id));
      for (const trace of traces) {
        assert.equal(trace.success, true, trace.task.id);
        const g = groundTrace(trace, textcraftKit.grounder());
        assert.equal(g.trace, trace);
        assert.equal(g.steps.length, trace.steps.length);
        assert.equal(g.states.length, trace.steps.length + 1);
        assert.deepEqual(g.unknown, [], trace.task.id);
        assert.deepEqual(g.steps.filter((s) => s.rejected !== undefined), [], trace.task.id);
        assert.deepEqual(acceptedSteps(g), trace.steps.map((_, i) => i));
        assert.deepEqual(inventoryFacts(g, 0), []);
        assert.deepEqual(
          inventoryFacts(g, g.states.length - 1),
          await replayInventory(replay, trace),
          trace.task.id,
        );
        assert.ok(g.states[0].query("goal", [null, null]).length === 1);
        assert.deepEqual(g.steps.map((s) => s.action), trace.steps.map((s) => s.action));
      }
    }
  },
);

Deno.test("grounded states are independent stores and each delta leads from one to the next", async () => {
  const [trace] = await generateExpertTraces(textcraftKit, [{ seed: 3, options: { depth: 2 } }]);
  const g = groundTrace(trace, textcraftKit.grounder());
  g.steps.forEach((step, i) => {
    const next = g.states[i].clone();
    next.apply(step.delta);
    assert.deepEqual(next.toLines(), g.states[i + 1].toLines(), `step ${i}`);
  });
  const before = g.states[1].toLines();
  g.states[0].add({ pred: "marker", args: [] });
  g.states[2].add({ pred: "marker", args: [] });
  assert.deepEqual(g.states[1].toLines(), before);
});

Deno.test("a rejected action is marked with the reason and left out of acceptedSteps", async () => {
  const env = new TextCraft();
  const reset = await env.reset({ spec: { goal: "stick" } });
  const steps: TraceStep[] = [];
  for (const action of ["get 2 stick", "craft 4 stick using 2 oak planks", "get 1 birch logs"]) {
    const { observation } = await env.step(action);
    steps.push({ action, observation });
  }
  steps[2].annotations = ["think: logs first"];
  const trace: Trace = {
    format: "skillc/trace@1",
    env: "textcraft",
    task: { id: reset.taskId },
    goal: reset.goal,
    initial: reset.observation,
    steps,
  };
  const g = groundTrace(trace, textcraftKit.grounder());
  assert.equal(g.steps[0].rejected, "Could not find stick");
  assert.match(g.steps[1].rejected ?? "", /^Could not find enough items to craft minecraft:stick/);
  assert.equal(g.steps[2].rejected, undefined);
  assert.deepEqual(acceptedSteps(g), [2]);
  assert.deepEqual(g.steps[2].annotations, ["think: logs first"]);
  assert.equal(g.steps[0].annotations, undefined);
  // A failed get still teaches something: the item is not available.
  assert.ok(g.states[1].has({ pred: "unavailable", args: ["stick"] }));
  assert.deepEqual(inventoryFacts(g, 2), []);
  assert.deepEqual(inventoryFacts(g, 3), [["birch logs", 1]]);
});

Deno.test("text the grounder does not understand is collected with its step, -1 for the start", () => {
  const trace: Trace = {
    format: "skillc/trace@1",
    env: "textcraft",
    task: {},
    goal: "craft stick",
    initial:
      "Crafting commands:\ncraft 4 stick using 2 planks\nA strange line\n\nGoal: craft stick.",
    steps: [
      { action: "get 1 oak logs", observation: "Got 1 oak logs" },
      { action: "dance", observation: "You dance a little jig." },
    ],
  };
  const g = groundTrace(trace, textcraftKit.grounder());
  assert.deepEqual(g.unknown, [
    { step: -1, text: "A strange line" },
    { step: 1, text: "You dance a little jig." },
  ]);
  assert.equal(g.states.length, 3);
});

Deno.test("generateExpertTraces needs an expert and names the task it failed on", async () => {
  const noExpert: EnvironmentKit = { ...textcraftKit, expert: undefined };
  await assert.rejects(
    generateExpertTraces(noExpert, [{ seed: 1 }]),
    (e: Error) =>
      e instanceof TypeError && e.message === 'The "textcraft" environment has no expert',
  );
  await assert.rejects(
    generateExpertTraces(textcraftKit, [{ seed: 1 }, { id: "textcraft/d9/s1" }]),
    /Expert failed on textcraft task "textcraft\/d9\/s1": No item has minimum crafting depth 9/,
  );
  let closed = 0;
  const failing: Expert = { solve: () => Promise.reject(new Error("boom")) };
  const kit: EnvironmentKit = {
    ...textcraftKit,
    create: (o) =>
      Object.assign(textcraftKit.create(o), { close: () => Promise.resolve(void closed++) }),
    expert: () => failing,
  };
  await assert.rejects(generateExpertTraces(kit, [{ seed: 4 }]), /task with seed 4: boom/);
  assert.equal(closed, 1);
});

dataTest("groundTrace repairs the state before a step with what its success proves", async () => {
  const { alfworldKit } = await import("../../environments/alfworld/mod.ts");
  const { importTranscripts } = await import("../../environments/alfworld/mod.ts");
  const text = await Deno.readTextFile(
    dataUrl("alfworld/react_demos_2per_type.json"),
  );
  const heat = importTranscripts(text, "demos").find((t) => t.source?.endsWith("#act_heat_0"))!;
  assert.equal(heat.steps[0].action, "open fridge 1");
  const g = groundTrace(heat, alfworldKit.grounder());
  // The text never says where the agent starts; opening the fridge proves it.
  assert.equal(g.states[0].has({ pred: "locates", args: ["fridge 1"] }), true);
  assert.equal(g.states[0].has({ pred: "is_closed", args: ["fridge 1"] }), true);
  assert.equal(g.states[1].has({ pred: "is_open", args: ["fridge 1"] }), true);
  // Without hindsight the state says nothing of the kind.
  const plain = alfworldKit.grounder();
  const forward = groundTrace(heat, {
    initial: plain.initial.bind(plain),
    step: plain.step.bind(plain),
  });
  assert.equal(forward.states[0].has({ pred: "locates", args: ["fridge 1"] }), false);
});
