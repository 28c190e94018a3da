/**
 * Task programs: the task level induced like a skill (DESIGN section 5,
 * "Task programs"). Each demonstration of a task type is read as a
 * higher-level trace whose actions are the skill calls of its segments and
 * whose states are the states at the segment boundaries; the same operators
 * (Lifting, LoopFold, Branching) and the same consistency check turn these
 * traces into one program per task type: "for each goal object: fetch it,
 * treat it if needed, deliver it" comes out of demonstrations with one to
 * three objects and runs on any number.
 *
 * A call's arguments are expressions over the state when the call is made
 * (not the initial state), so an argument may name an object an earlier
 * call produced. Value types (`ItemType`) are quantifiable at this level
 * (see `runtime/exec/value_domains.ts`): a goal stated with values is read with
 * `select_all(t: ItemType, goal_item(t))`.
 *
 * @module
 */
import { renderAction } from "../dsl/action.ts";
import type { ActionDecl, Vocabulary } from "../dsl/vocabulary.ts";
import type { Skill } from "../dsl/graph/schema.ts";
import type { FactStore } from "../runtime/fact_store.ts";
import { valueDomainVocabulary, withValueDomains } from "../runtime/exec/value_domains.ts";
import type { GroundedStep, GroundedTrace } from "./ground.ts";
import type { Segment, SegmentGroup } from "./segment.ts";
import { type InducedSkill, induceGroup, type InduceOptions } from "./induce.ts";
import { skillAction, type SkillHead } from "./skill_action.ts";
import { withLoopOrder } from "./loop_order.ts";

/** One demonstration at the task level: its segments and the skill of each. */
export interface TaskDemo {
  /** The grounded trace. */
  grounded: GroundedTrace;
  /** Its position among the inputs. */
  traceIndex: number;
  /** The segments in order, each with the skill (group) it belongs to. */
  calls: { skill: string; segment: Segment }[];
}

/** The induced program of one task type. */
export interface TaskProgram {
  /** The task type. */
  type: string;
  /** The program (its primitive nodes call skills). */
  skill: Skill;
  /** Demonstrations it was induced from, and how many it reproduces. */
  demos: number;
  covered: number;
  /** Whether LoopFold found a loop that the program kept. */
  loop: boolean;
}

/**
 * The vocabulary of the task level: the domain's predicates and functions,
 * value types quantifiable, and one action per skill.
 */
export function taskVocabulary(vocab: Vocabulary, skills: readonly SkillHead[]): Vocabulary {
  const wide = valueDomainVocabulary(vocab);
  return {
    ...wide,
    actions: Object.fromEntries(skills.map((s) => [s.name, skillAction(s)])),
    landmarks: [],
  };
}

/**
 * A state in which the values of value types are declared objects of their
 * type, as the runtime's value-domain view sees them.
 */
function withValueObjects(vocab: Vocabulary, state: FactStore): FactStore {
  // One per state: demonstrations that share states (see `shareStates`) then
  // share their task-level states too, and copies among them are found.
  let byState = valueObjectStates.get(vocab);
  if (!byState) valueObjectStates.set(vocab, byState = new WeakMap());
  let out = byState.get(state);
  if (!out) byState.set(state, out = declareValueObjects(vocab, state));
  return out;
}

const valueObjectStates = new WeakMap<Vocabulary, WeakMap<FactStore, FactStore>>();

function declareValueObjects(vocab: Vocabulary, state: FactStore): FactStore {
  const view = withValueDomains(vocab, state).facts;
  const objects: Record<string, string> = {};
  for (const [type, decl] of Object.entries(vocab.types)) {
    if (decl.kind !== "value") continue;
    for (const v of view.objectsOfType(type)) if (state.typeOf(v) === undefined) objects[v] = type;
  }
  const out = state.clone();
  out.apply({ add: [], remove: [], objects });
  return out;
}

/**
 * The task-level trace of a demonstration: one step per segment (the skill
 * call with the segment's parameters), the states at segment boundaries.
 */
export function taskTrace(
  demo: TaskDemo,
  vocab: Vocabulary,
  actions: Readonly<Record<string, ActionDecl>>,
): GroundedTrace {
  const { grounded, calls } = demo;
  // A nested segment has a trace of its own (see `nest.ts`): its first and
  // last states are those of the real trace where it starts and ends.
  const states = calls.map((c) => withValueObjects(vocab, c.segment.trace.states[c.segment.start]));
  const last = calls[calls.length - 1].segment;
  states.push(withValueObjects(vocab, last.trace.states[last.end]));
  const steps: GroundedStep[] = calls.map((c) => ({
    action: renderAction(
      actions[c.skill],
      Object.fromEntries(c.segment.params.map((p) => [p.name, p.value])),
    ),
    observation: "",
    delta: { add: [], remove: [] },
  }));
  return {
    trace: { ...grounded.trace, source: grounded.trace.source ?? `trace ${demo.traceIndex + 1}` },
    states,
    steps,
    unknown: [],
  };
}

