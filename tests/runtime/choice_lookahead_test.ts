// Free choices looked ahead in the action model: a tour that visits each
// place once and comes home takes, where it has a choice, the way the model
// sees reach the goal rather than the first, which strands it.
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { type AgentEvent, runAgent } from "../../runtime/agent/mod.ts";
import { simulate } from "../../runtime/exec/simulate.ts";
import { initialState } from "../../runtime/exec/step.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { ChoiceLookahead } from "../../runtime/agent/choice_lookahead.ts";
import { forbiddenAtoms, goalAtoms } from "../../runtime/plan/landmark_agenda.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { drainAgent } from "./_agent_fixtures.ts";
import { TOUR_DOMAIN, tourProblem } from "../environments/_tour_domain.ts";

const LEARNED = { rules: "learned" };

const kit = pddlKit("pddl:tour", TOUR_DOMAIN, "tour.pddl", [
  { id: "tour/p1", file: "p1.pddl", text: tourProblem("p1", ["a"], [["s", "a"]]) },
  {
    id: "tour/p2",
    file: "p2.pddl",
    text: tourProblem("p2", ["a", "b"], [["s", "a"], ["a", "b"], ["b", "s"]]),
  },
  // From a, b comes first (the candidates' order) and strands the tour at c,
  // which has no link home; c first leads round to b and home.
  {
    id: "tour/ring",
    file: "ring.pddl",
    text: tourProblem("ring", ["a", "b", "c"], [["s", "a"], ["a", "b"], ["a", "c"], [
      "c",
      "b",
    ], ["b", "s"]]),
  },
  // Beside p, q and r lies a leaf no goal names, which comes first and
  // strands the tour: played on by first candidates, every way from p ends
  // in a leaf.
  {
    id: "tour/leaves",
    file: "leaves.pddl",
    text: tourProblem(
      "leaves",
      ["e", "f", "g", "p", "q", "r", "t"],
      [["s", "p"], ["p", "e"], ["p", "q"], ["q", "f"], ["q", "r"], ["r", "g"], ["r", "t"], [
        "t",
        "s",
      ]],
      ["p", "q", "r", "t"],
    ),
  },
  // From a, b comes first and leads on to c and home, but the goal forbids
  // visiting b; d leads there too.
  {
    id: "tour/forbidden",
    file: "forbidden.pddl",
    text: tourProblem(
      "forbidden",
      ["a", "b", "c", "d"],
      [["s", "a"], ["a", "b"], ["a", "d"], ["b", "c"], ["d", "c"], ["c", "s"]],
      ["c"],
      ["b"],
    ),
  },
], {});

/** Goes to an unvisited place while one is linked, then home. */
const TOUR: Skill = {
  format: "skillc/skill@1",
  name: "tour",
  vocabulary: kit.vocabulary.name,
  params: [],
  doc: { summary: "Visits every place, then goes home." },
  entry: "onward",
  nodes: [
    {
      id: "onward",
      kind: "check",
      cond: "exists(x: place, at(x) and exists(y: place, link(x, y) and not visited(y) and " +
        "not start(y)))",
    },
    { id: "here", kind: "data", var: "x", expr: "select_one(x: place, at(x))" },
    {
      id: "next",
      kind: "data",
      var: "y",
      expr: "select_one(y: place, link(x, y) and not visited(y) and not start(y))",
    },
    { id: "go", kind: "primitive", action: "go", args: { x: "x", y: "y" } },
    {
      id: "homeward",
      kind: "check",
      cond: "exists(x: place, at(x) and exists(y: Start, link(x, y)))",
    },
    { id: "from", kind: "data", var: "x", expr: "select_one(x: place, at(x))" },
    // The start is a kind of place: it is the start in every problem.
    { id: "to", kind: "data", var: "h", expr: "select_one(y: Start, link(x, y))" },
    { id: "back", kind: "primitive", action: "back", args: { x: "x", y: "h" } },
    { id: "done", kind: "terminal", outcome: "success" },
    { id: "stuck", kind: "terminal", outcome: "failure", message: "Nowhere to go" },
  ],
  edges: [
    { from: "onward", to: "here", label: "yes" },
    { from: "onward", to: "homeward", label: "no" },
    { from: "here", to: "next", label: "next" },
    { from: "next", to: "go", label: "next" },
    { from: "go", to: "onward", label: "next" },
    { from: "homeward", to: "from", label: "yes" },
    { from: "homeward", to: "stuck", label: "no" },
    { from: "from", to: "to", label: "next" },
    { from: "to", to: "back", label: "next" },
    { from: "back", to: "done", label: "next" },
  ],
};

const library = compileSkills([{ data: TOUR, source: "test" }], kit.vocabulary);

/** The action model learned from the two small tours. */
async function learnedModel() {
  const traces = await generateExpertTraces(kit, [{ id: "tour/p1" }, { id: "tour/p2" }], {
    envOptions: LEARNED,
  });
  return compileTraces(traces, withEnvOptions(kit, LEARNED)).actionModel;
}

