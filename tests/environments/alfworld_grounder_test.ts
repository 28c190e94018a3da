import { dataTest } from "../_data.ts";
import { deepEqual as assertEquals, equal, ok as assert } from "node:assert/strict";
import { FactStore } from "../../runtime/fact_store.ts";
import { AlfworldEnv } from "../../environments/alfworld/env.ts";
import { AlfworldExpert } from "../../environments/alfworld/expert.ts";
import { AlfworldGrounder } from "../../environments/alfworld/grounder.ts";
import { HELP_TEXT } from "../../environments/alfworld/texts.ts";
import { splitTaskIds } from "../../environments/alfworld/tasks.ts";
import { DEMO_FILES, demoTraces } from "./_alfworld.ts";

const ROOM = "You are in the middle of a room. Looking quickly around you, you see a cabinet 2, " +
  "a cabinet 1, a fridge 1, a sidetable 1, and a sinkbasin 1.";

function start(): { g: AlfworldGrounder; facts: FactStore } {
  const g = new AlfworldGrounder();
  const first = g.initial(ROOM, "put a cool apple in sidetable.");
  const facts = new FactStore();
  facts.apply(first.delta);
  return { g, facts };
}

function step(s: { g: AlfworldGrounder; facts: FactStore }, action: string, obs: string) {
  const out = s.g.step(s.facts, action, obs);
  s.facts.apply(out.delta);
  return out;
}

const has = (facts: FactStore, line: string) => facts.toLines().includes(line);

dataTest("the grounder understands every observation of every demonstration transcript", () => {
  for (const file of DEMO_FILES) {
    for (const trace of demoTraces(file)) {
      const g = new AlfworldGrounder();
      const facts = new FactStore();
      const first = g.initial(trace.initial, trace.goal);
      equal(first.unknown, undefined, `${trace.task.id} initial`);
      facts.apply(first.delta);
      for (const s of trace.steps) {
        const out = g.step(facts, s.action, s.observation);
        equal(out.unknown, undefined, `${file} ${trace.task.id}: ${s.observation}`);
        facts.apply(out.delta);
      }
    }
  }
});

Deno.test("the first observation makes every receptacle reachable and unexplored, and sets goal facts", () => {
  const { facts } = start();
  for (const r of ["cabinet 2", "cabinet 1", "fridge 1", "sidetable 1", "sinkbasin 1"]) {
    assert(has(facts, `reachable('${r}')`), r);
    assert(has(facts, `unexplored('${r}')`), r);
    equal(facts.typeOf(r), "Receptacle");
  }
  assert(has(facts, "receptacle_type('sinkbasin 1', 'sinkbasin')"));
  for (
    const line of [
      "goal_task('pick_cool_then_place_in_recep')",
      "goal_item('apple')",
      "goal_receptacle('sidetable')",
      "goal_state('cool')",
      "goal_count(1)",
    ]
  ) {
    assert(has(facts, line), line);
  }
});

Deno.test("going to a surface locates the agent there, lists its contents and explores it", () => {
  const s = start();
  step(s, "go to sidetable 1", "On the sidetable 1, you see a apple 1, and a cup 2.");
  assert(has(s.facts, "locates('sidetable 1')"));
  assert(has(s.facts, "visited('sidetable 1')"));
  assert(!has(s.facts, "unexplored('sidetable 1')"));
  assert(has(s.facts, "contains('sidetable 1', 'apple 1')"));
  assert(has(s.facts, "is_type('cup 2', 'cup')"));
  equal(s.facts.typeOf("apple 1"), "Item");
  step(s, "go to sinkbasin 1", "You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.");
  assert(!has(s.facts, "locates('sidetable 1')"));
  assert(has(s.facts, "locates('sinkbasin 1')"));
  step(s, "go to sidetable 1", "You arrive at the location. On the sidetable 1, you see a cup 2.");
  assert(
    !has(s.facts, "contains('sidetable 1', 'apple 1')"),
    "a vanished object is no longer believed there",
  );
});

Deno.test("a closed receptacle stays unexplored until it is opened", () => {
  const s = start();
  step(s, "go to fridge 1", "The fridge 1 is closed.");
  assert(has(s.facts, "is_closed('fridge 1')"));
  assert(has(s.facts, "visited('fridge 1')"));
  assert(has(s.facts, "unexplored('fridge 1')"));
  step(
    s,
    "open fridge 1",
    "You open the fridge 1. The fridge 1 is open. In it, you see a apple 2.",
  );
  assert(has(s.facts, "is_open('fridge 1')"));
  assert(!has(s.facts, "is_closed('fridge 1')"));
  assert(!has(s.facts, "unexplored('fridge 1')"));
  assert(has(s.facts, "contains('fridge 1', 'apple 2')"));
  step(s, "close fridge 1", "You close the fridge 1.");
  assert(has(s.facts, "is_closed('fridge 1')") && !has(s.facts, "is_open('fridge 1')"));
});

