// World-model look-ahead on a small domain of its own: rooms linked by
// corridors, keys lying in rooms, doors that open with the key that fits.
import assert from "node:assert/strict";
import type { Atom, FactView } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { ACTION_MODEL_FORMAT } from "../../runtime/action_model_data.ts";
import type { Environment, Grounder, StepResult } from "../../runtime/environment.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { runSkill } from "../../runtime/exec/interpreter.ts";
import { formatEvent } from "../../runtime/exec/format_events.ts";
import { lookaheadPlan, lookaheadTo } from "../../runtime/learn/lookahead.ts";
import { compileSkill } from "../../runtime/exec/program.ts";

const vocab: Vocabulary = {
  name: "keys",
  types: { Room: { kind: "object" }, Key: { kind: "object" }, Door: { kind: "object" } },
  predicates: {
    at: { params: ["Room"] },
    link: { params: ["Room", "Room"] },
    lies: { params: ["Key", "Room"] },
    has: { params: ["Key"] },
    fits: { params: ["Key", "Door"] },
    door_in: { params: ["Door", "Room"] },
    opened: { params: ["Door"] },
  },
  functions: {},
  actions: {
    walk: {
      template: "walk {from} {to}",
      params: [{ name: "from", type: "Room" }, { name: "to", type: "Room" }],
    },
    take: {
      template: "take {k} {r}",
      params: [{ name: "k", type: "Key" }, { name: "r", type: "Room" }],
    },
    open: {
      template: "open {d} {k} {r}",
      params: [{ name: "d", type: "Door" }, { name: "k", type: "Key" }, {
        name: "r",
        type: "Room",
      }],
    },
  },
};

const rules = {
  walk: { pre: ["at(from)", "link(from, to)"], add: ["at(to)"], remove: ["at(from)"] },
  take: { pre: ["at(r)", "lies(k, r)"], add: ["has(k)"], remove: ["lies(k, r)"] },
  open: {
    pre: ["at(r)", "door_in(d, r)", "fits(k, d)", "has(k)", "not opened(d)"],
    add: ["opened(d)"],
    remove: [],
  },
};

/** A model of `vocabulary` stating each action's rules (confirmed or not) and effects. */
function modelOf(
  vocabulary: Vocabulary,
  entries: Record<string, { pre: string[]; add: string[]; remove: string[] }>,
  confirmed = true,
): ActionModel {
  return ActionModel.fromJSON({
    format: ACTION_MODEL_FORMAT,
    vocabulary: vocabulary.name,
    actions: Object.fromEntries(
      Object.entries(entries).map(([name, r]) => [name, {
        successes: 0,
        failures: 0,
        observed: 1,
        rules: r.pre.map((text) => ({ text, confirmed, covers: 0 })),
        effects: { add: r.add, remove: r.remove },
      }]),
    ),
  }, vocabulary);
}

const model = modelOf(vocab, rules);

const objects = {
  hall: "Room",
  corridor: "Room",
  cellar: "Room",
  k1: "Key",
  k2: "Key",
  d1: "Door",
};
const atom = (pred: string, ...args: string[]): Atom => ({ pred, args });

function house(): FactStore {
  return new FactStore([
    atom("at", "hall"),
    atom("link", "hall", "corridor"),
    atom("link", "corridor", "hall"),
    atom("link", "corridor", "cellar"),
    atom("link", "cellar", "corridor"),
    atom("lies", "k1", "cellar"),
    atom("lies", "k2", "corridor"),
    atom("fits", "k1", "d1"),
    atom("door_in", "d1", "hall"),
  ], objects);
}

Deno.test("lookaheadPlan() fetches what an action needs, as the action model predicts it", () => {
  const facts = house();
  const plan = lookaheadPlan(model, facts, "open d1 k1 hall");
  assert.deepEqual(plan, [
    "walk hall corridor",
    "walk corridor cellar",
    "take k1 cellar",
    "walk cellar corridor",
    "walk corridor hall",
  ]);
  // The facts searched from are not changed.
  assert.ok(facts.has(atom("at", "hall")));
  // Nothing to do when the preconditions hold; nothing found when they cannot.
  assert.deepEqual(lookaheadPlan(model, facts, "walk hall corridor"), []);
  const keyless = house();
  keyless.remove(atom("lies", "k1", "cellar"));
  assert.equal(lookaheadPlan(model, keyless, "open d1 k1 hall"), undefined);
  // Within the limits only.
  assert.equal(lookaheadPlan(model, facts, "open d1 k1 hall", { maxLength: 3 }), undefined);
  // An action the model does not know is allowed as it is: nothing to plan.
  assert.deepEqual(lookaheadPlan(model, facts, "dance"), []);
});

