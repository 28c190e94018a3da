import { dataTest } from "../_data.ts";
import { deepEqual as assertEquals, equal, ok as assert } from "node:assert/strict";
import {
  type Goal,
  GOAL_TEMPLATES,
  goalFacts,
  goalSatisfied,
  goalSentence,
  parseGoal,
  TASK_TYPES,
} from "../../environments/alfworld/goals.ts";
import { DEMO_FILES, demoTraces, run, world } from "./_alfworld.ts";

dataTest("the goal sentences of the demonstrations parse into typed goals", () => {
  const cases: [string, Goal][] = [
    ["put some spraybottle on toilet.", {
      type: "pick_and_place_simple",
      object: "spraybottle",
      receptacle: "toilet",
      count: 1,
    }],
    ["find some apple and put it in sidetable.", {
      type: "pick_and_place_simple",
      object: "apple",
      receptacle: "sidetable",
      count: 1,
    }],
    ["put a clean lettuce in diningtable.", {
      type: "pick_clean_then_place_in_recep",
      object: "lettuce",
      receptacle: "diningtable",
      state: "clean",
      count: 1,
    }],
    ["clean some apple and put it in sidetable.", {
      type: "pick_clean_then_place_in_recep",
      object: "apple",
      receptacle: "sidetable",
      state: "clean",
      count: 1,
    }],
    ["heat some egg and put it in diningtable.", {
      type: "pick_heat_then_place_in_recep",
      object: "egg",
      receptacle: "diningtable",
      state: "hot",
      count: 1,
    }],
    ["put a hot apple in fridge.", {
      type: "pick_heat_then_place_in_recep",
      object: "apple",
      receptacle: "fridge",
      state: "hot",
      count: 1,
    }],
    ["cool some pan and put it in stoveburner.", {
      type: "pick_cool_then_place_in_recep",
      object: "pan",
      receptacle: "stoveburner",
      state: "cool",
      count: 1,
    }],
    ["put a cool mug in shelf.", {
      type: "pick_cool_then_place_in_recep",
      object: "mug",
      receptacle: "shelf",
      state: "cool",
      count: 1,
    }],
    ["put two creditcard in dresser.", {
      type: "pick_two_obj_and_place",
      object: "creditcard",
      receptacle: "dresser",
      count: 2,
    }],
    ["find two pillow and put them in sofa.", {
      type: "pick_two_obj_and_place",
      object: "pillow",
      receptacle: "sofa",
      count: 2,
    }],
    ["look at bowl under the desklamp.", {
      type: "look_at_obj_in_light",
      object: "bowl",
      toggle: "desklamp",
      count: 1,
    }],
    ["examine the pen with the desklamp.", {
      type: "look_at_obj_in_light",
      object: "pen",
      toggle: "desklamp",
      count: 1,
    }],
  ];
  for (const [sentence, goal] of cases) assertEquals(parseGoal(sentence), goal, sentence);
  assertEquals(parseGoal("Your task is to: put two cellphone in sofa.")?.object, "cellphone");
  equal(parseGoal("make a sandwich."), undefined);
  for (const file of DEMO_FILES) {
    for (const t of demoTraces(file)) assert(parseGoal(t.goal), t.goal);
  }
});

Deno.test("every template of every task type round-trips through the parser", () => {
  const goals: Record<string, Goal> = {
    pick_and_place_simple: {
      type: "pick_and_place_simple",
      object: "cd",
      receptacle: "safe",
      count: 1,
    },
    pick_clean_then_place_in_recep: {
      type: "pick_clean_then_place_in_recep",
      object: "cloth",
      receptacle: "bathtubbasin",
      state: "clean",
      count: 1,
    },
    pick_heat_then_place_in_recep: {
      type: "pick_heat_then_place_in_recep",
      object: "potato",
      receptacle: "countertop",
      state: "hot",
      count: 1,
    },
    pick_cool_then_place_in_recep: {
      type: "pick_cool_then_place_in_recep",
      object: "tomato",
      receptacle: "microwave",
      state: "cool",
      count: 1,
    },
    look_at_obj_in_light: {
      type: "look_at_obj_in_light",
      object: "book",
      toggle: "floorlamp",
      count: 1,
    },
    pick_two_obj_and_place: {
      type: "pick_two_obj_and_place",
      object: "keychain",
      receptacle: "drawer",
      count: 2,
    },
  };
  for (const type of TASK_TYPES) {
    GOAL_TEMPLATES[type].forEach((_, i) =>
      assertEquals(parseGoal(goalSentence(goals[type], i)), goals[type])
    );
  }
});

Deno.test("goal facts name the task type, classes, state, lamp and count", () => {
  assertEquals(goalFacts(parseGoal("put a hot apple in fridge.")!), [
    { pred: "goal_task", args: ["pick_heat_then_place_in_recep"] },
    { pred: "goal_item", args: ["apple"] },
    { pred: "goal_count", args: [1] },
    { pred: "goal_receptacle", args: ["fridge"] },
    { pred: "goal_state", args: ["hot"] },
  ]);
  assertEquals(goalFacts(parseGoal("look at bowl under the desklamp.")!).at(-1), {
    pred: "goal_lamp",
    args: ["desklamp"],
  });
});

Deno.test("goal checks need the state, the receptacle type, two objects in one receptacle, or the lamp here", () => {
  const w = world({
    goal: "put two mug in cabinet.",
    receptacles: [
      { id: "countertop 1", contents: ["mug 1", "mug 2", "mug 3", "desklamp 1"] },
      { id: "cabinet 1", openable: false },
      { id: "cabinet 2", openable: false },
      { id: "sidetable 1" },
    ],
  });
  assert(!goalSatisfied(w.goal, w));
  run(
    w,
    "go to countertop 1",
    "take mug 1 from countertop 1",
    "go to cabinet 1",
    "put mug 1 in/on cabinet 1",
  );
  run(
    w,
    "go to countertop 1",
    "take mug 2 from countertop 1",
    "go to cabinet 2",
    "put mug 2 in/on cabinet 2",
  );
  assert(!goalSatisfied(w.goal, w), "two mugs in two cabinets are not two mugs in one");
  assert(goalSatisfied(parseGoal("put a mug in cabinet.")!, w));
  assert(!goalSatisfied(parseGoal("put a hot mug in cabinet.")!, w));
  assert(!goalSatisfied(parseGoal("put a mug in sidetable.")!, w));
  run(w, "take mug 2 from cabinet 2", "go to cabinet 1", "put mug 2 in/on cabinet 1");
  assert(w.done, "the second mug in the same cabinet reaches the goal");
  const look = world({
    goal: "look at mug under the desklamp.",
    receptacles: [{ id: "countertop 1", contents: ["mug 1", "desklamp 1"] }, {
      id: "sidetable 1",
      contents: ["mug 2"],
    }],
  });
  run(look, "go to countertop 1", "use desklamp 1");
  assert(!look.done, "the lamp alone is not enough");
  run(look, "go to sidetable 1", "take mug 2 from sidetable 1");
  assert(!look.done, "the lamp must be where the agent is");
  run(look, "go to countertop 1");
  assert(look.done, "holding a mug where the lit lamp stands reaches the goal");
});