Deno.test("take, put, move and the state changes update holds, contains and item states", () => {
  const s = start();
  step(s, "go to sidetable 1", "On the sidetable 1, you see a apple 1.");
  step(s, "take apple 1 from sidetable 1", "You pick up the apple 1 from the sidetable 1.");
  assert(has(s.facts, "holds('apple 1')"));
  assert(!has(s.facts, "contains('sidetable 1', 'apple 1')"));
  step(s, "heat apple 1 with microwave 1", "You heat the apple 1 using the microwave 1.");
  assert(has(s.facts, "is_hot('apple 1')"));
  step(s, "cool apple 1 with fridge 1", "You cool the apple 1 using the fridge 1.");
  assert(has(s.facts, "is_cool('apple 1')") && !has(s.facts, "is_hot('apple 1')"));
  step(s, "clean apple 1 with sinkbasin 1", "You clean the apple 1 using the sinkbasin 1.");
  assert(has(s.facts, "is_clean('apple 1')"));
  step(s, "put apple 1 in/on sidetable 1", "You put the apple 1 in/on the sidetable 1.");
  assert(!has(s.facts, "holds('apple 1')") && has(s.facts, "contains('sidetable 1', 'apple 1')"));
  step(s, "take apple 1 from sidetable 1", "You pick up the apple 1 from the sidetable 1.");
  step(s, "move apple 1 to sinkbasin 1", "You move the apple 1 to the sinkbasin 1.");
  assert(has(s.facts, "contains('sinkbasin 1', 'apple 1')"));
  step(s, "use desklamp 1", "You turn on the desklamp 1.");
  assert(has(s.facts, "is_on('desklamp 1')"));
  step(s, "use desklamp 1", "You turn off the desklamp 1.");
  assert(!has(s.facts, "is_on('desklamp 1')"));
});

Deno.test("Nothing happens is a rejection with no fact change; unknown text is reported", () => {
  const s = start();
  const before = s.facts.toLines();
  const out = step(s, "go to cabinet 9", "Nothing happens.");
  equal(out.rejected, "Nothing happens.");
  assertEquals([out.delta.add, out.delta.remove], [[], []]);
  assertEquals(s.facts.toLines(), before);
  const weird = step(s, "dance", "You dance with the fridge 1.");
  assertEquals(weird.unknown, ["You dance with the fridge 1."]);
  const g = new AlfworldGrounder().initial(ROOM, "make me a sandwich.");
  assertEquals(g.unknown, ["Your task is to: make me a sandwich."]);
  assertEquals(new AlfworldGrounder().initial("Hello there.", "").unknown, ["Hello there."]);
});

Deno.test("inventory, examine and look observations are understood and grounded", () => {
  const s = start();
  step(s, "inventory", "You are carrying: a apple 1.");
  assert(has(s.facts, "holds('apple 1')"));
  step(s, "inventory", "You are not carrying anything.");
  assert(!has(s.facts, "holds('apple 1')"));
  step(s, "examine apple 1", "This is a hot and clean apple 1.");
  assert(has(s.facts, "is_hot('apple 1')") && has(s.facts, "is_clean('apple 1')"));
  step(s, "examine apple 1", "There's nothing special about apple 1.");
  assert(!has(s.facts, "is_hot('apple 1')") && !has(s.facts, "is_clean('apple 1')"));
  step(s, "examine apple 1", "This is a cold apple 1.");
  assert(has(s.facts, "is_cool('apple 1')"));
  step(s, "examine desklamp 1", "This desklamp 1 is on.");
  assert(has(s.facts, "is_on('desklamp 1')"));
  step(s, "look", "You are facing the cabinet 2, and cabinet 1. Next to it, you see nothing.");
  assert(has(s.facts, "locates('cabinet 2')") && has(s.facts, "locates('cabinet 1')"));
  step(s, "look", ROOM);
  equal(s.facts.query("locates", [null]).length, 0);
});

