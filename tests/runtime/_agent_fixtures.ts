/**
 * Libraries the planner and agent tests share, induced once per test file:
 * ALFWorld skills from the ReAct demonstrations, and TextCraft skills from
 * depth-1 expert traces on the full recipe set; plus a small hand-written
 * ALFWorld library for tests that need no induction.
 *
 * @module
 */
import { dataPath } from "../_data.ts";
import { readTraces } from "../../compiler/trace_io.ts";
import { compileTraces } from "../../compiler/compile.ts";
import type { ActionModel } from "../../runtime/action_model.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import type { AgentEvent, AgentResult } from "../../runtime/agent.ts";
import type { EnvironmentKit } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/expert_traces.ts";
import { compileSkills, type SkillLibrary } from "../../runtime/library.ts";
import type { TaskTemplate, TemplateStep } from "../../runtime/task_template.ts";
import type { Trace } from "../../dsl/trace.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { readJsonFile } from "../../runtime/json_file.ts";

/** The full TextCraft recipe set. */
export const RECIPES = dataPath("textcraft/recipes");
/** The ALFWorld ReAct demonstrations (2 per task type, ReAct and Act variants). */
export const ALFWORLD_DEMOS = dataPath("alfworld/react_demos_2per_type.json");

/** An induced library with its templates. */
export interface InducedLibrary {
  library: SkillLibrary;
  templates: TaskTemplate[];
  traces: Trace[];
  /** The action model learned from the same traces (induced libraries only). */
  actionModel?: ActionModel;
}

function induce(traces: Trace[], kit: EnvironmentKit): InducedLibrary {
  const { library, templates, actionModel } = compileTraces(traces, kit);
  return { library, templates, traces, actionModel };
}

let demos: Promise<Trace[]> | undefined;
/** The ALFWorld demonstrations as traces (cached). */
export function alfworldTraces(): Promise<Trace[]> {
  demos ??= readTraces(ALFWORLD_DEMOS, alfworldKit);
  return demos;
}

let alfworld: Promise<InducedLibrary> | undefined;
/** The ALFWorld library induced from the demonstrations (cached). */
export function alfworldLibrary(): Promise<InducedLibrary> {
  alfworld ??= alfworldTraces().then((t) => induce(t, alfworldKit));
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
/** The TextCraft library induced from `count` expert traces of one depth on the full recipes (cached). */
function textcraftFrom(depth: number, count: number): Promise<InducedLibrary> {
  const key = `${depth}/${count}`;
  let library = textcraftLibraries.get(key);
  if (!library) {
    library = generateExpertTraces(
      textcraftKit,
      textcraftKit.tasks!({ depths: [depth], count, seed: 1 }),
      { envOptions: { recipes: RECIPES } },
    ).then((t) => induce(t, textcraftKit));
    textcraftLibraries.set(key, library);
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
