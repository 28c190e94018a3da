// The agent notices it is stuck: an action rejected in a state is never sent
// again in that same state, and a cycle of actions is cut.
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { ActionMemory } from "../../runtime/agent/action_memory.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { drainAgent } from "./_agent_fixtures.ts";

import { keysKit, runKeysAgent } from "./_keys_agent.ts";

const kit = keysKit;

/** Opens every closed door with its key, without fetching the key first: always rejected here. */
const openDoors: Skill = {
  format: "skillc/skill@1",
  name: "open_doors",
  vocabulary: kit.vocabulary.name,
  params: [],
  doc: { summary: "Opens the doors." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "check", cond: "exists(d: door, not opened(d))" },
    { id: "door", kind: "data", var: "d", expr: "select_one(d: door, not opened(d))" },
    { id: "key", kind: "data", var: "k", expr: "select_one(k: key, fits(k, d))" },
    { id: "room", kind: "data", var: "r", expr: "select_one(r: room, door_of(d, r))" },
    { id: "who", kind: "data", var: "a", expr: "select_one(a: agent, true)" },
    { id: "open", kind: "primitive", action: "open", args: { a: "a", k: "k", d: "d", r: "r" } },
    { id: "done", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "door", label: "yes" },
    { from: "pick", to: "done", label: "no" },
    { from: "door", to: "key", label: "next" },
    { from: "key", to: "room", label: "next" },
    { from: "room", to: "who", label: "next" },
    { from: "who", to: "open", label: "next" },
    { from: "open", to: "pick", label: "next" },
  ],
};

Deno.test("an action rejected in a state is not sent again in that state: its answer is recalled and the episode ends", async () => {
  const { result, events } = await runKeysAgent(openDoors, 3000);
  assert.equal(result.success, false);
  // Nothing the agent sends changes the state, so no action may be sent and
  // rejected twice: a retry recalls the first answer instead of sending.
  const sent = events.flatMap((e) =>
    e.type === "run" && e.event.type === "observe" && e.event.rejected && !e.event.recalled
      ? [e.event.action]
      : []
  );
  const recalled = events.filter((e) =>
    e.type === "run" && e.event.type === "observe" && e.event.recalled
  );
  assert.equal(result.invalidActions, sent.length);
  assert.equal(new Set(sent).size, sent.length, sent.join(", "));
  assert.ok(recalled.length > 0, "a retry recalls the rejection");
  assert.ok(result.actions <= 2, `${result.actions} actions`);
});

Deno.test("the memory refuses a third send of an action from the same state (a cycle)", () => {
  const memory = new ActionMemory();
  const here = ActionMemory.stateKey(new FactStore([{ pred: "at", args: ["r1"] }], { r1: "Room" }));
  const there = ActionMemory.stateKey(
    new FactStore([{ pred: "at", args: ["r2"] }], { r2: "Room" }),
  );
  memory.record(here, "go r2");
  assert.equal(memory.refusal(here, "go r2"), undefined);
  memory.record(here, "go r2");
  assert.match(memory.refusal(here, "go r2")!, /already sent 2 times from this same state/);
  assert.equal(memory.refusal(there, "go r2"), undefined);
  memory.record(there, "go r1", { observation: "You cannot.", rejected: "You cannot." });
  assert.match(memory.refusal(there, "go r1")!, /rejected in this same state before/);
  assert.deepEqual(memory.recall(there, "go r1"), {
    observation: "You cannot.",
    rejected: "You cannot.",
  });
  assert.equal(memory.recall(here, "go r1"), undefined);
});

/**
 * The walk both wandering skills end with, from node `here`: west if one
 * can, else east (a `failed` edge from the walk west), then back to
 * `arrived`.
 */
const WALK: Pick<Skill, "nodes" | "edges"> = {
  nodes: [
    { id: "here", kind: "data", var: "f", expr: "select_one(f: room, at(f))" },
    { id: "can_west", kind: "check", cond: "exists(t: room, west(f, t))" },
    { id: "to_west", kind: "data", var: "t", expr: "select_one(t: room, west(f, t))" },
    { id: "go_west", kind: "primitive", action: "walk", args: { from: "f", to: "t" } },
    { id: "can_east", kind: "check", cond: "exists(e: room, east(f, e))" },
    { id: "to_east", kind: "data", var: "e", expr: "select_one(e: room, east(f, e))" },
    { id: "go_east", kind: "primitive", action: "walk", args: { from: "f", to: "e" } },
    { id: "done", kind: "terminal", outcome: "success" },
    { id: "stuck", kind: "terminal", outcome: "failure", message: "No way on" },
  ],
  edges: [
    { from: "here", to: "can_west", label: "next" },
    { from: "can_west", to: "to_west", label: "yes" },
    { from: "can_west", to: "can_east", label: "no" },
    { from: "to_west", to: "go_west", label: "next" },
    { from: "go_west", to: "arrived", label: "next" },
    { from: "go_west", to: "can_east", label: "failed" },
    { from: "can_east", to: "to_east", label: "yes" },
    { from: "can_east", to: "stuck", label: "no" },
    { from: "to_east", to: "go_east", label: "next" },
    { from: "go_east", to: "arrived", label: "next" },
    { from: "go_east", to: "stuck", label: "failed" },
  ],
};

