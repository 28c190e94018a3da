// A toy environment for interpreter tests: boxes that can be opened and
// taken from. It is deliberately unlike any shipped environment.
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type {
  Environment,
  Grounder,
  Grounding,
  ResetResult,
  StepResult,
} from "../../runtime/environment.ts";
import type { FactView } from "../../dsl/facts.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { compileSkill, type Program } from "../../runtime/exec/program.ts";
import type { Skill, SkillInput } from "../../dsl/graph/schema.ts";

export const toyVocab: Vocabulary = {
  name: "toy",
  types: { Box: { kind: "object" }, Color: { kind: "value" } },
  predicates: {
    color: { params: ["Box", "Color"] },
    is_open: { params: ["Box"] },
    taken: { params: ["Box"] },
    weight_of: { params: ["Box", "Num"] },
  },
  functions: { weight: { params: ["Box"], returns: "Num", predicate: "weight_of", default: 0 } },
  actions: {
    open: { template: "open {b}", params: [{ name: "b", type: "Box" }] },
    take: { template: "take {b}", params: [{ name: "b", type: "Box" }] },
    wait: { template: "wait", params: [] },
    finish: { template: "finish", params: [] },
  },
};

export interface ToyBox {
  id: string;
  color: string;
  open: boolean;
  weight?: number;
  /** A locked box cannot be opened. */
  locked?: boolean;
}

/** Boxes; "finish" ends the episode with reward 1. */
export class ToyEnv implements Environment {
  readonly name = "toy";
  readonly vocabulary = toyVocab;
  boxes: ToyBox[];
  actions: string[] = [];
  constructor(boxes: ToyBox[]) {
    this.boxes = boxes.map((b) => ({ ...b }));
  }
  reset(): Promise<ResetResult> {
    const text = this.boxes.map((b) =>
      `${b.id} is ${b.color} and ${b.open ? "open" : "closed"}${
        b.weight !== undefined ? ` weighing ${b.weight}` : ""
      }.`
    ).join("\n");
    return Promise.resolve({ observation: text, goal: "take boxes", taskId: "toy/0" });
  }
  step(action: string): Promise<StepResult> {
    this.actions.push(action);
    const box = (id: string) => this.boxes.find((b) => b.id === id);
    let m: RegExpExecArray | null;
    let observation = "Nothing happens.";
    if ((m = /^open (.+)$/.exec(action)) && box(m[1]) && !box(m[1])!.open && !box(m[1])!.locked) {
      box(m[1])!.open = true;
      observation = `You open ${m[1]}.`;
    } else if ((m = /^take (.+)$/.exec(action)) && box(m[1])?.open) {
      observation = `You take ${m[1]}.`;
    } else if (action === "wait") observation = "Time passes.";
    else if (action === "finish") {
      return Promise.resolve({ observation: "Done.", reward: 1, done: true });
    }
    return Promise.resolve({ observation, reward: 0, done: false });
  }
}

export const toyGrounder: Grounder = {
  initial(observation: string): Grounding {
    const add = [];
    const objects: Record<string, string> = {};
    for (const line of observation.split("\n")) {
      const m = /^(.+) is (\w+) and (open|closed)(?: weighing (\d+))?\.$/.exec(line);
      if (!m) continue;
      objects[m[1]] = "Box";
      add.push({ pred: "color", args: [m[1], m[2]] });
      if (m[3] === "open") add.push({ pred: "is_open", args: [m[1]] });
      if (m[4]) add.push({ pred: "weight_of", args: [m[1], Number(m[4])] });
    }
    return { delta: { add, remove: [], objects } };
  },
  step(_facts: FactView, _action: string, observation: string): Grounding {
    let m: RegExpExecArray | null;
    if ((m = /^You open (.+)\.$/.exec(observation))) {
      return { delta: { add: [{ pred: "is_open", args: [m[1]] }], remove: [] } };
    }
    if ((m = /^You take (.+)\.$/.exec(observation))) {
      return { delta: { add: [{ pred: "taken", args: [m[1]] }], remove: [] } };
    }
    if (observation === "Nothing happens.") {
      return { delta: { add: [], remove: [] }, rejected: "Nothing happens." };
    }
    if (observation === "Time passes." || observation === "Done.") {
      return { delta: { add: [], remove: [] } };
    }
    return { delta: { add: [], remove: [] }, unknown: [observation] };
  },
};

/** Compiles a skill or throws with its issues. */
export function toyProgram(skill: SkillInput, others: Program[] = []): Program {
  const sigs = Object.fromEntries(others.map((p) => [p.skill.name, { params: p.skill.params }]));
  const r = compileSkill(skill, toyVocab, sigs);
  if (!r.ok) throw new Error(JSON.stringify(r.error, null, 2));
  return r.value;
}

/** A reset toy environment with facts grounded from its first observation. */
export async function toySetup(boxes: ToyBox[]): Promise<{ env: ToyEnv; facts: FactStore }> {
  const env = new ToyEnv(boxes);
  const first = await env.reset();
  const facts = new FactStore();
  facts.apply(toyGrounder.initial(first.observation, first.goal).delta);
  return { env, facts };
}

/** take_color(c): pick a box of color c and take it, with no idea that boxes can be closed. */
export function takeOnlySkill(): Skill {
  return {
    format: "skillc/skill@1",
    name: "take_color",
    vocabulary: "toy",
    params: [{ name: "c", type: "Color" }],
    doc: { summary: "Take a box of a color." },
    entry: "pick",
    nodes: [
      { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
      { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
    ],
  };
}