/** The house as an environment: it applies the same rules and reports its facts. */
class House implements Environment {
  readonly name = "house";
  readonly vocabulary = vocab;
  facts = house();
  sent: string[] = [];
  reset() {
    this.facts = house();
    return Promise.resolve({
      observation: JSON.stringify(this.facts.atoms()),
      goal: "open d1",
      taskId: "house",
    });
  }
  step(action: string): Promise<StepResult> {
    this.sent.push(action);
    const ok = model.unmet(this.facts, action).length === 0;
    if (ok) this.facts.apply(model.predict(this.facts, action)!);
    return Promise.resolve({
      observation: ok ? JSON.stringify(this.facts.atoms()) : "Nothing happens.",
      reward: this.facts.has(atom("opened", "d1")) ? 1 : 0,
      done: this.facts.has(atom("opened", "d1")),
    });
  }
}

const grounder: Grounder = {
  initial: (observation: string) => ({
    delta: { add: JSON.parse(observation), remove: [], objects },
  }),
  step(facts: FactView, _action: string, observation: string) {
    if (!observation.startsWith("[")) {
      return { delta: { add: [], remove: [] }, rejected: observation };
    }
    const now = new FactStore(JSON.parse(observation), objects);
    return {
      delta: {
        add: now.atoms().filter((a) => !facts.has(a)),
        remove: (facts as FactStore).atoms().filter((a) => !now.has(a)),
      },
    };
  },
};

Deno.test("runSkill() with look-ahead sends the plan an action needs, then the action", async () => {
  const compiled = compileSkill({
    format: "skillc/skill@1",
    name: "open_door",
    vocabulary: "keys",
    params: [],
    doc: { summary: "Open the door of the hall." },
    entry: "open",
    nodes: [
      {
        id: "open",
        kind: "primitive",
        action: "open",
        args: { d: "'d1'", k: "'k1'", r: "'hall'" },
      },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "open", to: "ok", label: "next" }],
  }, vocab);
  assert.ok(compiled.ok);
  for (const withLookahead of [true, false]) {
    const env = new House();
    const reset = await env.reset();
    const facts = new FactStore();
    facts.apply(grounder.initial(reset.observation, reset.goal).delta);
    const run = runSkill(compiled.value, {}, {
      env,
      grounder,
      facts,
      actionModel: model,
      ...(withLookahead ? { lookahead: (f, a) => lookaheadPlan(model, f, a) } : {}),
    });
    const acts: string[] = [];
    let r = await run.next();
    for (; !r.done; r = await run.next()) {
      if (r.value.type === "act") acts.push(`${r.value.lookahead ? "+" : ""}${r.value.action}`);
    }
    if (withLookahead) {
      assert.equal(r.value.outcome, "success");
      assert.equal(
        formatEvent({
          type: "act",
          skill: "open_door",
          depth: 0,
          node: "open",
          action: "walk hall corridor",
          lookahead: true,
        }),
        "[open_door] ahead  open: walk hall corridor (look-ahead, for the node's action)",
      );
      assert.equal(r.value.actions, 6);
      assert.deepEqual(acts, [
        "+walk hall corridor",
        "+walk corridor cellar",
        "+take k1 cellar",
        "+walk cellar corridor",
        "+walk corridor hall",
        "open d1 k1 hall",
      ]);
    } else {
      // Without it the action is sent as it is, and rejected.
      assert.equal(r.value.outcome, "failure");
      assert.deepEqual(env.sent, ["open d1 k1 hall"]);
    }
  }
});

