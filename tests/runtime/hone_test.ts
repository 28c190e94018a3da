import assert from "node:assert/strict";
import { Honer } from "../../runtime/hone/hone.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import type { Skill, SkillInput } from "../../dsl/graph/schema.ts";
import { SkillSchema } from "../../dsl/graph/schema.ts";
import { takeOnlySkill, type ToyBox, toyGrounder, toySetup, toyVocab } from "./_toy.ts";
import { recoveryCandidates } from "../../runtime/hone/reflect.ts";
import { applySkillEdit } from "../../runtime/store/skill_edit.ts";

const takeOnly = takeOnlySkill();

async function attempt(honer: Honer, boxes: ToyBox[]) {
  const { env, facts } = await toySetup(boxes);
  const program = honer.library().get("take_color")!;
  const { events, result } = await collectRun(
    runSkill(program, { c: "red" }, { env, grounder: toyGrounder, facts }),
  );
  let outcome;
  if (result.outcome === "failure") {
    outcome = await honer.onFailure({
      skill: "take_color",
      result,
      events,
      env,
      grounder: toyGrounder,
      facts,
    });
  }
  honer.observe("take_color", events, result);
  return { env, events, result, outcome };
}

const closed = (): ToyBox[] => [{ id: "b1", color: "red", open: false }];

Deno.test("recoveryCandidates() proposes actions over the failed action's arguments", () => {
  assert.deepEqual(recoveryCandidates(toyVocab, "take b1"), ["open b1"]);
});

Deno.test("a failure is recovered and grafted, solidified after two uses, then runs without recovery", async () => {
  const honer = new Honer([SkillSchema.parse(takeOnly)], toyVocab, { solidifyAfter: 2 });
  const first = await attempt(honer, closed());
  assert.equal(first.result.outcome, "failure");
  assert.equal(first.outcome?.recovered, true);
  assert.deepEqual(first.env.actions, ["take b1", "open b1", "take b1"]);
  let skill: Skill = honer.skills()[0];
  assert.equal(skill.grafts?.length, 1);
  assert.deepEqual(skill.grafts![0], {
    id: "g1",
    nodes: ["graft_g1", "recover_open"],
    status: "tentative",
    successes: 0,
  });
  const check = skill.nodes.find((n) => n.id === "graft_g1");
  assert.ok(check?.kind === "check" && check.cond === "not is_open(b)");
  assert.deepEqual(honer.takeChanges().map((c) => c.kind), ["graft"]);

  for (const expected of ["tentative", "permanent"]) {
    const run = await attempt(honer, closed());
    assert.equal(run.result.outcome, "success");
    assert.equal(run.outcome, undefined);
    assert.deepEqual(run.env.actions, ["open b1", "take b1"]);
    skill = honer.skills()[0];
    assert.equal(skill.grafts![0].status, expected);
  }
  assert.deepEqual(honer.takeChanges().map((c) => c.kind), ["solidify"]);

  // An open box: the guard does not fire and nothing is counted.
  const open = await attempt(honer, [{ id: "b1", color: "red", open: true }]);
  assert.deepEqual(open.env.actions, ["take b1"]);
  assert.equal(honer.skills()[0].grafts![0].successes, 2);
  // And a closed one again: handled by the permanent graft, no recovery.
  const again = await attempt(honer, closed());
  assert.equal(again.result.outcome, "success");
  assert.equal(again.outcome, undefined);
  assert.ok(!again.events.some((e) => e.type === "observe" && e.rejected !== undefined));
});

Deno.test("a tentative graft whose path fails is removed", async () => {
  const honer = new Honer([SkillSchema.parse(takeOnly)], toyVocab);
  await attempt(honer, closed());
  honer.takeChanges();
  const locked = await attempt(honer, [{ id: "b1", color: "red", open: false, locked: true }]);
  assert.equal(locked.result.outcome, "failure");
  assert.equal(locked.result.diagnosis?.node, "recover_open");
  const skill = honer.skills()[0];
  assert.equal(skill.grafts?.length ?? 0, 0);
  assert.deepEqual(skill.nodes.map((n) => n.id), ["pick", "take", "ok"]);
  assert.deepEqual(
    skill.edges,
    SkillSchema.parse(takeOnly).edges,
  );
  assert.deepEqual(honer.takeChanges().map((c) => c.kind), ["remove"]);
});

