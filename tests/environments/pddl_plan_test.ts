import { dataPath, dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import {
  parseDomain,
  parseProblem,
  type PddlDomain,
  type PddlProblem,
} from "../../environments/pddl/parse.ts";
import {
  actionText,
  bindingOf,
  type GroundAction,
  groundAtom,
  PddlWorld,
} from "../../environments/pddl/world.ts";
import { planPddl, serialPlan } from "../../environments/pddl/plan.ts";

const GENPLAN = dataPath("genplan/");

/** Whether the plan applies step by step (`world.holds`, `world.apply`) and reaches the goal. */
function valid(world: PddlWorld, plan: readonly GroundAction[]): boolean {
  let state = world.initial();
  for (const step of plan) {
    if (!world.holds(step, state)) return false;
    state = world.apply(step, state);
  }
  return world.satisfied(state);
}

/**
 * The domain with pddlgym's action predicates (named in a `; (:actions ...)`
 * comment) out of its preconditions, for a parser that keeps them.
 */
function withoutActionPredicates(domain: PddlDomain, text: string): PddlDomain {
  const named = /;\s*\(:actions\s+([^)]*)\)/i.exec(text);
  if (!named) return domain;
  const preds = new Set(named[1].trim().toLowerCase().split(/\s+/));
  for (const a of domain.actions) {
    a.precondition = a.precondition.filter((l) => l.negated || !preds.has(l.pred));
  }
  return domain;
}

async function genplanWorld(domain: string, problem: string): Promise<PddlWorld> {
  const text = await Deno.readTextFile(`${GENPLAN}${domain}/domain.pddl`);
  const parsed = withoutActionPredicates(parseDomain(text, `${domain}/domain.pddl`), text);
  const file = `${GENPLAN}${domain}/${problem}`;
  return new PddlWorld(parsed, parseProblem(await Deno.readTextFile(file), file));
}

const LAMPS = `(define (domain lamps)
  (:requirements :strips :negative-preconditions)
  (:predicates (lamp ?l) (lit ?l) (broken ?l) (locked) (inside) (done))
  (:action switch-on :parameters (?l)
    :precondition (and (lamp ?l) (not (broken ?l)) (inside))
    :effect (lit ?l))
  (:action unlock :parameters () :precondition (locked) :effect (not (locked)))
  (:action enter :parameters () :precondition (not (locked)) :effect (inside))
  (:action finish :parameters (?l) :precondition (lit ?l) :effect (done)))`;

Deno.test("planPddl() respects negative preconditions", () => {
  const domain = parseDomain(LAMPS, "lamps.pddl");
  // The first lamp is broken and the door locked: switching it on, or
  // entering without unlocking, ignores a negative precondition.
  const problem = parseProblem(
    `(define (problem p) (:domain lamps) (:objects a b)
      (:init (lamp a) (lamp b) (broken a) (locked)) (:goal (done)))`,
    "p.pddl",
  );
  const world = new PddlWorld(domain, problem);
  const plan = planPddl(world)!;
  assert.deepEqual(plan.map(actionText), ["unlock", "enter", "switch-on b", "finish b"]);
  assert.ok(valid(world, plan));
  // A negative goal literal holds at the end too.
  const notInside = new PddlWorld(domain, {
    ...problem,
    init: problem.init.filter((a) => a.pred !== "locked"),
    goal: [{ pred: "done", args: [], negated: false }, {
      pred: "inside",
      args: [],
      negated: true,
    }],
  });
  assert.equal(planPddl(notInside), undefined, "nothing takes one outside again");
});

/** Equality and inequality preconditions, written as the parser writes `(= ?a ?b)`. */
function pairs(): PddlWorld {
  const domain: PddlDomain = {
    name: "pairs",
    types: {},
    constants: [],
    predicates: {
      at: [{ name: "?x", type: "object" }],
      twin: [{ name: "?x", type: "object" }],
      moved: [],
    },
    actions: [
      {
        name: "move",
        params: [{ name: "?from", type: "object" }, { name: "?to", type: "object" }],
        precondition: [
          { pred: "at", args: ["?from"], negated: false },
          { pred: "=", args: ["?from", "?to"], negated: true },
        ],
        add: [{ pred: "at", args: ["?to"] }, { pred: "moved", args: [] }],
        del: [{ pred: "at", args: ["?from"] }],
      },
      {
        name: "mirror",
        params: [{ name: "?x", type: "object" }, { name: "?y", type: "object" }],
        precondition: [
          { pred: "at", args: ["?x"], negated: false },
          { pred: "=", args: ["?x", "?y"], negated: false },
        ],
        add: [{ pred: "twin", args: ["?y"] }],
        del: [],
      },
    ],
    actionPredicates: [],
  };
  const problem: PddlProblem = {
    name: "p",
    domain: "pairs",
    objects: [{ name: "a", type: "object" }, { name: "b", type: "object" }],
    init: [{ pred: "at", args: ["a"] }],
    goal: [
      { pred: "moved", args: [], negated: false },
      { pred: "twin", args: ["b"], negated: false },
    ],
  };
  return new PddlWorld(domain, problem);
}

