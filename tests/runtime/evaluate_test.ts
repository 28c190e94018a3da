import assert from "node:assert/strict";
import type { Environment, ResetResult, StepResult, TaskSpec } from "../../runtime/environment.ts";
import {
  type EpisodeRecord,
  type EpisodeRunner,
  evaluate,
  summarize,
  TrackedEnvironment,
} from "../../runtime/eval/evaluate.ts";
import { agentRunner, expertRunner } from "../../runtime/eval/eval_runners.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { toyVocab } from "./_toy.ts";

/** A counter: "inc" adds one (rejected past the task's limit), "stop" ends with reward 1. */
class CounterEnv implements Environment {
  readonly name = "counter";
  readonly vocabulary = toyVocab;
  closed = false;
  #limit = 0;
  #n = 0;
  constructor(readonly failAt?: number) {}
  reset(task: TaskSpec): Promise<ResetResult> {
    this.#limit = task.seed ?? 0;
    this.#n = 0;
    return Promise.resolve({
      observation: `Count to ${this.#limit}.`,
      goal: "count",
      taskId: `counter/${this.#limit}`,
      taskType: this.#limit % 2 === 0 ? "even" : "odd",
    });
  }
  step(action: string): Promise<StepResult> {
    if (this.failAt !== undefined && this.#n + 1 >= this.failAt) {
      return Promise.reject(new Error("POST http://127.0.0.1:9/step: connection refused"));
    }
    if (action === "stop") {
      return Promise.resolve({ observation: "Stopped.", reward: 1, done: true });
    }
    if (this.#n >= this.#limit) {
      return Promise.resolve({ observation: "Nothing happens.", reward: 0, done: false });
    }
    this.#n++;
    return Promise.resolve({ observation: `Count ${this.#n}.`, reward: 0, done: false });
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** Increments `tries` times (one try too many on odd tasks), then stops when the count is right. */
const counterRunner: EpisodeRunner = {
  async run(env, task) {
    await env.reset(task);
    const limit = task.seed ?? 0;
    const tries = limit % 2 === 0 ? limit : limit + 1;
    let invalid = 0;
    for (let i = 0; i < tries; i++) {
      if ((await env.step("inc")).observation === "Nothing happens.") invalid++;
    }
    const end = limit < 4 ? await env.step("stop") : undefined;
    return {
      success: end?.done === true,
      reward: end?.reward ?? 0,
      actions: tries + (end ? 1 : 0),
      invalidActions: invalid,
      skillCalls: 2,
      steps: 10,
    };
  },
};

Deno.test("evaluate() computes success, steps, invalid rate and per-type metrics over all episodes", async () => {
  const tasks = [1, 2, 3, 4].map((seed) => ({ seed }));
  const envs: CounterEnv[] = [];
  let clock = 0;
  const seen: number[] = [];
  const { records, report } = await evaluate({
    env: "counter",
    variant: "toy",
    createEnv: () => {
      const e = new CounterEnv();
      envs.push(e);
      return e;
    },
    tasks,
    runner: counterRunner,
    onEpisode: (_r, done) => void seen.push(done),
    now: () => (clock += 250),
  });
  // Actions: seed 1: 2 inc + stop, 2: 2 + stop, 3: 4 + stop, 4: 4 (no stop) = 3 + 3 + 5 + 4.
  assert.deepEqual(records.map((r) => r.actions), [3, 3, 5, 4]);
  assert.deepEqual(records.map((r) => r.success), [true, true, true, false]);
  assert.deepEqual(records.map((r) => r.task), [
    "counter/1",
    "counter/2",
    "counter/3",
    "counter/4",
  ]);
  assert.equal(report.tasks, 4);
  assert.equal(report.success_rate, 0.75);
  assert.equal(report.avg_steps, 15 / 4);
  assert.equal(report.invalid_action_rate, 2 / 15); // one extra inc on each odd task
  assert.equal(report.steps_per_skill, 15 / 8);
  assert.equal(report.node_steps, 40);
  assert.equal(report.llm_calls, 0);
  assert.equal(report.progress_rate, null, "the counter reports no progress");
  assert.deepEqual(report.by_type.odd, {
    tasks: 2,
    successes: 2,
    success_rate: 1,
    avg_steps: 4,
  });
  assert.deepEqual(report.by_type.even, {
    tasks: 2,
    successes: 1,
    success_rate: 0.5,
    avg_steps: 3.5,
  });
  assert.deepEqual(Object.keys(report.by_type), ["odd", "even"]);
  assert.ok(report.seconds > 0);
  assert.deepEqual(seen, [1, 2, 3, 4]);
  assert.ok(envs.every((e) => e.closed), "every environment is closed");
});

Deno.test("evaluate() averages the progress rate of environments that report one", async () => {
  /** A counter whose progress is the count reached over the target, kept after close. */
  class ProgressEnv extends CounterEnv {
    #target = 1;
    #count = 0;
    override reset(task: TaskSpec): Promise<ResetResult> {
      this.#target = task.seed ?? 1;
      this.#count = 0;
      return super.reset(task);
    }
    override async step(action: string): Promise<StepResult> {
      const r = await super.step(action);
      if (r.observation.startsWith("Count")) this.#count++;
      return r;
    }
    get progressRate(): number {
      return Math.min(1, this.#count / this.#target);
    }
  }
  const { records, report } = await evaluate({
    env: "counter",
    createEnv: () => new ProgressEnv(),
    tasks: [{ seed: 2 }, { seed: 4 }],
    runner: counterRunner,
  });
  // Seed 2 counts to 2 (progress 1); seed 4 counts to 4 but never stops (progress 1, failure).
  assert.deepEqual(records.map((r) => r.progress), [1, 1]);
  assert.deepEqual(records.map((r) => r.success), [true, false]);
  assert.equal(report.progress_rate, 1);
  const half = summarize([{ ...records[0], progress: 0.5 }, records[1]], {
    env: "counter",
    variant: "toy",
    seconds: 0,
  });
  assert.equal(half.progress_rate, 0.75);
});

Deno.test("evaluate() reports an episode whose environment fails as failed with its error, and goes on", async () => {
  let n = 0;
  const { records, report } = await evaluate({
    env: "counter",
    createEnv: () => new CounterEnv(n++ === 1 ? 2 : undefined),
    tasks: [{ seed: 2 }, { seed: 2 }, { seed: 2 }],
    labels: ["a.jsonl:1", "a.jsonl:2", "a.jsonl:3"],
    runner: counterRunner,
  });
  assert.equal(records.length, 3);
  assert.deepEqual(records.map((r) => r.success), [true, false, true]);
  assert.match(records[1].error ?? "", /connection refused/);
  assert.equal(records[1].task, "counter/2", "the task reset before the failure is named");
  assert.equal(records[1].label, "a.jsonl:2");
  assert.equal(records[1].actions, 2, "the actions sent before the failure are counted");
  assert.deepEqual(report.errors, [{
    task: "counter/2",
    label: "a.jsonl:2",
    error: "POST http://127.0.0.1:9/step: connection refused",
  }]);
  assert.equal(report.success_rate, 2 / 3);
});

Deno.test("evaluate() labels an episode that fails before reset with the task's label", async () => {
  const { records } = await evaluate({
    env: "counter",
    createEnv: () => {
      throw new Error("Cannot connect");
    },
    tasks: [{ spec: {} }],
    labels: ["tasks.jsonl:7"],
    runner: counterRunner,
  });
  assert.equal(records[0].task, "tasks.jsonl:7");
  assert.equal(records[0].type, "task");
  assert.equal(records[0].error, "Cannot connect");
});

Deno.test("summarize() has no skill rate without skill calls and no invalid rate without actions", () => {
  const record: EpisodeRecord = {
    index: 0,
    task: "t",
    label: "t",
    type: "x",
    seconds: 0,
    success: false,
    reward: 0,
    actions: 0,
    invalidActions: 0,
    plannedActions: 0,
    skillCalls: 0,
    steps: 0,
    llmCalls: 3,
  };
  const r = summarize([record, { ...record, index: 1 }], {
    env: "e",
    variant: "v",
    seconds: 1,
  });
  assert.equal(r.steps_per_skill, null);
  assert.equal(r.invalid_action_rate, 0);
  assert.equal(r.planned_action_rate, 0);
  assert.equal(r.llm_calls, 6);
  assert.equal(r.success_rate, 0);
});

Deno.test("TrackedEnvironment forwards admissible actions only when the environment lists them", async () => {
  const plain = new TrackedEnvironment(new CounterEnv());
  assert.equal(plain.admissibleActions, undefined);
  const listing = Object.assign(new CounterEnv(), {
    admissibleActions: () => Promise.resolve(["inc", "stop"]),
  });
  assert.deepEqual(await new TrackedEnvironment(listing).admissibleActions?.(), ["inc", "stop"]);
});

Deno.test("the expert bounds the agent on a small TextCraft run with consistent metrics", async () => {
  const traces = await generateExpertTraces(
    textcraftKit,
    textcraftKit.tasks!({ depths: [1], count: 20, seed: 1 }),
  );
  const { library, templates } = compileTraces(traces, textcraftKit);
  const tasks = textcraftKit.tasks!({ depths: [2, 3], count: 3, seed: 1 });
  const common = { env: "textcraft", createEnv: () => textcraftKit.create(), tasks };
  const expert = await evaluate({
    ...common,
    variant: "expert",
    runner: expertRunner(textcraftKit),
  });
  const agent = await evaluate({
    ...common,
    variant: "full",
    runner: agentRunner({ kit: textcraftKit, library, templates }),
  });
  assert.equal(expert.report.success_rate, 1);
  assert.equal(expert.report.invalid_action_rate, 0);
  assert.equal(expert.report.steps_per_skill, null);
  assert.deepEqual(Object.keys(agent.report.by_type), ["depth2", "depth3"]);
  assert.ok(agent.report.success_rate > 0, "the induced library solves some deeper tasks");
  assert.equal(agent.report.llm_calls, 0);
  const actions = agent.records.reduce((a, r) => a + r.actions, 0);
  const calls = agent.records.reduce((a, r) => a + r.skillCalls, 0);
  assert.equal(agent.report.avg_steps, actions / tasks.length);
  assert.equal(agent.report.steps_per_skill, actions / calls);
  assert.ok(agent.report.node_steps > actions, "think steps are counted besides actions");
  // No agent needs fewer actions than the expert's plan on a task it solves.
  for (const [i, r] of agent.records.entries()) {
    if (r.success) assert.ok(r.actions >= expert.records[i].actions, r.task);
  }
});