/** The agent's run of `skill` on problem `id`, the action model learned from the small tours. */
async function tourRun(
  skills: typeof library,
  skill: string,
  id: string,
  lookahead: boolean,
) {
  return await drainAgent(runAgent({
    env: kit.create(LEARNED),
    kit: withEnvOptions(kit, LEARNED),
    library: skills,
    templates: [{
      type: "pddl:tour",
      traces: 1,
      steps: [{ skill, args: [] }],
      support: 1,
      alternatives: [],
    }],
    actionModel: await learnedModel(),
    lookahead,
    task: { id },
    maxActions: 20,
  }));
}

/** The actions a run sent to the environment. */
function sent(events: AgentEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "run" && e.event.type === "act" && !e.event.recalled ? [e.event.action] : []
  );
}

/** The ring's first facts. */
async function ringFacts(): Promise<FactStore> {
  const reset = await kit.create(LEARNED).reset({ id: "tour/ring" });
  const facts = new FactStore();
  facts.apply((await kit.grounder().initial(reset.observation, reset.goal)).delta);
  return facts;
}

Deno.test("simulate: the tour played in the action model strands itself, or comes home", async () => {
  const model = await learnedModel();
  const facts = await ringFacts();
  const atoms = goalAtoms(kit.vocabulary, facts);
  assert.equal(atoms.length, 4, "visited a, b, c and home");
  const program = library.get("tour")!;
  const play = (first: string) =>
    simulate(program, initialState(program, {}), facts.clone(), {
      predict: (f, action) => model.predict(f, action),
      goal: (f) => atoms.every((a) => f.has(a)),
      maxActions: 20,
      // From a, take `first` when it may be taken; elsewhere the first candidate.
      choose: (candidates, _expr, at) =>
        at?.node === "next" && candidates.includes(first) ? first : candidates[0],
    });
  assert.deepEqual(play("b"), { end: "dead end", actions: 3 });
  assert.deepEqual(play("c"), { end: "goal", actions: 4 });
  // The facts played on were a copy.
  assert.ok(!facts.has({ pred: "home", args: [] }));
});

Deno.test("a choice whose way strands the tour takes another, and its action counts as planned", async () => {
  const run = (lookahead: boolean, id = "tour/ring") => tourRun(library, "tour", id, lookahead);
  const looked = await run(true);
  assert.ok(looked.result.success, looked.result.stop);
  assert.deepEqual(sent(looked.events), ["go s a", "go a c", "go c b", "back b s"]);
  assert.equal(looked.result.plannedActions, 1, "the one changed choice: c before b");
  assert.deepEqual(
    looked.events.flatMap((e) =>
      e.type === "decide" && /looked ahead/.test(e.text) ? [e.text] : []
    ),
    ["looked ahead: taking b ends in a dead end; c instead"],
  );
  // Without look-ahead the first candidate strands the tour at c.
  const blind = await run(false);
  assert.equal(blind.result.success, false);
  assert.deepEqual(sent(blind.events).slice(0, 3), ["go s a", "go a b", "go b c"]);
  // Ways played on take the places the goal names first: from p, the way
  // through q reaches the goal although its first candidates, the leaves,
  // would strand it (three choices deep).
  const leaves = await run(true, "tour/leaves");
  assert.ok(leaves.result.success, leaves.result.stop);
  assert.deepEqual(sent(leaves.events), ["go s p", "go p q", "go q r", "go r t", "back t s"]);
  assert.equal(leaves.result.plannedActions, 3, "q, r and t each taken before a leaf");
  const strayed = await run(false, "tour/leaves");
  assert.deepEqual(sent(strayed.events), ["go s p", "go p e"]);
});

/** Goes to any unvisited place while the goal names one not yet visited, then home. */
const ERRAND: Skill = {
  ...TOUR,
  name: "errand",
  doc: { summary: "Goes on until every place the goal names is visited, then goes home." },
  nodes: TOUR.nodes.map((n) =>
    n.id === "onward" && n.kind === "check"
      ? {
        ...n,
        cond: "exists(g: place, goal_visited(g) and not visited(g)) and exists(x: place, at(x) " +
          "and exists(y: place, link(x, y) and not visited(y) and not start(y)))",
      }
      : n
  ),
};

Deno.test("a way that makes true what the goal forbids, for good, is a dead end", async () => {
  const vocab = kit.vocabulary;
  assert.deepEqual(vocab.predicates.goal_false_visited?.params, ["place"]);
  assert.equal(vocab.predicates.goal_false_link, undefined, "no action adds link");
  const reset = await kit.create(LEARNED).reset({ id: "tour/forbidden" });
  assert.match(reset.goal!, /visited c\., home\., it is not the case that visited b\.$/);
  const facts = new FactStore();
  facts.apply((await kit.grounder().initial(reset.observation, reset.goal)).delta);
  assert.deepEqual(forbiddenAtoms(vocab, facts), [{ pred: "visited", args: ["b"] }]);
  const errands = compileSkills([{ data: ERRAND, source: "test" }], vocab);
  const go = (lookahead: boolean) => tourRun(errands, "errand", "tour/forbidden", lookahead);
  const looked = await go(true);
  assert.ok(looked.result.success, looked.result.stop);
  assert.deepEqual(sent(looked.events), ["go s a", "go a d", "go d c", "back c s"]);
  assert.ok(
    looked.events.some((e) =>
      e.type === "decide" && e.text === "looked ahead: taking b ends in a dead end; d instead"
    ),
  );
  // Without look-ahead the first candidate visits b, and the goal is lost.
  const blind = await go(false);
  assert.equal(blind.result.success, false);
  assert.deepEqual(sent(blind.events).slice(0, 2), ["go s a", "go a b"]);
});

