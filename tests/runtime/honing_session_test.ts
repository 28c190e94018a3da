import assert from "node:assert/strict";
import { type SkillInput, SkillSchema } from "../../dsl/graph/schema.ts";
import type { Environment } from "../../runtime/environment.ts";
import { evaluate } from "../../runtime/eval/evaluate.ts";
import { agentRunner } from "../../runtime/eval/eval_runners.ts";
import { Honer } from "../../runtime/hone/hone.ts";
import { HoningSession } from "../../runtime/hone/honing_session.ts";
import { DirectoryStore } from "../../runtime/store/directory_store.ts";
import type { TaskTemplate } from "../../runtime/store/task_template.ts";
import { type ToyBox, ToyEnv, toyGrounder, toyVocab } from "./_toy.ts";

// Takes the red box and finishes, with no idea that boxes can be closed.
const takeAndFinish: SkillInput = {
  name: "take_color",
  vocabulary: "toy",
  params: [{ name: "c", type: "Color" }],
  doc: { summary: "Take a box of a color and finish." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
    { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
    { id: "finish", kind: "primitive", action: "finish", args: {} },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "take", label: "next" },
    { from: "take", to: "finish", label: "next" },
    { from: "finish", to: "ok", label: "next" },
  ],
};

const template: TaskTemplate = {
  type: "boxes",
  traces: 1,
  steps: [{ skill: "take_color", args: [{ name: "c", type: "Color", expr: "'red'" }] }],
  support: 1,
  alternatives: [],
};

const kit = { vocabulary: toyVocab, grounder: () => toyGrounder };

Deno.test("honing across episodes grafts a recovery, commits it, and later episodes use and solidify it", async () => {
  const dir = await Deno.makeTempDir();
  const skill = SkillSchema.parse(takeAndFinish);
  const store = await DirectoryStore.create(dir, toyVocab, [skill], { kind: "induce" }, {
    templates: [template],
  });
  const committed: string[][] = [];
  const session = new HoningSession(new Honer(store.skills(), toyVocab), toyVocab, {
    commit: async (skills, changes) => {
      committed.push(changes.map((c) => c.kind));
      await store.commit(skills, changes);
    },
  });
  const envs: ToyEnv[] = [];
  const closed: ToyBox[] = [{ id: "b1", color: "red", open: false }];
  const { records, report } = await evaluate({
    env: "toy",
    variant: "hone",
    createEnv: (): Environment => {
      const env = new ToyEnv(closed);
      envs.push(env);
      return env;
    },
    tasks: [{ seed: 1 }, { seed: 2 }, { seed: 3 }],
    runner: agentRunner({
      kit,
      library: store.library(),
      templates: store.templates(),
      honing: session,
    }),
  });
  // Episode 1: "take" is rejected; recovery opens the box and takes it (the finish never runs).
  assert.deepEqual(envs[0].actions, ["take b1", "open b1", "take b1"]);
  assert.equal(records[0].success, false);
  assert.equal(records[0].invalidActions, 1);
  assert.equal(records[0].actions, 3, "recovery actions count");
  // Episodes 2 and 3 run the grafted skill: open first, no rejection.
  for (const i of [1, 2]) {
    assert.deepEqual(envs[i].actions, ["open b1", "take b1", "finish"]);
    assert.equal(records[i].success, true);
    assert.equal(records[i].invalidActions, 0);
  }
  assert.deepEqual(committed, [["graft"], ["solidify"]]);
  assert.deepEqual(session.changeCounts(), {
    induce: 0,
    graft: 1,
    solidify: 1,
    remove: 0,
    narrow: 0,
    edit: 0,
  });
  assert.equal(session.recoveries, 1);
  assert.equal(report.success_rate, 2 / 3);
  // The library on disk holds the permanent graft and the templates.
  const reopened = await DirectoryStore.open(dir, toyVocab);
  assert.equal(reopened.version, 3);
  assert.equal(reopened.skills()[0].grafts?.[0].status, "permanent");
  assert.deepEqual(reopened.templates(), [template]);
});

