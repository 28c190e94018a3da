/**
 * Actions no demonstration showed at work, learned in the episode: the
 * demonstrations' towns are one hub each, so no van is ever driven; test
 * problems put parcels at places off the hubs.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { exploreUnusedActions } from "../../compiler/explore_actions.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { UnseenActions } from "../../runtime/agent/unseen_actions.ts";
import { ActionModel, learnActionModel } from "../../runtime/learn/action_model.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { relatedGroundings } from "../../runtime/learn/related_groundings.ts";
import { drainAgent } from "./_agent_fixtures.ts";
import { PARCELS, parcelsProblem, type Town } from "./_parcels.ts";

const LEARNED = { rules: "learned", observe: "changing" };

const hubs = (n: number): Town[] => Array.from({ length: n }, () => ({ places: 1, van: 0 }));

const PROBLEMS: Record<string, [Town[], [string, string][]]> = {
  d1: [hubs(2), [["p0_0", "p1_0"]]],
  d2: [hubs(3), [["p0_0", "p2_0"], ["p1_0", "p0_0"]]],
  d3: [hubs(2), [["p1_0", "p0_0"]]],
  // Off the hubs at both ends: load, drive, unload, fly, and again.
  t1: [
    [{ places: 3, van: 1 }, { places: 2, van: 0 }],
    [["p0_2", "p1_1"]],
  ],
  t2: [
    [{ places: 2, van: 0 }, { places: 3, van: 2 }, { places: 1, van: 0 }],
    [["p0_1", "p2_0"], ["p2_0", "p1_2"], ["p1_1", "p0_1"]],
  ],
  // Both parcels to places off the far hub: the list flies them to and fro.
  t3: [
    [{ places: 1, van: 0 }, { places: 3, van: 0 }],
    [["p0_0", "p1_1"], ["p0_0", "p1_2"]],
  ],
};

const kit = pddlKit(
  "pddl:parcels",
  PARCELS,
  "parcels.pddl",
  Object.entries(PROBLEMS).map(([id, [towns, parcels]]) => ({
    id: `parcels/${id}`,
    file: `${id}.pddl`,
    text: parcelsProblem(id, towns, parcels),
  })),
  {},
);

async function induce() {
  const traces = await generateExpertTraces(
    kit,
    ["d1", "d2", "d3"].map((d) => ({ id: `parcels/${d}` })),
    { envOptions: LEARNED },
  );
  const explored = await exploreUnusedActions(kit, traces, { envOptions: LEARNED });
  const learned = withEnvOptions(kit, LEARNED);
  const compiled = compileTraces(traces, learned, { policy: true, explored: explored.traces });
  const library = compileSkills(
    compiled.skills.map((s) => ({ data: s, source: s.name })),
    kit.vocabulary,
  );
  return { traces, explored, learned, compiled, library };
}

/** The agent on one problem with the induced library, at most 200 actions. */
function solve(
  { compiled, learned, library }: Pick<
    Awaited<ReturnType<typeof induce>>,
    "compiled" | "learned" | "library"
  >,
  id: string,
) {
  return drainAgent(runAgent({
    env: kit.create(LEARNED),
    kit: learned,
    library,
    templates: compiled.templates,
    actionModel: compiled.actionModel,
    task: { id: `parcels/${id}` },
    maxActions: 200,
  }));
}

Deno.test("an action no demonstration could show at work is tried when look-ahead finds no plan, and the episode plans with what it did", async () => {
  const { traces, explored, learned, compiled, library } = await induce();
  assert.ok(traces.every((t) => t.steps.every((s) => s.action.startsWith("fly "))));
  // Driving where a van stands changes nothing: induction learns nothing of it.
  assert.equal(explored.actions.find((a) => a.action === "drive")?.uses, 0);
  assert.ok(!compiled.actionModel.actions().includes("drive"));
  for (const id of ["t1", "t2"]) {
    const { events, result } = await solve({ compiled, learned, library }, id);
    assert.ok(result.success, `${id}: ${result.stop}`);
    const tried = events.find((e) => e.type === "decide" && e.node === "explore");
    assert.ok(tried && tried.type === "decide", id);
    assert.match(tried.text, /Tried "drive".*adds parked\(v, to\), removes parked\(v, from\)/);
  }
});