// Stamps: the goal asks a mark at b, and at c, which nothing reaches. From
// s the way to b (the first candidate) marks it and ends where no link
// leads on; the way to a only goes round (a links back to s).
const STAMPS_DOMAIN = `(define (domain stamps)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (at ?x - place) (link ?x - place ?y - place) (mark ?x - place))
  (:action go :parameters (?x - place ?y - place)
    :precondition (and (at ?x) (link ?x ?y))
    :effect (and (at ?y) (not (at ?x))))
  (:action stamp :parameters (?x - place)
    :precondition (and (at ?x) (not (mark ?x)))
    :effect (mark ?x)))`;

const STAMPS_PROBLEM = `(define (problem round) (:domain stamps)
  (:objects s a b c - place)
  (:init (at s) (link s a) (link s b) (link a s))
  (:goal (and (mark b) (mark c))))`;

/** Marks where the goal asks and it stands, else goes on along any link. */
const WANDER: Skill = {
  format: "skillc/skill@1",
  name: "wander",
  vocabulary: "stamps",
  params: [],
  doc: { summary: "Marks what the goal asks where it stands, else goes on." },
  entry: "due",
  nodes: [
    { id: "due", kind: "check", cond: "exists(x: place, at(x) and goal_mark(x) and not mark(x))" },
    { id: "here", kind: "data", var: "x", expr: "select_one(x: place, at(x))" },
    { id: "stamp", kind: "primitive", action: "stamp", args: { x: "x" } },
    {
      id: "onward",
      kind: "check",
      cond: "exists(x: place, at(x) and exists(y: place, link(x, y)))",
    },
    { id: "from", kind: "data", var: "x", expr: "select_one(x: place, at(x))" },
    { id: "next", kind: "data", var: "y", expr: "select_one(y: place, link(x, y))" },
    { id: "go", kind: "primitive", action: "go", args: { x: "x", y: "y" } },
    { id: "stuck", kind: "terminal", outcome: "failure", message: "Nowhere to go" },
  ],
  edges: [
    { from: "due", to: "here", label: "yes" },
    { from: "due", to: "onward", label: "no" },
    { from: "here", to: "stamp", label: "next" },
    { from: "stamp", to: "due", label: "next" },
    { from: "onward", to: "from", label: "yes" },
    { from: "onward", to: "stuck", label: "no" },
    { from: "from", to: "next", label: "next" },
    { from: "next", to: "go", label: "next" },
    { from: "go", to: "due", label: "next" },
  ],
};

Deno.test("a way that only goes round is no better than a dead end that got somewhere", async () => {
  const stamps = pddlKit("pddl:stamps", STAMPS_DOMAIN, "stamps.pddl", [
    { id: "stamps/round", file: "round.pddl", text: STAMPS_PROBLEM },
  ], {});
  const model = ActionModel.fromJSON(stamps.actionRules!(), stamps.vocabulary);
  const reset = await stamps.create().reset({ id: "stamps/round" });
  const facts = new FactStore();
  facts.apply((await stamps.grounder().initial(reset.observation, reset.goal)).delta);
  const program = compileSkills([{ data: WANDER, source: "test" }], stamps.vocabulary)
    .get("wander")!;
  const play = (first: string) =>
    simulate(program, initialState(program, {}), facts.clone(), {
      predict: (f, action) => model.predict(f, action),
      goal: (f) => goalAtoms(stamps.vocabulary, f).every((a) => f.has(a)),
      maxActions: 20,
      choose: (candidates, _expr, at) =>
        at?.node === "next" && candidates.includes(first) ? first : candidates[0],
    });
  // To b: marked, then nowhere to go. To a: back at s, where it started.
  assert.deepEqual(play("b"), { end: "dead end", actions: 2 });
  assert.deepEqual(play("a"), { end: "unknown", actions: 2, cycle: true });
  // The look-ahead keeps b, the first candidate: the other way gets no further.
  const lookahead = new ChoiceLookahead(model, stamps.vocabulary);
  const picks: string[] = [];
  const copy = facts.clone();
  simulate(program, initialState(program, {}), copy, {
    predict: (f, action) => model.predict(f, action),
    goal: () => false,
    maxActions: 1,
    choose: (candidates, _expr, at) => {
      if (at?.node !== "next") return candidates[0];
      // The agent's order: b first.
      assert.deepEqual([...candidates].sort(), ["a", "b"]);
      const pick = String(lookahead.choose(["b", "a"], at, copy));
      picks.push(pick);
      return pick;
    },
  });
  assert.deepEqual(picks, ["b"]);
});