Deno.test("the honer observes a run that ends in success without its postcondition as failed", async () => {
  const withPost = SkillSchema.parse({
    ...takeAndFinish,
    doc: { summary: "Take a box.", post: "exists(x: Box, taken(x) and color(x, c))" },
    nodes: takeAndFinish.nodes.filter((n) => n.id !== "finish"),
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
    ],
  });
  const observed: string[] = [];
  class SpyHoner extends Honer {
    override observe(...args: Parameters<Honer["observe"]>): void {
      observed.push(`${args[0]}:${args[2].outcome}`);
      super.observe(...args);
    }
  }
  const session = new HoningSession(new SpyHoner([withPost], toyVocab), toyVocab);
  const env = new ToyEnv([{ id: "b1", color: "red", open: true }]);
  await evaluate({
    env: "toy",
    createEnv: () => env,
    tasks: [{ seed: 1 }],
    runner: agentRunner({
      kit,
      library: session.library(),
      templates: [template],
      honing: session,
    }),
  });
  assert.deepEqual(observed, ["take_color:success"]);
  // False before the run (so the step is not skipped) and after it.
  const wrongPost = "exists(x: Box, taken(x) and not color(x, c))";
  const broken = new HoningSession(
    new SpyHoner([{ ...withPost, doc: { ...withPost.doc, post: wrongPost } }], toyVocab),
    toyVocab,
  );
  observed.length = 0;
  await evaluate({
    env: "toy",
    createEnv: () => new ToyEnv([{ id: "b1", color: "red", open: true }]),
    tasks: [{ seed: 1 }],
    runner: agentRunner({ kit, library: broken.library(), templates: [template], honing: broken }),
  });
  assert.ok(observed[0] === "take_color:failure", observed.join(", "));
});

Deno.test("two sessions honing one library merge their changes and each continues from both", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const skill = SkillSchema.parse(takeAndFinish);
    (await DirectoryStore.create(dir, toyVocab, [skill], { kind: "induce" }, {
      templates: [template],
    })).close();
    // Two writers opened at version 1, as two processes would be.
    const sessionOn = async () => {
      const store = await DirectoryStore.open(dir, toyVocab);
      const session = new HoningSession(new Honer(store.skills(), toyVocab), toyVocab, {
        commit: async (skills, changes) => {
          await store.commit(skills, changes);
          return store.skills();
        },
      });
      return { store, session };
    };
    const a = await sessionOn();
    const b = await sessionOn();
    const episode = async (s: typeof a, boxes: ToyBox[]) => {
      const env = new ToyEnv(boxes);
      const { records } = await evaluate({
        env: "toy",
        createEnv: () => env,
        tasks: [{ seed: 1 }],
        runner: agentRunner({
          kit,
          library: s.session.library(),
          templates: [template],
          honing: s.session,
        }),
      });
      return { env, record: records[0] };
    };
    // A learns to open a closed box; B, still at version 1, learns that a locked one fails.
    await episode(a, [{ id: "b1", color: "red", open: false }]);
    assert.equal(a.store.version, 2);
    await episode(b, [{ id: "b1", color: "red", open: false, locked: true }]);
    assert.equal(b.store.version, 3);
    const history = await b.store.history();
    assert.deepEqual(history.map((h) => [h.version, h.kind]), [
      [1, "induce"],
      [2, "graft"],
      [3, "narrow"],
    ]);
    const merged = b.store.skills()[0];
    assert.equal(merged.grafts?.length, 1);
    assert.match(merged.doc.summary, /Does not apply when/);
    // B now runs A's graft: a closed box is opened without a rejected action.
    const next = await episode(b, [{ id: "b1", color: "red", open: false }]);
    assert.deepEqual(next.env.actions, ["open b1", "take b1", "finish"]);
    assert.equal(next.record.invalidActions, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