// Many vehicles, many places: every flight is applicable, few lead anywhere.
const fleet: Vocabulary = {
  name: "fleet",
  types: { Plane: { kind: "object" }, Port: { kind: "object" }, Parcel: { kind: "object" } },
  predicates: {
    at: { params: ["Plane", "Port"] },
    lies: { params: ["Parcel", "Port"] },
    in_: { params: ["Parcel", "Plane"] },
  },
  functions: {},
  actions: {
    fly: {
      template: "fly {p} {from} {to}",
      params: [{ name: "p", type: "Plane" }, { name: "from", type: "Port" }, {
        name: "to",
        type: "Port",
      }],
    },
    load: {
      template: "load {c} {p} {at}",
      params: [{ name: "c", type: "Parcel" }, { name: "p", type: "Plane" }, {
        name: "at",
        type: "Port",
      }],
    },
    unload: {
      template: "unload {c} {p} {at}",
      params: [{ name: "c", type: "Parcel" }, { name: "p", type: "Plane" }, {
        name: "at",
        type: "Port",
      }],
    },
  },
};

function fleetModel(confirmed: boolean): ActionModel {
  const entries = {
    fly: { pre: ["at(p, from)"], add: ["at(p, to)"], remove: ["at(p, from)"] },
    load: { pre: ["at(p, at)", "lies(c, at)"], add: ["in_(c, p)"], remove: ["lies(c, at)"] },
    unload: { pre: ["at(p, at)", "in_(c, p)"], add: ["lies(c, at)"], remove: ["in_(c, p)"] },
  };
  return modelOf(fleet, entries, confirmed);
}

function airports(): FactStore {
  const objects: Record<string, string> = { box: "Parcel" };
  const atoms: Atom[] = [atom("lies", "box", "port3")];
  for (let i = 0; i < 10; i++) objects[`port${i}`] = "Port";
  for (let i = 0; i < 12; i++) {
    objects[`plane${i}`] = "Plane";
    // No plane where the parcel lies.
    atoms.push(atom("at", `plane${i}`, `port${i % 3 === 0 ? 9 : i % 10}`));
  }
  return new FactStore(atoms, objects);
}

Deno.test("lookaheadTo() expands first the actions its relaxed plan needs (helpful actions)", () => {
  const facts = airports();
  const goal = [atom("lies", "box", "port7")];
  const done = (f: FactView) => goal.every((a) => f.has(a));
  // About a hundred flights are applicable in every state; only those to
  // the parcel's port help. Within 8 expansions the search still finds a
  // plane to fetch the parcel and take it where the goal asks.
  const plan = lookaheadTo(fleetModel(true), facts, goal, done, { maxNodes: 8 });
  assert.ok(plan, "a plan within 8 expansions");
  assert.equal(plan.length, 4);
  assert.match(plan[0], /^fly plane\d+ port\d port3$/);
  const plane = plan[0].split(" ")[1];
  assert.deepEqual(plan.slice(1), [
    `load box ${plane} port3`,
    `fly ${plane} port3 port7`,
    `unload box ${plane} port7`,
  ]);
});

Deno.test("assumingHypotheses() plans with what held before every use, as rules", () => {
  const learned = fleetModel(false);
  const assumed = learned.assumingHypotheses();
  // Hypotheses alone say nothing of what an action needs...
  assert.ok(learned.schemas().every((s) => s.pre.length === 0));
  assert.deepEqual(learned.unmet(airports(), "load box plane1 port3"), []);
  // ...taken for rules, they do, and a plan is found with them.
  assert.deepEqual(assumed.unmet(airports(), "load box plane1 port3"), ["at('plane1', 'port3')"]);
  assert.deepEqual(assumed.schemas().find((s) => s.action === "fly")?.pre, [
    { pred: "at", args: [{ param: "p" }, { param: "from" }] },
  ]);
  const goal = [atom("lies", "box", "port7")];
  const plan = lookaheadTo(assumed, airports(), goal, (f) => goal.every((a) => f.has(a)));
  assert.equal(plan?.length, 4);
  // The same view each time; the learned model itself unchanged.
  assert.equal(learned.assumingHypotheses(), assumed);
  assert.equal(learned.rules("fly")[0].confirmed, false);
});

Deno.test("assumingConsumed() keeps only the hypotheses an action's effects vouch for", () => {
  const learned = fleetModel(false);
  const consumed = learned.assumingConsumed();
  // load removes lies(c, at): that it needs; at(p, at) merely held (a plane
  // was always there), so this view does not ask for it.
  assert.deepEqual(consumed.unmet(airports(), "load box plane1 port3"), []);
  assert.deepEqual(consumed.unmet(airports(), "load box plane1 port4"), [
    "lies('box', 'port4')",
  ]);
  assert.deepEqual(learned.assumingHypotheses().unmet(airports(), "load box plane1 port4"), [
    "at('plane1', 'port4')",
    "lies('box', 'port4')",
  ]);
  assert.deepEqual(consumed.schemas().find((s) => s.action === "fly")?.pre, [
    { pred: "at", args: [{ param: "p" }, { param: "from" }] },
  ]);
  assert.equal(learned.assumingConsumed(), consumed);
  assert.equal(learned.rules("load")[0].confirmed, false);
});