Deno.test("every feedback form of alfred.twl2 is understood", () => {
  const forms = [
    `-= Welcome to TextWorld, ALFRED! =-\n\n${ROOM}\n\nYour task is to: put a cool apple in sidetable.`,
    "You arrive at cabinet 1. The cabinet 1 is open. In it, you see a cup 1.",
    "You arrive at loc 12. On the sidetable 1, you see nothing.",
    "You open the cabinet 1. The cabinet 1 is open. In it, you see nothing.",
    "You close the cabinet 1.",
    "You pick up the cup 1 from the cabinet 1.",
    "PickupObjectFromReceptacleObject: You pick up the fork 1.",
    "PickupEmptyReceptacleObject: You pick up the mug 1.",
    "PickupFullReceptacleObject: You pick up the bowl 1.",
    "You move the cup 1 to the cabinet 1.",
    "PutObjectInReceptacleObject: You put the fork 1 in the mug 1.",
    "PutEmptyReceptacleObjectinReceptacle: You put the mug 1 in the cabinet 1.",
    "PutFullReceptacleObjectInReceptacle: You put the bowl 1 in the cabinet 1.",
    "You are carrying: a cup 1.",
    "You are not carrying anything.",
    "The cabinet 1 is closed.",
    "This is a normal mug 1. In it, you see a fork 1.",
    "This is a hot and clean sliced apple 1.",
    "This is a cool and clean sliced apple 1.",
    "This is a clean sliced apple 1.",
    "This is a hot sliced apple 1.",
    "This is a cool sliced apple 1.",
    "This is a hot and clean apple 1.",
    "This is a cool and clean apple 1.",
    "This is a hot apple 1.",
    "This is a clean apple 1.",
    "This is a cold apple 1.",
    "This desklamp 1 is on.",
    "This desklamp 1 is off.",
    "This is a sliced apple 1.",
    "There's nothing special about apple 1.",
    "You turn on the desklamp 1.",
    "You turn off the desklamp 1.",
    "You don't see any switch on the apple 1.",
    "You heat the apple 1 using the microwave 1.",
    "You clean the apple 1 using the sinkbasin 1.",
    "You cool the apple 1 using the fridge 1.",
    "You sliced the apple 1 with the knife 1.",
    "You are facing the sidetable 1. Next to it, you see nothing.",
    HELP_TEXT,
    "TODO",
    "OK.",
  ];
  const s = start();
  for (const text of forms) equal(step(s, "x", text).unknown, undefined, text);
  equal(
    step(s, "use apple 1", "You don't see any switch on the apple 1.").rejected,
    '"apple 1" has no switch',
  );
});

Deno.test("the grounder's belief agrees with the simulator's state along expert runs", async () => {
  const env = new AlfworldEnv();
  const expert = new AlfworldExpert();
  for (const id of splitTaskIds("unseen").filter((_, i) => i % 9 === 0)) {
    const trace = await expert.solve(env, { id });
    const g = new AlfworldGrounder();
    const facts = new FactStore();
    facts.apply(g.initial(trace.initial, trace.goal).delta);
    for (const s of trace.steps) {
      const out = g.step(facts, s.action, s.observation);
      equal(out.unknown, undefined);
      facts.apply(out.delta);
    }
    const world = env.world;
    const held = world.held();
    assertEquals(facts.query("holds", [null]).map((a) => a.args[0]), held ? [held] : [], id);
    const here = world.receptaclesHere();
    for (const l of facts.query("locates", [null])) assert(here.includes(l.args[0] as string), id);
    for (const c of facts.query("contains", [null, null])) {
      equal(world.itemsById.get(c.args[1] as string)?.receptacle, c.args[0], `${id} ${c.args}`);
    }
  }
});

Deno.test("the first observation states which receptacles may hold the goal's item classes", async () => {
  const { loadAlfredData, classRules } = await import("../../environments/alfworld/mod.ts");
  const rules = classRules(loadAlfredData());
  const room =
    "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a fridge 1, a sinkbasin 1, and a toilet 1.\nYour task is to: put a clean apple in fridge.";
  const facts = new FactStore();
  facts.apply(new AlfworldGrounder().initial(room, "put a clean apple in fridge.").delta);
  for (const r of ["cabinet 1", "fridge 1", "sinkbasin 1", "toilet 1"]) {
    const type = r.split(" ")[0];
    equal(
      facts.has({ pred: "may_hold", args: [r, "apple"] }),
      rules.canContain(type, "apple"),
      r,
    );
  }
  assert(facts.has({ pred: "may_hold", args: ["fridge 1", "apple"] }));
  assert(!facts.has({ pred: "may_hold", args: ["toilet 1", "apple"] }));
});