Deno.test("a failure with no recovery narrows the skill's docstring", async () => {
  const honer = new Honer([SkillSchema.parse(takeOnly)], toyVocab);
  const run = await attempt(honer, [{ id: "b1", color: "red", open: false, locked: true }]);
  assert.equal(run.outcome?.recovered, false);
  assert.deepEqual(run.env.actions, ["take b1", "open b1"]);
  const skill = honer.skills()[0];
  assert.equal(skill.grafts?.length ?? 0, 0);
  assert.match(skill.doc.summary, /Does not apply when Action "take b1" failed: Nothing happens\./);
  const changes = honer.takeChanges();
  assert.deepEqual(changes.map((c) => c.kind), ["narrow"]);
  assert.match(changes[0].detail ?? "", /no corrective plan made "take b1" succeed/);
});

/** `take_color` that first checks for a box of the color, failing with `diagnosis` if none. */
function checkingFirst(diagnosis: string): SkillInput {
  return {
    ...takeOnly,
    nodes: [
      { id: "has", kind: "check", cond: "exists(x: Box, color(x, c))" },
      {
        id: "none",
        kind: "terminal",
        outcome: "failure",
        message: "No box of the color",
        diagnosis,
      },
      ...takeOnly.nodes,
    ],
    entry: "has",
    edges: [
      { from: "has", to: "pick", label: "yes" },
      { from: "has", to: "none", label: "no" },
      ...takeOnly.edges,
    ],
  };
}

Deno.test("narrowing with a diagnosis over the parameters excludes that context from the precondition", async () => {
  const withCheck = checkingFirst("not exists(x: Box, color(x, c))");
  const honer = new Honer([SkillSchema.parse(withCheck)], toyVocab);
  await attempt(honer, [{ id: "b1", color: "blue", open: true }]);
  const skill = honer.skills()[0];
  assert.deepEqual(skill.doc.excluded, ["not exists(x: Box, color(x, c))"]);
  // The double negation is dropped.
  assert.equal(skill.doc.pre, "exists(x: Box, color(x, c))");
  assert.equal(honer.takeChanges().length, 1);
  // The same failure again changes nothing: no change to commit.
  await attempt(honer, [{ id: "b1", color: "blue", open: true }]);
  assert.deepEqual(honer.takeChanges(), []);
  assert.deepEqual(honer.skills()[0], skill);
});

Deno.test("a diagnosis the run's own facts contradict does not narrow the precondition", async () => {
  // The diagnosis says the opposite of why the run ends there.
  const wrongDiagnosis = checkingFirst("exists(x: Box, color(x, c))");
  const honer = new Honer([SkillSchema.parse(wrongDiagnosis)], toyVocab);
  const { result } = await attempt(honer, [{ id: "b1", color: "blue", open: true }]);
  assert.equal(result.diagnosis?.holds, false);
  const skill = honer.skills()[0];
  assert.equal(skill.doc.excluded, undefined);
  assert.equal(skill.doc.pre, undefined);
  assert.match(skill.doc.summary, /Does not apply when No box of the color/);
});

