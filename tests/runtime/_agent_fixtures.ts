/**
 * Libraries the planner and agent tests share, checked in as fixtures
 * (`tests/fixtures/`, equal to what induction gives: `fixtures_test.ts`):
 * ALFWorld skills from the ReAct demonstrations, and TextCraft skills from
 * expert traces on the full recipe set; plus a small hand-written ALFWorld
 * library for tests that need no induction.
 *
 * @module
 */
import { readTraces } from "../../compiler/trace_io.ts";
import type { ActionModel } from "../../runtime/learn/action_model.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import type { AgentEvent, AgentResult } from "../../runtime/agent/mod.ts";
import { compileSkills, type SkillLibrary } from "../../runtime/store/library.ts";
import type { TaskTemplate, TemplateStep } from "../../runtime/store/task_template.ts";
import type { Trace } from "../../dsl/trace.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { readJsonFile } from "../../io/json_file.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import type { Environment } from "../../runtime/environment.ts";
import { collectRun, type RunResult, runSkill } from "../../runtime/exec/interpreter.ts";
import type { Program } from "../../runtime/exec/program.ts";

import { ALFWORLD_DEMOS, FIXTURES, loadFixture, RECIPES } from "../fixtures/_libraries.ts";

export { ALFWORLD_DEMOS, RECIPES };

/** An induced library with its templates. */
export interface InducedLibrary {
  library: SkillLibrary;
  templates: TaskTemplate[];
  traces: Trace[];
  /** The action model learned from the same traces (induced libraries only). */
  actionModel?: ActionModel;
}

/** A checked-in library with the traces it was induced from. */
async function fixture(name: string, traces: Promise<Trace[]>): Promise<InducedLibrary> {
  const [loaded, t] = await Promise.all([loadFixture(name), traces]);
  return { ...loaded, traces: t };
}

let demos: Promise<Trace[]> | undefined;
/** The ALFWorld demonstrations as traces (cached). */
export function alfworldTraces(): Promise<Trace[]> {
  demos ??= readTraces(ALFWORLD_DEMOS, alfworldKit);
  return demos;
}

let alfworld: Promise<InducedLibrary> | undefined;
/** The ALFWorld library induced from the demonstrations (the fixture, cached). */
export function alfworldLibrary(): Promise<InducedLibrary> {
  alfworld ??= fixture("alfworld.json", alfworldTraces());
  return alfworld;
}

/** A hand-written `place(target_type, item_type)`: go to a receptacle of the type, put the held item there. */
export const PLACE: Skill = {
  format: "skillc/skill@1",
  name: "place",
  vocabulary: "alfworld",
  params: [{ name: "target_type", type: "ReceptacleType" }, {
    name: "item_type",
    type: "ItemType",
  }],
  doc: {
    summary: "Put the held item of the type in a receptacle of the type.",
    post: "exists(v0: Receptacle, exists(v1: Item, contains(v0, v1) and " +
      "receptacle_type(v0, target_type) and is_type(v1, item_type)))",
  },
  entry: "where",
  nodes: [
    {
      id: "where",
      kind: "data",
      var: "target",
      expr: "select_one(x: Receptacle, receptacle_type(x, target_type))",
    },
    { id: "go", kind: "primitive", action: "goto", args: { target: "target" } },
    {
      id: "held",
      kind: "data",
      var: "item",
      expr: "select_one(x: Item, holds(x) and is_type(x, item_type))",
    },
    { id: "put", kind: "primitive", action: "put", args: { item: "item", target: "target" } },
    { id: "done", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "where", to: "go", label: "next" },
    { from: "go", to: "held", label: "next" },
    { from: "held", to: "put", label: "next" },
    { from: "put", to: "done", label: "next" },
  ],
};

