/**
 * A small hand-made domain for the induction tests: boxes holding coloured
 * balls. Grounded traces are built directly from fact deltas (no simulator
 * or grounder), so each test states exactly the situations it needs.
 *
 * @module
 */
import type { Atom, AtomArg } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { SkillInput } from "../../dsl/graph/schema.ts";
import type { GroundedStep, GroundedTrace } from "../../compiler/ground.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { compileSkill, type Program } from "../../runtime/exec/program.ts";
import { segmentTrace } from "../../compiler/segment.ts";
import { type Instance, instanceOf } from "../../compiler/instances.ts";

/** Boxes that can be visited, opened and taken from; balls have a colour and a stock. */
export const BOX_VOCAB: Vocabulary = {
  name: "boxes",
  types: { Box: { kind: "object" }, Ball: { kind: "object" }, Color: { kind: "value" } },
  predicates: {
    color: { params: ["Ball", "Color"] },
    inside: { params: ["Box", "Ball"] },
    is_open: { params: ["Box"] },
    is_closed: { params: ["Box"] },
    visited: { params: ["Box"] },
    at: { params: ["Box"] },
    holds: { params: ["Ball"] },
    stock: { params: ["Ball", "Num"] },
    wanted: { params: ["Ball", "Num"] },
  },
  functions: {
    count: { params: ["Ball"], returns: "Num", predicate: "stock", default: 0 },
    want: { params: ["Ball"], returns: "Num", predicate: "wanted" },
  },
  actions: {
    go: { template: "go to {b}", params: [{ name: "b", type: "Box" }] },
    open: { template: "open {b}", params: [{ name: "b", type: "Box" }] },
    take: {
      template: "take {x} from {b}",
      params: [{ name: "x", type: "Ball" }, { name: "b", type: "Box" }],
    },
    grab: { template: "grab {x}", params: [{ name: "x", type: "Ball" }] },
    get: {
      template: "get {n} {x}",
      params: [{ name: "n", type: "Num" }, { name: "x", type: "Ball" }],
    },
    wait: { template: "wait", params: [] },
  },
  landmarks: [{ pred: "holds", on: "add", skill: "fetch" }],
};

/** An atom written as a tuple: `["inside", "b1", "x1"]`. */
export type AtomTuple = [string, ...AtomArg[]];

/** The atom of a tuple. */
export function atom([pred, ...args]: AtomTuple): Atom {
  return { pred, args };
}

/** A fact store holding the given atoms and objects. */
export function facts(objects: Record<string, string>, ...atoms: AtomTuple[]): FactStore {
  return new FactStore(atoms.map(atom), objects);
}

/** One hand-made step: the action, its fact change, and whether it was rejected. */
export interface StepSpec {
  action: string;
  add?: AtomTuple[];
  remove?: AtomTuple[];
  objects?: Record<string, string>;
  rejected?: string;
}

/**
 * A grounded trace built from an initial state and the fact change of each
 * step: `states[i + 1]` is `states[i]` with step `i`'s delta applied.
 */
export function handTrace(
  initial: FactStore,
  steps: StepSpec[],
  source = "hand",
): GroundedTrace {
  const store = initial.clone();
  const states = [store.clone()];
  const grounded: GroundedStep[] = steps.map((s) => {
    const delta = {
      add: (s.add ?? []).map(atom),
      remove: (s.remove ?? []).map(atom),
      objects: s.objects ?? {},
    };
    store.apply(delta);
    states.push(store.clone());
    const step: GroundedStep = { action: s.action, observation: "ok", delta };
    if (s.rejected !== undefined) step.rejected = s.rejected;
    return step;
  });
  return {
    trace: {
      format: "skillc/trace@1",
      env: "boxes",
      task: {},
      goal: "hand-made goal",
      initial: "",
      steps: steps.map((s) => ({ action: s.action, observation: "ok" })),
      source,
    },
    states,
    steps: grounded,
    unknown: [],
  };
}

/** The instance of the first segment of a hand-made trace. */
export function firstInstance(g: GroundedTrace, id: number, vocab = BOX_VOCAB): Instance {
  const [segment] = segmentTrace(g, id, vocab);
  if (!segment) throw new Error(`Trace "${g.trace.source}" has no segment`);
  return instanceOf(segment, id, vocab);
}

/** Compiles a skill against the box vocabulary or throws with its issues. */
export function boxProgram(skill: SkillInput, vocab = BOX_VOCAB): Program {
  const r = compileSkill(skill, vocab);
  if (!r.ok) throw new Error(JSON.stringify(r.error, null, 2));
  return r.value;
}

/** Goes to box b: it becomes visited, and what it reveals (`add`, `objects`) becomes known. */
export function goStep(
  b: string,
  add: AtomTuple[] = [],
  objects: Record<string, string> = {},
): StepSpec {
  return { action: `go to ${b}`, add: [["visited", b], ...add], objects };
}

/** Takes ball x from box b: it is held and no longer inside. */
export function takeStep(x: string, b: string): StepSpec {
  return { action: `take ${x} from ${b}`, add: [["holds", x]], remove: [["inside", b, x]] };
}
