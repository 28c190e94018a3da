import assert from "node:assert/strict";
import { FactStore, matchAction, type Trace, VocabularySchema } from "../../mod.ts";
import gardenKit from "../../examples/garden/kit.ts";
import { GardenEnv } from "../../examples/garden/env.ts";
import { GardenGrounder } from "../../examples/garden/grounder.ts";
import { lines, replay } from "./_replay.ts";

// Facts the grounder knows from the start (fill and seal states only once the shed is seen).
const ALWAYS_KNOWN = [
  "at",
  "is_shed",
  "is_tap",
  "is_bed",
  "grows_in",
  "species",
  "watered",
  "fertilized",
  "located",
  "holding",
  "goal_species",
  "goal_fertilize",
];

const train = gardenKit.tasks!({ split: "train" });
const unseen = gardenKit.tasks!({ split: "unseen" });

async function solveAll(): Promise<Trace[]> {
  const expert = gardenKit.expert!();
  const traces: Trace[] = [];
  for (const task of [...train, ...unseen]) {
    traces.push(await expert.solve(gardenKit.create(), task));
  }
  return traces;
}
const traces = await solveAll();

function goalSize(env: GardenEnv): number {
  const s = env.state!;
  return s.plants.filter((p) => p.species === s.goalSpecies).length;
}

Deno.test("garden: train has 12 tasks of sizes 1-3, unseen 60 of sizes 4-8, both types", async () => {
  assert.equal(train.length, 12);
  assert.equal(unseen.length, 60);
  for (const [tasks, lo, hi] of [[train, 1, 3], [unseen, 4, 8]] as const) {
    const sizes = new Set<number>();
    const types = new Set<string>();
    for (const task of tasks) {
      const env = new GardenEnv();
      const reset = await env.reset(task);
      assert.equal(reset.taskId, task.id);
      assert.equal(goalSize(env), task.options!.size, task.id);
      sizes.add(goalSize(env));
      types.add(reset.taskType!);
    }
    assert.deepEqual(
      [...sizes].sort((a, b) => a - b),
      Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
    );
    assert.deepEqual([...types].sort(), ["water", "water_and_fertilize"]);
  }
  assert.match(unseen[17].id!, /^garden\/unseen\/\d+$/);
});