Deno.test("scenario: an induced skill that never saw a closed box learns to open it, persisted version by version", async () => {
  const { induceSkills } = await import("../../compiler/induce.ts");
  const { DirectoryStore } = await import("../../runtime/store/directory_store.ts");
  const { loadLibrary } = await import("../../runtime/store/library.ts");
  const { ToyEnv } = await import("./_toy.ts");
  const vocab = {
    ...toyVocab,
    landmarks: [{ pred: "taken", on: "add" as const, skill: "take_box" }],
  };
  const kit = {
    name: "toy",
    vocabulary: vocab,
    create: () => new ToyEnv([]),
    grounder: () => toyGrounder,
  };
  // Demonstrations: the expert takes the red box; every box is open.
  const traces = [];
  for (const boxes of [[["b1", "red"], ["b2", "blue"]], [["b3", "blue"], ["b4", "red"]]]) {
    const env = new ToyEnv(boxes.map(([id, color]) => ({ id, color, open: true })));
    const first = await env.reset();
    const red = boxes.find(([, c]) => c === "red")![0];
    const step = await env.step(`take ${red}`);
    traces.push({
      format: "skillc/trace@1" as const,
      env: "toy",
      task: {},
      goal: first.goal,
      initial: first.observation,
      steps: [{ action: `take ${red}`, observation: step.observation }],
    });
  }
  const induced = induceSkills(traces, kit);
  assert.equal(induced.skills.length, 1);
  const skill = induced.skills[0].skill;
  assert.equal(skill.name, "take_box");
  assert.ok(!skill.nodes.some((n) => n.kind === "primitive" && n.action === "open"));
  const param = skill.params[0].name;

  const dir = await Deno.makeTempDir();
  let store = await DirectoryStore.create(dir, vocab, [skill], { kind: "induce" });
  const honer = new Honer(store.skills(), vocab, { solidifyAfter: 2 });
  const run = async (boxes: ToyBox[]) => {
    const { env, facts } = await toySetup(boxes);
    const { events, result } = await collectRun(
      runSkill(honer.library().get("take_box")!, { [param]: "red" }, {
        env,
        grounder: toyGrounder,
        facts,
      }),
    );
    const outcome = result.outcome === "failure"
      ? await honer.onFailure({
        skill: "take_box",
        result,
        events,
        env,
        grounder: toyGrounder,
        facts,
      })
      : undefined;
    honer.observe("take_box", events, result);
    const changes = honer.takeChanges();
    if (changes.length > 0) await store.commit(honer.skills(), changes);
    return { env, result, outcome };
  };
  const closedRed = (): ToyBox[] => [
    { id: "b7", color: "blue", open: false },
    { id: "b8", color: "red", open: false },
  ];
  const fails = await run(closedRed());
  assert.equal(fails.result.outcome, "failure");
  assert.equal(fails.outcome?.recovered, true);
  for (let i = 0; i < 2; i++) {
    const ok = await run(closedRed());
    assert.equal(ok.result.outcome, "success");
    assert.equal(ok.outcome, undefined);
  }
  // Reload from disk: the graft is permanent, and the next run needs no recovery.
  store = await DirectoryStore.open(dir, vocab);
  assert.equal(store.version, 3);
  const stored = store.skills()[0];
  assert.equal(stored.grafts?.[0].status, "permanent");
  assert.deepEqual((await store.history()).map((h) => h.kind), ["induce", "graft", "solidify"]);
  const library = await loadLibrary(dir, vocab);
  const { env, facts } = await toySetup(closedRed());
  const { events, result } = await collectRun(
    runSkill(library.get("take_box")!, { [param]: "red" }, { env, grounder: toyGrounder, facts }),
  );
  assert.equal(result.outcome, "success");
  assert.deepEqual(env.actions, ["open b8", "take b8"]);
  assert.ok(!events.some((e) => e.type === "observe" && e.rejected !== undefined));
});

Deno.test("recovery tries first what a learned action model says supplies the unmet precondition", async () => {
  const { learnActionModel } = await import("../../runtime/learn/action_model.ts");
  const { recoverAction } = await import("../../runtime/hone/reflect.ts");
  const { FactStore } = await import("../../runtime/fact_store.ts");
  // Learn from a few transitions: take needs the box open; open makes it open.
  const transitions = [];
  for (const open of [true, false]) {
    const { env, facts } = await toySetup([{ id: "b1", color: "red", open }]);
    for (const action of ["take b1", "open b1", "take b1"]) {
      const before = facts.clone();
      const r = await env.step(action);
      const g = toyGrounder.step(facts, action, r.observation);
      facts.apply(g.delta);
      transitions.push({ facts: before, action, ok: g.rejected === undefined, delta: g.delta });
    }
  }
  const model = learnActionModel(toyVocab, transitions);
  const { env, facts } = await toySetup([{ id: "b1", color: "red", open: false }]);
  assert.deepEqual(model.unmet(facts, "take b1"), ["is_open('b1')"]);
  const r = await recoverAction(
    { action: "take b1", reason: "Nothing happens." },
    { env, grounder: toyGrounder, facts: facts as InstanceType<typeof FactStore>, vocab: toyVocab },
    { advisor: model },
  );
  assert.equal(r.ok, true);
  assert.deepEqual(r.tried, ["open b1"]);
});