const GOAL_ITEM = {
  name: "item_type",
  type: "ItemType",
  expr: "select_one(x: ItemType, goal_item(x))",
};
const FIND: TemplateStep = { skill: "find_and_take", args: [GOAL_ITEM] };
const PLACE_STEP: TemplateStep = {
  skill: "place",
  args: [{
    name: "target_type",
    type: "ReceptacleType",
    expr: "select_one(x: ReceptacleType, goal_receptacle(x))",
  }, GOAL_ITEM],
};

/**
 * The example `find_and_take` and the hand-written {@linkcode PLACE}, with
 * hand-written templates (fixed sequences, no task programs) of the two
 * task types they solve.
 */
export async function handWrittenAlfworld(): Promise<InducedLibrary> {
  const example = new URL("../../examples/alfworld/find_and_take.json", import.meta.url).pathname;
  const library = compileSkills(
    [{ data: await readJsonFile(example), source: example }, { data: PLACE, source: "place" }],
    alfworldKit.vocabulary,
  );
  const traces = await alfworldTraces();
  const templates: TaskTemplate[] = [
    {
      type: "pick_and_place_simple",
      traces: 4,
      steps: [FIND, PLACE_STEP],
      support: 4,
      alternatives: [],
    },
    {
      type: "pick_two_obj_and_place",
      traces: 4,
      steps: [FIND, PLACE_STEP, FIND, PLACE_STEP],
      support: 4,
      alternatives: [],
    },
  ];
  return { library, templates, traces };
}

const textcraftLibraries = new Map<string, Promise<InducedLibrary>>();
/** The TextCraft library of `count` depth-`depth` expert traces on the full recipes (the fixture, cached). */
function textcraftFrom(depth: number, count: number): Promise<InducedLibrary> {
  const name = `textcraft_depth${depth}_${count}.json`;
  let library = textcraftLibraries.get(name);
  if (!library) {
    library = fixture(name, FIXTURES[name].traces());
    textcraftLibraries.set(name, library);
  }
  return library;
}

/** The TextCraft library induced from 30 depth-1 expert traces on the full recipes (cached). */
export function textcraftLibrary(): Promise<InducedLibrary> {
  return textcraftFrom(1, 30);
}

/**
 * The TextCraft library induced from 10 depth-2 expert traces on the full
 * recipes (cached): its craft skill calls itself on craftable ingredients.
 */
export function textcraftDeeperLibrary(): Promise<InducedLibrary> {
  return textcraftFrom(2, 10);
}

/**
 * A cooled bread 2 in hand, to go on the countertop where bread 1 already
 * lies: another object of the class is at the target already.
 */
export function breadAtCountertop(): FactStore {
  return new FactStore(
    [
      { pred: "receptacle_type", args: ["countertop 1", "countertop"] },
      { pred: "contains", args: ["countertop 1", "bread 1"] },
      { pred: "is_type", args: ["bread 1", "bread"] },
      { pred: "is_type", args: ["bread 2", "bread"] },
      { pred: "holds", args: ["bread 2"] },
      { pred: "is_cool", args: ["bread 2"] },
    ],
    { "countertop 1": "Receptacle", "bread 1": "Item", "bread 2": "Item" },
  );
}

/**
 * Runs an ALFWorld `find_and_take(item_type)` program on task `id`, for the
 * item type the task's goal names; the facts are the run's, at its end.
 */
export async function findAndTakeOn(
  program: Program,
  env: Environment,
  id: string,
): Promise<{ result: RunResult; facts: FactStore; itemType: string }> {
  const grounder = alfworldKit.grounder();
  const task = await env.reset({ id });
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const itemType = facts.query("goal_item", [null])[0].args[0] as string;
  const { result } = await collectRun(
    runSkill(program, { item_type: itemType }, { env, grounder, facts }),
  );
  return { result, facts, itemType };
}

/** Drains an agent run. */
export async function drainAgent(
  run: AsyncGenerator<AgentEvent, AgentResult>,
): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const events: AgentEvent[] = [];
  while (true) {
    const r = await run.next();
    if (r.done) return { events, result: r.value };
    events.push(r.value);
  }
}