/**
 * Induces the program of one task type from its demonstrations. LoopFold is
 * tried and kept only when the program with the loop reproduces at least as
 * many demonstrations as the one without (then the smaller MDL cost wins).
 *
 * @returns The program, or `undefined` when there are no demonstrations.
 */
export function induceTaskProgram(
  type: string,
  demos: readonly TaskDemo[],
  vocab: Vocabulary,
  skills: readonly SkillHead[],
  options: Pick<InduceOptions, "lambda" | "explain"> = {},
): TaskProgram | undefined {
  const usable = demos.filter((d) => d.calls.length > 0);
  if (usable.length === 0) return undefined;
  const taskVocab = taskVocabulary(vocab, skills);
  const segments: Segment[] = usable.map((demo) => {
    const trace = taskTrace(demo, vocab, taskVocab.actions);
    const steps = trace.steps.map((_, k) => k);
    return {
      trace,
      traceIndex: demo.traceIndex,
      start: 0,
      end: steps.length,
      steps,
      signature: `task:${type}`,
      params: [],
    };
  });
  const group: SegmentGroup = {
    signature: `task:${type}`,
    name: `task_${type.replace(/[^A-Za-z0-9_]/g, "_")}`,
    params: [],
    segments,
  };
  const tries: { induced: InducedSkill; loop: boolean }[] = [];
  for (const loopFold of [true, false]) {
    const induced = induceGroup(group, taskVocab, { ...options, loopFold, enumerate: true });
    const loop = induced.skill.nodes.some((n) => n.kind === "loop");
    tries.push({ induced, loop });
    if (!loop) break;
  }
  // With the loop unless it reproduces fewer demonstrations: a loop over the
  // goal's objects is what carries the program to larger tasks.
  const best = tries.reduce((a, b) => b.induced.covered > a.induced.covered ? b : a);
  options.explain?.(
    `[${group.name}] task program ${
      best.loop ? "with" : "without"
    } a loop reproduces ${best.induced.covered} of ${usable.length} demonstrations${
      best.induced.uncovered.map((u) => `; ${u.source}: ${u.reason}`).join("")
    }`,
  );
  // The order the demonstrations visited the loop's elements in, when the
  // task's description explains it (see `loop_order.ts`).
  const changed = new Set(
    usable.flatMap((d) =>
      d.grounded.steps.flatMap((s) => [...s.delta.add, ...s.delta.remove].map((a) => a.pred))
    ),
  );
  const skill = withLoopOrder(best.induced.skill, segments, taskVocab, changed);
  for (const n of skill.nodes) {
    if (n.kind === "loop" && n.after) {
      options.explain?.(
        `[${group.name}] loop ${n.id} visits ${n.var} after each ${n.after.var} where ${n.after.cond}`,
      );
    }
  }
  return {
    type,
    skill,
    demos: usable.length,
    covered: best.induced.covered,
    loop: best.loop,
  };
}

/**
 * A task program in one line, statements in graph order from the entry:
 * `item := select_one(...); for p in select_all(...): water_plant(plant = p)`.
 * Loop bodies and branches are bracketed; for people reading a summary.
 *
 * @example Usage
 * ```ts
 * import { describeProgram } from "./task_program.ts";
 * console.log(describeProgram({
 *   format: "skillc/skill@1", name: "t", vocabulary: "v", params: [], doc: { summary: "" },
 *   entry: "a",
 *   nodes: [
 *     { id: "a", kind: "primitive", action: "fetch", args: {} },
 *     { id: "ok", kind: "terminal", outcome: "success" },
 *   ],
 *   edges: [{ from: "a", to: "ok", label: "next" }],
 * })); // fetch()
 * ```
 */
export function describeProgram(skill: Skill): string {
  const out = new Map<string, Record<string, string>>();
  for (const e of skill.edges) out.set(e.from, { ...out.get(e.from), [e.label]: e.to });
  const nodes = new Map(skill.nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const walk = (id: string | undefined, stop: ReadonlySet<string>): string[] => {
    const parts: string[] = [];
    while (id !== undefined && !seen.has(id) && !stop.has(id)) {
      seen.add(id);
      const n = nodes.get(id)!;
      const edges = out.get(id) ?? {};
      if (n.kind === "data") parts.push(`${n.var} := ${n.expr}`);
      else if (n.kind === "primitive") {
        const args = Object.entries(n.args).map(([k, v]) => `${k} = ${v}`).join(", ");
        parts.push(`${n.action}(${args})`);
      } else if (n.kind === "loop") {
        const body = walk(edges.body, new Set([...stop, id]));
        const after = n.after ? ` after each ${n.after.var} where ${n.after.cond}` : "";
        parts.push(`for ${n.var} in ${n.over}${after}: [${body.join("; ")}]`);
        id = edges.done;
        continue;
      } else if (n.kind === "check") {
        const then = walk(edges.yes, new Set([...stop, ...(edges.no ? [edges.no] : [])]));
        parts.push(`if ${n.cond}: [${then.join("; ")}]`);
        id = edges.no;
        continue;
      } else if (n.outcome === "failure") parts.push(`fail`);
      id = edges.next;
    }
    return parts;
  };
  return walk(skill.entry, new Set()).join("; ");
}