Deno.test("a plan's first action is sent though the skills went round through it", async () => {
  const { events, result } = await solve(await induce(), "t3");
  // The list flew both parcels from hub to hub and back, twice from one state.
  const sent = events.flatMap((e) =>
    e.type === "run" && e.event.type === "act" && !e.event.recalled ? [e.event.action] : []
  );
  assert.ok(sent.filter((a) => a === "fly c0 p0_0 p1_0").length >= 2, sent.join("; "));
  // A plan through the far hub's van starts with that flight.
  const plan = events.find((e) =>
    e.type === "decide" && e.node === "lookahead" && e.text.includes("fly c0 p0_0 p1_0, load c0 v1")
  );
  assert.ok(plan, "a plan through the van");
  assert.ok(result.success, result.stop);
});

Deno.test("what an unseen action needs is what relates its arguments; a rejection no kept rule explains adds what it broke", () => {
  const vocab = kit.vocabulary;
  const objects = {
    v0: "van",
    p0_0: "place",
    p0_1: "place",
    p0_2: "place",
    p1_0: "place",
    t0: "town",
    t1: "town",
    c0: "parcel",
  };
  const facts = new FactStore([
    { pred: "parked", args: ["v0", "p0_0"] },
    { pred: "hub", args: ["p0_0"] },
    { pred: "hub", args: ["p1_0"] },
    { pred: "in_town", args: ["p0_0", "t0"] },
    { pred: "in_town", args: ["p0_1", "t0"] },
    { pred: "in_town", args: ["p0_2", "t0"] },
    { pred: "in_town", args: ["p1_0", "t1"] },
    { pred: "at", args: ["c0", "p0_1"] },
  ], objects);
  const base = learnActionModel(vocab, []);
  const unseen = new UnseenActions(base);
  assert.ok(unseen.unseen.has("drive") && !unseen.learned);
  // One drive from the hub to a place where a parcel waits: that the
  // start is a hub and something stands at the end held, by chance.
  const after = facts.clone();
  const delta = {
    add: [{ pred: "parked", args: ["v0", "p0_1"] }],
    remove: [{ pred: "parked", args: ["v0", "p0_0"] }],
  };
  after.apply(delta);
  unseen.record({ facts, action: "drive v0 p0_0 p0_1 t0", ok: true, delta }, "drive");
  assert.ok(unseen.learned);
  const full = base.update([{ facts, action: "drive v0 p0_0 p0_1 t0", ok: true, delta }]);
  const hypotheses = full.rules("drive").map((r) => r.text);
  assert.ok(hypotheses.includes("hub(from)"), hypotheses.join("; "));
  const kept = unseen.relations.rules("drive").map((r) => r.text).sort();
  assert.deepEqual(kept, ["in_town(from, t)", "in_town(to, t)", "parked(v, from)"]);
  assert.ok(unseen.relations.rules("drive").every((r) => r.confirmed));
  assert.equal(unseen.relations.unmet(after, "drive v0 p0_1 p0_2 t0").length, 0);
  // Another town: a kept rule explains the rejection; nothing is added.
  unseen.rejected(after, "drive v0 p0_1 p1_0 t0");
  assert.deepEqual(unseen.relations.rules("drive").map((r) => r.text).sort(), kept);
  // Nothing kept explains this one: what it broke of the rest is kept,
  // the properties of its arguments first (no hub to start from).
  unseen.rejected(after, "drive v0 p0_1 p0_2 t0");
  const now = unseen.relations.rules("drive").map((r) => r.text);
  assert.ok(now.includes("hub(from)"), now.join("; "));
  assert.ok(!now.some((t) => t.startsWith("exists")), now.join("; "));
  assert.notEqual(unseen.relations.unmet(after, "drive v0 p0_1 p0_2 t0").length, 0);
});