Deno.test("garden: the expert solves every train and unseen task without a rejected action", () => {
  assert.equal(traces.length, 72);
  for (const t of traces) {
    assert.equal(t.success, true, t.task.id);
    assert.equal(t.format, "skillc/trace@1");
    assert.equal(t.source, "expert");
    assert.equal(t.steps.at(-1)!.reward, 1, t.task.id);
    assert.equal(t.steps.at(-1)!.done, true, t.task.id);
    for (const s of t.steps) {
      assert.doesNotMatch(s.observation, /^(You can't do that|Nothing happens)/, t.task.id);
      assert.ok(matchAction(gardenKit.vocabulary, s.action), s.action);
    }
  }
});

Deno.test("garden: the expert is near-minimal", () => {
  for (const t of traces) {
    const n = t.steps.filter((s) => s.action.startsWith("water ")).length;
    const jobs = t.task.type === "water" ? n : 2 * n;
    // Fetching (go, take can, take bag, open) plus per plant one walk and its jobs,
    // plus per refill (at most one per two plants) a walk to the tap, a fill, a walk back.
    const bound = 4 + n + jobs + 3 * Math.ceil(n / 2);
    assert.ok(t.steps.length <= bound, `${t.task.id}: ${t.steps.length} > ${bound}`);
  }
});

Deno.test("garden: grounded facts of every expert trace agree with the simulator", async () => {
  for (const t of traces) {
    const env = new GardenEnv();
    const facts = await replay(t, env, new GardenGrounder(), ALWAYS_KNOWN);
    // By the end the shed has been seen: every fact agrees.
    assert.deepEqual(facts.toLines(), lines(env.trueFacts()), t.task.id);
  }
});

Deno.test("garden: goal facts are grounded from the goal sentence", async () => {
  for (const task of [train[0], train[1]]) {
    const env = new GardenEnv();
    const reset = await env.reset(task);
    const facts = new FactStore();
    facts.apply(gardenKit.grounder().initial(reset.observation, reset.goal).delta);
    const species = env.state!.goalSpecies;
    assert.deepEqual(facts.query("goal_species", [null]).map((a) => a.args), [[species]]);
    const fertilize = reset.taskType === "water_and_fertilize" ? [[species]] : [];
    assert.deepEqual(facts.query("goal_fertilize", [null]).map((a) => a.args), fertilize);
    assert.ok(reset.goal.endsWith(`every ${species}`), reset.goal);
  }
});

Deno.test("garden: an inapplicable action is rejected, changes nothing, and is grounded as rejected", async () => {
  const env = new GardenEnv();
  const reset = await env.reset(train[0]);
  const grounder = new GardenGrounder();
  const facts = new FactStore();
  facts.apply(grounder.initial(reset.observation, reset.goal).delta);
  const s = env.state!;
  const plant = s.plants[0].id;
  const can = s.tools.find((t) => t.kind === "can")!.id;
  for (
    const action of [
      `water ${plant} with ${can}`, // not carried, not at the bed
      `take ${can}`, // the agent is at the gate, the can in the shed
      `fill ${can}`,
      `go to ${s.gate}`, // already there
      `go to moon 1`,
      "dance wildly",
    ]
  ) {
    const before = env.state;
    const r = await env.step(action);
    assert.match(r.observation, /^(You can't do that: .+\.|Nothing happens\.)$/, action);
    assert.equal(r.reward, 0);
    assert.deepEqual(env.state, before, action);
    const g = grounder.step(facts, action, r.observation);
    assert.ok(g.rejected, action);
    assert.deepEqual(g.delta.add, []);
    assert.deepEqual(g.delta.remove, []);
  }
});

Deno.test("garden: reset is deterministic per seed, by id and by seed and options", async () => {
  const task = unseen[5];
  const a = await new GardenEnv().reset(task);
  const b = await new GardenEnv().reset({ seed: task.seed, options: task.options });
  const c = await new GardenEnv().reset({ id: task.id });
  assert.equal(a.observation, b.observation);
  assert.equal(a.observation, c.observation);
  assert.equal(a.goal, c.goal);
  assert.equal(c.taskId, task.id);
  assert.equal(b.taskId, `garden/${task.options!.type}/n${task.options!.size}/s${task.seed}`);
  const d = await new GardenEnv().reset({ id: b.taskId });
  assert.equal(d.observation, a.observation);
  const other = await new GardenEnv().reset({ seed: task.seed! + 1, options: task.options });
  assert.notEqual(other.observation, a.observation);
  await assert.rejects(() => new GardenEnv().reset({ id: "garden/bogus" }), TypeError);
  await assert.rejects(() => new GardenEnv().reset({ seed: 1, options: { size: 11 } }), TypeError);
});

Deno.test("garden: object ids and the usable can differ across seeds", async () => {
  const canSets = new Set<string>();
  const plantSets = new Set<string>();
  for (const task of unseen.slice(0, 10)) {
    const env = new GardenEnv();
    await env.reset(task);
    canSets.add(env.state!.tools.filter((t) => t.kind === "can").map((t) => t.id).join());
    plantSets.add(env.state!.plants.map((p) => p.id).join());
  }
  assert.ok(canSets.size > 3, [...canSets].join(" | "));
  assert.equal(plantSets.size, 10);
  // The can the expert takes is sometimes the first listed one, sometimes another;
  // some cans need filling first, some bags opening, and sometimes not.
  const positions = new Set<number>();
  let filledFirst = 0, opened = 0, sealedNot = 0;
  for (const t of traces) {
    const cans = [...t.initial.matchAll(/can \d+/g)].map((m) => m[0]);
    const taken = t.steps.find((s) => s.action.startsWith("take can"))!.action.slice(5);
    positions.add(cans.indexOf(taken));
    const firstJob = t.steps.findIndex((s) => s.action.startsWith("water "));
    if (t.steps.slice(0, firstJob).some((s) => s.action.startsWith("fill "))) filledFirst++;
    if (t.task.type === "water_and_fertilize") {
      if (t.steps.some((s) => s.action.startsWith("open "))) opened++;
      else sealedNot++;
    }
  }
  assert.deepEqual([...positions].sort(), [0, 1, 2]);
  assert.ok(filledFirst > 0 && filledFirst < traces.length, `filled first: ${filledFirst}`);
  assert.ok(opened > 0 && sealedNot > 0, `opened ${opened}, not ${sealedNot}`);
});

Deno.test("garden: the episode ends after the step limit without reward", async () => {
  const env = gardenKit.create({ maxSteps: 3 });
  await env.reset(train[2]);
  const results = [];
  for (let i = 0; i < 3; i++) results.push(await env.step("look"));
  assert.deepEqual(results.map((r) => r.done), [false, false, true]);
  assert.equal(results[2].reward, 0);
  const after = await env.step("look");
  assert.equal(after.done, true);
  assert.match(after.observation, /^You can't do that: the episode is over\.$/);
});

Deno.test("garden: every expert action is admissible when sent", async () => {
  for (const t of traces.slice(0, 6)) {
    const env = new GardenEnv();
    await env.reset({ id: t.task.id });
    for (const s of t.steps) {
      assert.ok((await env.admissibleActions()).includes(s.action), `${t.task.id}: ${s.action}`);
      await env.step(s.action);
    }
  }
});

Deno.test("garden: the vocabulary is valid and declares landmarks on its own predicates", () => {
  const vocab = VocabularySchema.parse(gardenKit.vocabulary);
  assert.ok(vocab.landmarks && vocab.landmarks.length > 0);
  for (const l of vocab.landmarks) assert.ok(l.pred in vocab.predicates, l.pred);
  assert.ok(vocab.landmarks.some((l) => l.pred === "watered" && l.skill === "water_plant"));
  const keywords = ["and", "or", "not", "in", "exists", "forall", "len", "true", "false"];
  const names = [
    ...Object.keys(vocab.predicates),
    ...Object.keys(vocab.functions),
    ...Object.keys(vocab.actions),
  ];
  for (const n of names) assert.ok(!keywords.includes(n) && !n.startsWith("select_"), n);
  for (const f of Object.values(vocab.functions)) assert.ok(f.predicate in vocab.predicates);
  for (const p of Object.values(vocab.predicates)) {
    for (const t of p.params) assert.ok(t === "Num" || t in vocab.types, t);
  }
});
