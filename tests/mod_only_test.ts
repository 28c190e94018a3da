// A new environment written, induced and evaluated with nothing but mod.ts:
// lamps to switch on, some with a blown fuse to replace first.
import assert from "node:assert/strict";
import {
  agentRunner,
  compileTraces,
  type Environment,
  type EnvironmentKit,
  evaluate,
  expertRunner,
  type FactView,
  generateExpertTraces,
  type Grounder,
  type Grounding,
  taskListOf,
  type TaskSpec,
  type Trace,
  type Vocabulary,
} from "../mod.ts";

const vocabulary: Vocabulary = {
  name: "lamps",
  types: { Lamp: { kind: "object" } },
  predicates: {
    on: { params: ["Lamp"] },
    blown: { params: ["Lamp"] },
    wanted: { params: ["Lamp"] },
  },
  functions: {},
  actions: {
    fix: { template: "fix {lamp}", params: [{ name: "lamp", type: "Lamp" }] },
    switch: { template: "switch on {lamp}", params: [{ name: "lamp", type: "Lamp" }] },
  },
};

/** A room of `size + 2` lamps; `size` are wanted; every third lamp is blown. */
function room(seed: number, size: number) {
  const lamps = Array.from({ length: size + 2 }, (_, i) => `lamp ${i + 1}`);
  const blown = new Set(lamps.filter((_, i) => (i + seed) % 3 === 0));
  const wanted = lamps.filter((_, i) => (i * 7 + seed) % (size + 2) < size);
  return { lamps, blown, wanted };
}

class Lamps implements Environment {
  readonly name = "lamps";
  readonly vocabulary = vocabulary;
  state = room(0, 1);
  lit = new Set<string>();
  reset(task: TaskSpec) {
    const seed = task.seed ?? 0;
    this.state = room(seed, Number(task.options?.size ?? 1));
    this.lit = new Set();
    const listing = this.state.lamps.map((l) => this.state.blown.has(l) ? `${l} (blown)` : l);
    return Promise.resolve({
      observation: `Lamps: ${listing.join(", ")}.\nWanted on: ${this.state.wanted.join(", ")}.`,
      goal: `switch on ${this.state.wanted.join(", ")}`,
      taskId: `lamps/${seed}/${this.state.wanted.length}`,
      taskType: "light",
    });
  }
  step(action: string) {
    const fix = /^fix (.+)$/.exec(action);
    const on = /^switch on (.+)$/.exec(action);
    let observation = "Nothing happens.";
    if (fix && this.state.lamps.includes(fix[1])) {
      this.state.blown.delete(fix[1]);
      observation = `You replace the fuse of ${fix[1]}.`;
    } else if (on && this.state.lamps.includes(on[1]) && !this.state.blown.has(on[1])) {
      this.lit.add(on[1]);
      observation = `${on[1]} is on.`;
    }
    const done = this.state.wanted.every((l) => this.lit.has(l));
    return Promise.resolve({ observation, reward: done ? 1 : 0, done });
  }
}

class LampsGrounder implements Grounder {
  initial(observation: string): Grounding {
    const [lampsLine, wantedLine] = observation.split("\n");
    const add = [];
    const objects: Record<string, string> = {};
    for (const part of lampsLine.replace(/^Lamps: |\.$/g, "").split(", ")) {
      const lamp = part.replace(" (blown)", "");
      objects[lamp] = "Lamp";
      if (part.endsWith("(blown)")) add.push({ pred: "blown", args: [lamp] });
    }
    for (const lamp of wantedLine.replace(/^Wanted on: |\.$/g, "").split(", ")) {
      add.push({ pred: "wanted", args: [lamp] });
    }
    return { delta: { add, remove: [], objects } };
  }
  step(_facts: FactView, action: string, observation: string): Grounding {
    if (observation === "Nothing happens.") {
      return { delta: { add: [], remove: [] }, rejected: observation };
    }
    const lamp = action.replace(/^(fix|switch on) /, "");
    return action.startsWith("fix")
      ? { delta: { add: [], remove: [{ pred: "blown", args: [lamp] }] } }
      : { delta: { add: [{ pred: "on", args: [lamp] }], remove: [] } };
  }
}

const kit: EnvironmentKit = {
  name: "lamps",
  vocabulary,
  create: () => new Lamps(),
  grounder: () => new LampsGrounder(),
  expert: () => ({
    async solve(env: Environment, task: TaskSpec): Promise<Trace> {
      const lamps = env as Lamps;
      const reset = await lamps.reset(task);
      const steps = [];
      for (const lamp of lamps.state.wanted) {
        if (lamps.state.blown.has(lamp)) {
          steps.push({ action: `fix ${lamp}`, ...await lamps.step(`fix ${lamp}`) });
        }
        steps.push({ action: `switch on ${lamp}`, ...await lamps.step(`switch on ${lamp}`) });
      }
      return {
        format: "skillc/trace@1",
        env: "lamps",
        task: { id: reset.taskId, type: reset.taskType },
        goal: reset.goal,
        initial: reset.observation,
        steps,
        success: steps.at(-1)?.done ?? false,
        source: "expert",
      };
    },
  }),
  // 1-3 wanted lamps to learn from, 4-7 to be measured on.
  tasks: (options = {}) =>
    Array.from({ length: options.split === "train" ? 4 : 12 }, (_, i) => ({
      seed: i + (options.split === "train" ? 0 : 100),
      options: { size: options.split === "train" ? 1 + (i % 3) : 4 + (i % 4) },
    })),
};

Deno.test("mod.ts alone builds, induces and evaluates a new environment", async () => {
  const traces = await generateExpertTraces(kit, taskListOf(kit, { split: "train" }));
  assert.ok(traces.every((t) => t.success));
  const compiled = compileTraces(traces, kit);
  assert.ok(compiled.skills.length > 0);
  assert.ok(compiled.templates[0]?.program, "a task program");
  const tasks = taskListOf(kit, { split: "unseen" });
  const agent = await evaluate({
    env: kit.name,
    createEnv: () => kit.create(),
    tasks,
    runner: agentRunner({
      kit,
      library: compiled.library,
      templates: compiled.templates,
      actionModel: compiled.actionModel,
    }),
  });
  const expert = await evaluate({
    env: kit.name,
    createEnv: () => kit.create(),
    tasks,
    runner: expertRunner(kit),
  });
  assert.equal(expert.report.success_rate, 1);
  // Larger rooms than any demonstration: the task program loops over the wanted lamps.
  assert.equal(agent.report.success_rate, 1);
  assert.ok(agent.report.avg_steps <= 1.3 * expert.report.avg_steps);
  assert.equal(agent.report.invalid_action_rate, 0);
});