/** A corridor of rooms, walked both ways; the goal is the far end. */
const LINE_DOMAIN = `(define (domain line) (:requirements :strips :typing)
  (:types room)
  (:predicates (at ?r - room) (west ?a - room ?b - room) (east ?a - room ?b - room))
  (:action walk :parameters (?from - room ?to - room)
    :precondition (and (at ?from) (or (west ?from ?to) (east ?from ?to)))
    :effect (and (not (at ?from)) (at ?to))))`;
const LINE_PROBLEM = `(define (problem four) (:domain line)
  (:objects r1 r2 r3 r4 - room)
  (:init (at r1) (east r1 r2) (west r2 r1) (east r2 r3) (west r3 r2) (east r3 r4) (west r4 r3))
  (:goal (at r4)))`;

Deno.test("a planned action counts only its planned sends toward a cycle, and a rejection refuses it", () => {
  const memory = new ActionMemory();
  const here = ActionMemory.stateKey(new FactStore([{ pred: "at", args: ["r1"] }], { r1: "Room" }));
  // The skills went round through it twice: a plan may still start with it.
  memory.record(here, "go r2");
  memory.record(here, "go r2");
  assert.notEqual(memory.refusal(here, "go r2"), undefined);
  assert.equal(memory.refusal(here, "go r2", { planned: true }), undefined);
  // Planned twice from here itself: the look-ahead is going round.
  memory.record(here, "go r2", undefined, undefined, [], true);
  assert.equal(memory.refusal(here, "go r2", { planned: true }), undefined);
  memory.record(here, "go r2", undefined, undefined, [], true);
  assert.match(memory.refusal(here, "go r2", { planned: true })!, /already sent 2 times/);
  memory.record(here, "go r3", { observation: "No way.", rejected: "No way." });
  assert.match(memory.refusal(here, "go r3", { planned: true })!, /rejected in this same state/);
});

Deno.test("a skill with another way does not take an action its model says leads back to a state the episode was in", async () => {
  const line = pddlKit("pddl:line", LINE_DOMAIN, "line.pddl", [
    { id: "line/four", file: "four.pddl", text: LINE_PROBLEM },
  ], {});
  // Walk west if you can, else east: alone, a cycle between the first two rooms.
  const wander: Skill = {
    format: "skillc/skill@1",
    name: "wander",
    vocabulary: line.vocabulary.name,
    params: [],
    doc: { summary: "Walks west, else east, until at the goal's room." },
    entry: "arrived",
    nodes: [
      { id: "arrived", kind: "check", cond: "exists(r: room, goal_at(r) and at(r))" },
      ...WALK.nodes,
    ],
    edges: [
      { from: "arrived", to: "done", label: "yes" },
      { from: "arrived", to: "here", label: "no" },
      ...WALK.edges,
    ],
  };
  const library = compileSkills([{ data: wander, source: "test" }], line.vocabulary);
  const { result } = await drainAgent(runAgent({
    env: line.create(),
    kit: line,
    library,
    actionModel: ActionModel.fromJSON(line.actionRules!(), line.vocabulary),
    templates: [{
      type: "pddl:line",
      traces: 1,
      steps: [{ skill: "wander", args: [] }],
      support: 1,
      alternatives: [],
    }],
    task: { id: "line/four" },
    maxActions: 100,
  }));
  // Each walk back west is foreseen to return to a room's state already left: east instead.
  assert.ok(result.success, result.stop);
  assert.equal(result.actions, 3);
});

/** The corridor, with bells along it that ring once each and change nothing else. */
const BELLS_DOMAIN = `(define (domain bells) (:requirements :strips :typing)
  (:types room bell)
  (:predicates (at ?r - room) (west ?a - room ?b - room) (east ?a - room ?b - room)
    (quiet ?b - bell) (rung ?b - bell))
  (:action walk :parameters (?from - room ?to - room)
    :precondition (and (at ?from) (or (west ?from ?to) (east ?from ?to)))
    :effect (and (not (at ?from)) (at ?to)))
  (:action ring :parameters (?b - bell)
    :precondition (quiet ?b)
    :effect (and (not (quiet ?b)) (rung ?b))))`;