Deno.test("lookaheadTo() copes with a relaxed layer of hundreds of thousands of bindings", () => {
  // Every pair of 400 nodes can be linked, then marked: the second layer
  // binds `mark` to each of the 160,000 links the first one added (which
  // overflowed the stack when they were spread into one call).
  const web: Vocabulary = {
    name: "web",
    types: { Node: { kind: "object" } },
    predicates: {
      node: { params: ["Node"] },
      linked: { params: ["Node", "Node"] },
      marked: { params: ["Node", "Node"] },
    },
    functions: {},
    actions: {
      link: {
        template: "link {a} {b}",
        params: [{ name: "a", type: "Node" }, { name: "b", type: "Node" }],
      },
      mark: {
        template: "mark {a} {b}",
        params: [{ name: "a", type: "Node" }, { name: "b", type: "Node" }],
      },
    },
  };
  const webModel = modelOf(web, {
    link: { pre: ["node(a)", "node(b)"], add: ["linked(a, b)"], remove: [] },
    mark: { pre: ["linked(a, b)"], add: ["marked(a, b)"], remove: [] },
  });
  const names = Array.from({ length: 400 }, (_, i) => `n${i}`);
  const facts = new FactStore(
    names.map((n) => atom("node", n)),
    Object.fromEntries(names.map((n) => [n, "Node"])),
  );
  const goal = [atom("marked", "n1", "n2")];
  // One expansion: the search gives up, as it should, rather than throw.
  const plan = lookaheadTo(webModel, facts, goal, (f) => goal.every((a) => f.has(a)), {
    maxNodes: 1,
  });
  assert.equal(plan, undefined);
});

Deno.test("lookaheadTo() keeps a relaxed graph that reached no plan, per state and model", () => {
  // The model's schemas, counted each time a relaxed graph or an expansion
  // reads them.
  let reads = 0;
  const counted = (m: ActionModel) => {
    const schemas = new Proxy(m.schemas(), {
      get(target, key, receiver) {
        if (key === Symbol.iterator) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    return {
      vocab: m.vocab,
      unmet: (f: FactView, a: string) => m.unmet(f, a),
      predict: (f: FactView, a: string) => m.predict(f, a),
      schemas: () => schemas,
    };
  };
  const keys = counted(model);
  // No key that fits the door: no plan opens it.
  const keyless = house();
  keyless.remove(atom("lies", "k1", "cellar"));
  const opened = [atom("opened", "d1")];
  const holds = (goal: Atom[]) => (f: FactView) => goal.every((a) => f.has(a));
  assert.equal(lookaheadTo(keys, keyless, opened, holds(opened)), undefined);
  const first = reads;
  assert.ok(first > 0);
  // Asked again from the same state: the kept graph answers, and a shared
  // budget is charged the one expansion the search would have made.
  const shared = { nodes: 5 };
  assert.equal(lookaheadTo(keys, house2(keyless), opened, holds(opened), { shared }), undefined);
  assert.equal(reads, first);
  assert.equal(shared.nodes, 4);
  // An atom the graph reached is searched for as before.
  const taken = [atom("has", "k2")];
  assert.deepEqual(lookaheadTo(keys, keyless, taken, holds(taken)), [
    "walk hall corridor",
    "take k2 corridor",
  ]);
  // Another model (any key opens any door) searches afresh from that state.
  const anyKey = modelOf(vocab, {
    ...rules,
    open: { ...rules.open, pre: ["at(r)", "door_in(d, r)", "has(k)", "not opened(d)"] },
  });
  assert.deepEqual(lookaheadTo(anyKey, keyless, opened, holds(opened)), [
    "walk hall corridor",
    "take k2 corridor",
    "walk corridor hall",
    "open d1 k2 hall",
  ]);
});

/** A copy of `facts`: the same state in another store. */
function house2(facts: FactStore): FactStore {
  return new FactStore(facts.atoms(), objects);
}