Deno.test("with skipSatisfied, an action whose learned effects already hold is not sent", async () => {
  const { learnActionModel } = await import("../../runtime/learn/action_model.ts");
  const transitions = [];
  const { env: env0, facts: facts0 } = await toySetup([{ id: "b1", color: "red", open: false }]);
  const before = facts0.clone();
  const r = await env0.step("open b1");
  const g = toyGrounder.step(facts0, "open b1", r.observation);
  transitions.push({ facts: before, action: "open b1", ok: true, delta: g.delta });
  const model = learnActionModel(toyVocab, transitions);
  const openThenTake: SkillInput = {
    ...takeOnly,
    name: "open_take",
    nodes: [
      ...takeOnly.nodes,
      { id: "open", kind: "primitive", action: "open", args: { b: "b" } },
    ],
    edges: [
      { from: "pick", to: "open", label: "next" },
      { from: "open", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
    ],
  };
  const { compileSkill } = await import("../../runtime/exec/program.ts");
  const program = compileSkill(openThenTake, toyVocab);
  assert.ok(program.ok);
  for (const [open, expected] of [[true, ["take b1"]], [false, ["open b1", "take b1"]]] as const) {
    const { env, facts } = await toySetup([{ id: "b1", color: "red", open }]);
    const { result } = await collectRun(
      runSkill(program.value, { c: "red" }, {
        env,
        grounder: toyGrounder,
        facts,
        actionModel: model,
        skipSatisfied: true,
      }),
    );
    assert.equal(result.outcome, "success");
    assert.deepEqual(env.actions, expected);
  }
  assert.equal(model.satisfied(facts0, "take b1"), false, "no learned effects: never skipped");
});

Deno.test("a honing session learns the action model from the transitions of each episode", async () => {
  const { learnActionModel } = await import("../../runtime/learn/action_model.ts");
  const { HoningSession } = await import("../../runtime/hone/honing_session.ts");
  const record = async (open: boolean, actions: string[]) => {
    const { env, facts } = await toySetup([{ id: "b1", color: "red", open }]);
    const out = [];
    for (const action of actions) {
      const before = facts.clone();
      const r = await env.step(action);
      const g = toyGrounder.step(facts, action, r.observation);
      facts.apply(g.delta);
      out.push({
        facts: before,
        action,
        ok: g.rejected === undefined,
        ...(g.rejected === undefined ? { delta: g.delta } : {}),
      });
    }
    return { facts, out };
  };
  // Demonstrations only ever took from open boxes: no confirmed rule for take.
  const demo = await record(true, ["take b1"]);
  const start = learnActionModel(toyVocab, demo.out);
  const closed = (await toySetup([{ id: "b1", color: "red", open: false }])).facts;
  assert.deepEqual(start.unmet(closed, "take b1"), []);
  const saved: unknown[] = [];
  const session = new HoningSession(new Honer([SkillSchema.parse(takeOnly)], toyVocab), toyVocab, {
    actionModel: start,
    saveModel: (m) => Promise.resolve(saved.push(m)),
  });
  // An episode rejects a take from a closed box, then succeeds after opening it.
  for (const t of (await record(false, ["take b1", "open b1", "take b1"])).out) {
    session.onTransition(t);
  }
  await session.endEpisode();
  assert.deepEqual(session.actionModel()!.unmet(closed, "take b1"), ["is_open('b1')"]);
  assert.equal(saved.length, 1);
});

Deno.test("every change the honer makes carries an edit that replays it on the skill it changed", async () => {
  const honer = new Honer([SkillSchema.parse(takeOnly)], toyVocab, { solidifyAfter: 1 });
  let before = honer.skills()[0];
  const kinds: string[] = [];
  const check = () => {
    const after = honer.skills()[0];
    for (const change of honer.takeChanges()) {
      kinds.push(change.kind);
      assert.ok(change.edit, `${change.kind} has an edit`);
      before = applySkillEdit(before, change.edit).skill;
    }
    // Graft counters are run statistics, not part of an edit.
    const counts = (s: Skill) => ({ ...s, grafts: s.grafts?.map((g) => ({ ...g, successes: 0 })) });
    assert.deepEqual(counts(before), counts(after));
    before = after;
  };
  await attempt(honer, closed()); // graft
  check();
  await attempt(honer, closed()); // solidify
  check();
  await attempt(honer, [{ id: "b1", color: "red", open: false, locked: true }]); // remove
  check();
  await attempt(honer, [{ id: "b1", color: "red", open: false, locked: true }]); // narrow
  check();
  assert.deepEqual(kinds, ["graft", "solidify", "remove", "narrow"]);
});
