// Loop precedence: how a loop orders its elements (`LoopNode.after`), how
// validation reads it, and how induction learns it from the order
// demonstrators visited elements in. The domain is one of its own: parcels
// loaded into a van, a parcel that goes on top of another loaded after it.
import assert from "node:assert/strict";
import type { Atom } from "../../dsl/facts.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { validateSkill } from "../../dsl/graph/validate.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { withLoopOrder } from "../../compiler/loop_order.ts";
import { describeProgram } from "../../compiler/task_program.ts";
import type { GroundedTrace } from "../../compiler/ground.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { initialState, resume, step } from "../../runtime/exec/step.ts";

const vocab: Vocabulary = {
  name: "van",
  types: { Parcel: { kind: "object" } },
  predicates: {
    goal_loaded: { params: ["Parcel"] },
    goal_above: { params: ["Parcel", "Parcel"] },
    near: { params: ["Parcel", "Parcel"] },
    loaded: { params: ["Parcel"] },
  },
  functions: {},
  actions: { load: { template: "load {p}", params: [{ name: "p", type: "Parcel" }] } },
};

const atom = (pred: string, ...args: string[]): Atom => ({ pred, args });

function program(after?: { var: string; cond: string }): Skill {
  return {
    format: "skillc/skill@1",
    name: "load_all",
    vocabulary: "van",
    params: [],
    doc: { summary: "Load every parcel the goal names." },
    entry: "each",
    nodes: [
      {
        id: "each",
        kind: "loop",
        var: "p",
        over: "select_all(x: Parcel, goal_loaded(x))",
        ...(after ? { after } : {}),
      },
      { id: "load", kind: "primitive", action: "load", args: { p: "p" } },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "each", to: "load", label: "body" },
      { from: "load", to: "each", label: "next" },
      { from: "each", to: "ok", label: "done" },
    ],
  };
}

/** The actions a program sends when every action succeeds. */
function actions(skill: Skill, facts: FactStore): string[] {
  const compiled = compileSkill(skill, vocab);
  assert.ok(compiled.ok, JSON.stringify(!compiled.ok && compiled.error));
  const out: string[] = [];
  let outcome = step(compiled.value, initialState(compiled.value, {}), { facts });
  while (outcome.kind === "think" || outcome.kind === "act") {
    if (outcome.kind === "think") {
      outcome = step(compiled.value, outcome.state, { facts });
      continue;
    }
    out.push(outcome.action);
    const next = resume(compiled.value, outcome.state, { ok: true });
    if (next.kind !== "continue") break;
    outcome = step(compiled.value, next.state, { facts });
  }
  return out;
}

const parcels = { a: "Parcel", b: "Parcel", c: "Parcel", d: "Parcel" };

Deno.test("a loop with a precedence visits each element after those it must follow", () => {
  // c goes on b, b on a; d is free.
  const facts = new FactStore([
    ...["a", "b", "c", "d"].map((p) => atom("goal_loaded", p)),
    atom("goal_above", "c", "b"),
    atom("goal_above", "b", "a"),
  ], parcels);
  const after = { var: "below", cond: "goal_above(p, below)" };
  assert.deepEqual(actions(program(), facts), ["load a", "load b", "load c", "load d"]);
  facts.remove(atom("goal_above", "b", "a"));
  facts.add(atom("goal_above", "a", "b"));
  assert.deepEqual(actions(program(after), facts), ["load b", "load a", "load c", "load d"]);
  // Elements free to go come first; a cycle (b and c) is broken in the list's order.
  facts.add(atom("goal_above", "b", "c"));
  assert.deepEqual(actions(program(after), facts), ["load d", "load a", "load b", "load c"]);
});

Deno.test("validation reads a precedence with both of its variables, and names its faults", () => {
  const ok = validateSkill(program({ var: "below", cond: "goal_above(p, below)" }), vocab);
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.error));
  const notBool = validateSkill(program({ var: "below", cond: "below" }), vocab);
  assert.ok(!notBool.ok);
  assert.match(notBool.error.map((e) => e.message).join("\n"), /"after.cond" must be Bool/);
  const unknown = validateSkill(program({ var: "below", cond: "goal_above(p, other)" }), vocab);
  assert.ok(!unknown.ok);
  assert.match(unknown.error.map((e) => e.message).join("\n"), /"other"/);
});

/** A demonstration: the parcels the goal names loaded in `order`, from `facts`. */
function demo(facts: FactStore, order: string[]): { trace: GroundedTrace } {
  return {
    trace: {
      trace: { task: { id: "demo" }, goal: "", steps: [], success: true },
      states: [facts],
      steps: order.map((p) => ({
        action: `load ${p}`,
        observation: "",
        delta: { add: [atom("loaded", p)], remove: [] },
      })),
      unknown: [],
    } as unknown as GroundedTrace,
  };
}

Deno.test("withLoopOrder() learns the precedence the demonstrations show, from the task's facts", () => {
  const first = new FactStore([
    atom("goal_loaded", "a"),
    atom("goal_loaded", "b"),
    atom("goal_above", "b", "a"),
    // near() holds the other way round in one demonstration: it is no precedence.
    atom("near", "a", "b"),
  ], parcels);
  const second = new FactStore([
    atom("goal_loaded", "c"),
    atom("goal_loaded", "d"),
    atom("goal_above", "c", "d"),
    atom("near", "c", "d"),
  ], parcels);
  const changed = new Set(["loaded"]);
  const learned = withLoopOrder(
    program(),
    [demo(first, ["a", "b"]), demo(second, ["d", "c"])],
    vocab,
    changed,
  );
  const loop = learned.nodes.find((n) => n.kind === "loop");
  assert.deepEqual(loop?.kind === "loop" && loop.after, {
    var: "p_before",
    cond: "goal_above(p, p_before)",
  });
  // The one-line summary induce prints says so.
  assert.match(describeProgram(learned), /after each p_before where goal_above\(p, p_before\): \[/);
  // A demonstration that contradicts every candidate leaves the loop as it was.
  const contrary = withLoopOrder(
    program(),
    [demo(first, ["a", "b"]), demo(second, ["d", "c"]), demo(first, ["b", "a"])],
    vocab,
    changed,
  );
  assert.equal(contrary.nodes.find((n) => n.kind === "loop" && n.after), undefined);
  // Predicates the steps change are not the task's description.
  const dynamic = withLoopOrder(
    program(),
    [demo(first, ["a", "b"]), demo(second, ["d", "c"])],
    vocab,
    new Set(["loaded", "goal_above"]),
  );
  assert.equal(dynamic.nodes.find((n) => n.kind === "loop" && n.after), undefined);
});