const BELLS_PROBLEM = `(define (problem four) (:domain bells)
  (:objects r1 r2 r3 r4 - room b1 b2 b3 - bell)
  (:init (at r1) (east r1 r2) (west r2 r1) (east r2 r3) (west r3 r2) (east r3 r4) (west r4 r3)
    (quiet b1) (quiet b2) (quiet b3))
  (:goal (at r4)))`;

Deno.test("a skill with another way does not undo an earlier action that nothing used since, though others came between", async () => {
  const bells = pddlKit("pddl:bells", BELLS_DOMAIN, "bells.pddl", [
    { id: "bells/four", file: "four.pddl", text: BELLS_PROBLEM },
  ], {});
  // Ring a bell if one is quiet, then walk west if you can, else east.
  const wander: Skill = {
    format: "skillc/skill@1",
    name: "ring_and_wander",
    vocabulary: bells.vocabulary.name,
    params: [],
    doc: { summary: "Rings a quiet bell, then walks west, else east, until at the goal's room." },
    entry: "arrived",
    nodes: [
      { id: "arrived", kind: "check", cond: "exists(r: room, goal_at(r) and at(r))" },
      { id: "any_quiet", kind: "check", cond: "exists(b: bell, quiet(b))" },
      { id: "bell", kind: "data", var: "b", expr: "select_one(b: bell, quiet(b))" },
      { id: "ring", kind: "primitive", action: "ring", args: { b: "b" } },
      ...WALK.nodes,
    ],
    edges: [
      { from: "arrived", to: "done", label: "yes" },
      { from: "arrived", to: "any_quiet", label: "no" },
      { from: "any_quiet", to: "bell", label: "yes" },
      { from: "any_quiet", to: "here", label: "no" },
      { from: "bell", to: "ring", label: "next" },
      { from: "ring", to: "here", label: "next" },
      ...WALK.edges,
    ],
  };
  const library = compileSkills([{ data: wander, source: "test" }], bells.vocabulary);
  const { result, events } = await drainAgent(runAgent({
    env: bells.create(),
    kit: bells,
    library,
    actionModel: ActionModel.fromJSON(bells.actionRules!(), bells.vocabulary),
    templates: [{
      type: "pddl:bells",
      traces: 1,
      steps: [{ skill: "ring_and_wander", args: [] }],
      support: 1,
      alternatives: [],
    }],
    task: { id: "bells/four" },
    maxActions: 100,
  }));
  // A walk back west comes after a bell rung, not right after the walk east it
  // would undo; the bell has nothing to do with where one stands: east instead.
  assert.ok(result.success, result.stop);
  const walks = events.flatMap((e) =>
    e.type === "run" && e.event.type === "act" && e.event.action.startsWith("walk")
      ? [e.event.action]
      : []
  );
  assert.deepEqual(walks, ["walk r1 r2", "walk r2 r3", "walk r3 r4"]);
  assert.equal(result.actions, 6);
});

Deno.test("the memory tells which earlier action an action would undo, unless a later one used it", () => {
  const memory = new ActionMemory();
  const at = (t: string, l: string) => ({ pred: "at", args: [t, l] });
  const facts = new FactStore([at("t1", "a"), at("t2", "b")], { t1: "Truck", t2: "Truck" });
  const key = () => ActionMemory.stateKey(facts);
  const drive = (t: string, from: string, to: string) => {
    const delta = { add: [at(t, to)], remove: [at(t, from)] };
    memory.record(key(), `drive ${t} ${from} ${to}`, undefined, delta, [t, from, to]);
    facts.apply(delta);
  };
  drive("t1", "a", "c");
  drive("t2", "b", "d");
  const back = { add: [at("t1", "a")], remove: [at("t1", "c")] };
  // Another truck drove in between: the drive back still undoes t1's.
  assert.equal(memory.undone(facts, back), "drive t1 a c");
  // Not a drive on elsewhere: it changes at(t1, e), which nothing changed yet.
  assert.equal(memory.undone(facts, { add: [at("t1", "e")], remove: [at("t1", "c")] }), undefined);
  // An action with both of at(t1, c)'s objects among its arguments used the drive.
  memory.record(key(), "unload t1 c p1", undefined, {
    add: [{ pred: "delivered", args: ["p1"] }],
    remove: [],
  }, ["t1", "c", "p1"]);
  assert.equal(memory.undone(facts, back), undefined);
});