/** Whether the step's preconditions hold, reading `=` literals as tests of its arguments. */
function holdsWithEquality(step: GroundAction, state: ReadonlySet<string>): boolean {
  const binding = bindingOf(step);
  return step.action.precondition.every((l) => {
    if (l.pred !== "=") return state.has(groundAtom(l, binding)) !== l.negated;
    const [x, y] = l.args.map((a) => binding.get(a) ?? a);
    return (x === y) !== l.negated;
  });
}

Deno.test("planPddl() grounds equality and inequality preconditions as tests, not facts", () => {
  const world = pairs();
  const plan = planPddl(world)!;
  // "move a a" would be the first grounding without the inequality, and
  // "mirror a b" reaches (twin b) without the equality.
  assert.deepEqual(plan.map(actionText), ["move a b", "mirror b b"]);
  let state = world.initial();
  for (const step of plan) {
    assert.ok(holdsWithEquality(step, state), actionText(step));
    state = world.apply(step, state);
  }
  assert.ok(world.satisfied(state));
  // No plan exists when the only object to mirror is never reached.
  assert.equal(planPddl(world, world.initial(), { goal: ["twin c"] }), undefined);
});

/** Problems from domains with negative preconditions, dead ends, and several thousand ground actions. */
const SAMPLES = [
  ["pddlgym/blocks", "test/problem10.pddl"],
  ["pddlgym/depot", "test/pfile13.pddl"],
  ["pddlgym/hiking", "test/problem8.pddl"],
  ["pddlgym/rearrangement", "test/test_problem14.pddl"],
  ["pddlgym/sokoban", "test/task01.pddl"],
  ["pddlgym/travel", "test/problem9.pddl"],
  ["pg3/heavypack", "test/task13.pddl"],
  ["pg3/manygripper", "test/problem0.pddl"],
  ["pg3/spannerlearning", "test/problem0.pddl"],
  ["pg3/trapnewspapers", "test/problem8.pddl"],
];

dataTest("planPddl() finds valid plans on generalised-planning problems", async () => {
  for (const [domain, problem] of SAMPLES) {
    const world = await genplanWorld(domain, problem);
    const plan = planPddl(world);
    assert.ok(plan, `${domain}/${problem}: no plan`);
    assert.ok(valid(world, plan), `${domain}/${problem}: the plan is not valid`);
  }
});

dataTest("planPddl() is deterministic: same plan for the same problem and state", async () => {
  for (const [domain, problem] of SAMPLES.slice(0, 6)) {
    const world = await genplanWorld(domain, problem);
    const first = planPddl(world)!.map(actionText);
    // Again on the same world (its grounding cached), on a fresh world, and
    // from the initial state with its facts in another order.
    assert.deepEqual(planPddl(world)!.map(actionText), first, domain);
    const fresh = await genplanWorld(domain, problem);
    assert.deepEqual(planPddl(fresh)!.map(actionText), first, domain);
    const shuffled = new Set([...fresh.initial()].reverse());
    assert.deepEqual(planPddl(fresh, shuffled)!.map(actionText), first, domain);
    // A world planned from a later state first (so grounded from there)
    // plans as one grounded from the initial state.
    const other = await genplanWorld(domain, problem);
    const later = other.apply(other.parseAction(first[0])!, other.initial());
    const fromLater = planPddl(other, later)!.map(actionText);
    assert.deepEqual(planPddl(other)!.map(actionText), first, domain);
    assert.deepEqual(planPddl(fresh, later)!.map(actionText), fromLater, domain);
  }
});

dataTest("serialPlan() reaches a generalised-planning goal one condition at a time", async () => {
  const world = await genplanWorld("pddlgym/blocks", "train/problem1.pddl");
  const plan = serialPlan(world)!;
  assert.ok(valid(world, plan));
  // Each goal condition, once reached, stays reached.
  const goal = world.goal().map((g) => g.fact);
  let state = world.initial();
  const reached = new Set(goal.filter((f) => state.has(f)));
  for (const step of plan) {
    state = world.apply(step, state);
    for (const f of reached) assert.ok(state.has(f), `${f} undone by ${actionText(step)}`);
    for (const f of goal) if (state.has(f)) reached.add(f);
  }
});