Deno.test("a plan refused at once sharpens the relations view though every action was seen: what the first action broke is needed, what the goal asks never", () => {
  const vocab = kit.vocabulary;
  const objects = {
    v0: "van",
    p0_0: "place",
    p0_1: "place",
    p1_0: "place",
    t0: "town",
    t1: "town",
    c0: "parcel",
  };
  const town = [
    { pred: "hub", args: ["p0_0"] },
    { pred: "hub", args: ["p1_0"] },
    { pred: "in_town", args: ["p0_0", "t0"] },
    { pred: "in_town", args: ["p0_1", "t0"] },
    { pred: "in_town", args: ["p1_0", "t1"] },
  ];
  const state = (...atoms: { pred: string; args: string[] }[]) =>
    new FactStore([...town, ...atoms], objects);
  const at = (p: string, l: string) => ({ pred: "at", args: [p, l] });
  const parked = (l: string) => ({ pred: "parked", args: ["v0", l] });
  const inVan = { pred: "in", args: ["c0", "v0"] };
  const asked = { pred: "goal_at", args: ["c0", "p1_0"] };
  // Every action seen at work once: a parcel flown from hub to hub (the
  // goal asked for it there), loaded, unloaded and a van driven.
  const learned = learnActionModel(vocab, [
    {
      facts: state(at("c0", "p0_0"), parked("p0_1"), asked),
      action: "fly c0 p0_0 p1_0",
      ok: true,
      delta: { add: [at("c0", "p1_0")], remove: [at("c0", "p0_0")] },
    },
    {
      facts: state(at("c0", "p0_1"), parked("p0_1")),
      action: "load c0 v0 p0_1",
      ok: true,
      delta: { add: [inVan], remove: [at("c0", "p0_1")] },
    },
    {
      facts: state(inVan, parked("p0_0")),
      action: "unload c0 v0 p0_0",
      ok: true,
      delta: { add: [at("c0", "p0_0")], remove: [inVan] },
    },
    {
      facts: state(parked("p0_1")),
      action: "drive v0 p0_1 p0_0 t0",
      ok: true,
      delta: { add: [parked("p0_0")], remove: [parked("p0_1")] },
    },
  ]);
  // What the goal asked at the flight, among its hypotheses (a cap on
  // them may have left it out).
  const data = learned.toJSON();
  data.actions.fly.rules.push({ text: "goal_at(p, to)", confirmed: false, covers: 0 });
  const unseen = new UnseenActions(ActionModel.fromJSON(data, vocab));
  assert.equal(unseen.unseen.size, 0);
  // A flight from a place off the hub, with the goal asking nothing: the
  // relations view (what the parcel's place is) allows it.
  const off = state(at("c0", "p0_1"), parked("p0_0"));
  const fly = "fly c0 p0_1 p1_0";
  assert.equal(unseen.relations.unmet(off, fly).length, 0);
  // A rejection outside a refused plan says nothing while nothing was learned.
  unseen.rejected(off, fly);
  assert.equal(unseen.relations.unmet(off, fly).length, 0);
  assert.equal(unseen.refined, false);
  // The first action of a refused plan: the hub it broke is needed, the
  // goal's wish for the parcel at the far hub is not.
  assert.equal(unseen.refine(off, fly), true);
  assert.ok(unseen.refined);
  const kept = unseen.relations.rules("fly").map((r) => r.text);
  assert.ok(kept.includes("hub(from)"), kept.join("; "));
  assert.ok(!kept.some((t) => t.includes("goal_")), kept.join("; "));
  assert.notEqual(unseen.relations.unmet(off, fly).length, 0);
  assert.equal(unseen.relations.unmet(state(at("c0", "p0_0")), "fly c0 p0_0 p1_0").length, 0);
  // Refused again where nothing new is broken: nothing learned.
  assert.equal(unseen.refine(off, fly), false);
});

Deno.test("related argument tuples come first where every tuple is too many to rank", () => {
  const vocab = kit.vocabulary;
  const atoms = [];
  const objects: Record<string, string> = {};
  // 30 towns of 3 places, a van in each: 30 x 90 x 90 x 30 tuples of drive.
  for (let t = 0; t < 30; t++) {
    objects[`t${t}`] = "town";
    objects[`v${t}`] = "van";
    for (let j = 0; j < 3; j++) {
      objects[`p${t}_${j}`] = "place";
      atoms.push({ pred: "in_town", args: [`p${t}_${j}`, `t${t}`] });
    }
    // Parked at the last place: the first tuples in order are all of another.
    atoms.push({ pred: "parked", args: [`v${t}`, `p${t}_2`] });
  }
  const facts = new FactStore(atoms, objects);
  const params = vocab.actions.drive.params;
  const first = relatedGroundings(params, facts, vocab).next().value!;
  const town = first.t.slice(1);
  assert.equal(first.from, `p${town}_2`);
  assert.equal(first.v, `v${town}`);
  assert.match(first.to, new RegExp(`^p${town}_[01]$`));
});
