import assert from "node:assert/strict";
import { consistencyRegion, replaySegment } from "../../compiler/consistency.ts";
import { type Stmt, treeToSkill } from "../../compiler/program_tree.ts";
import type { Param } from "../../dsl/graph/schema.ts";
import type { Program } from "../../runtime/exec/program.ts";
import type { FactStore } from "../../runtime/fact_store.ts";
import { type AtomTuple, boxProgram, facts } from "./_induce_toy.ts";

const OBJECTS = { b1: "Box", b2: "Box", b3: "Box", x1: "Ball", x2: "Ball" };

function program(body: Stmt[], params: Param[] = []): Program {
  return boxProgram(
    treeToSkill({ name: "s", vocabulary: "boxes", params, doc: { summary: "" }, body }),
  );
}

/** States: each step adds the listed atoms to the previous state. */
function states(start: AtomTuple[], ...steps: AtomTuple[][]): FactStore[] {
  const out = [facts(OBJECTS, ...start)];
  let acc = [...start];
  for (const add of steps) {
    acc = [...acc, ...add];
    out.push(facts(OBJECTS, ...acc));
  }
  return out;
}

const act = (action: string, args: Record<string, string> = {}): Stmt => ({
  kind: "act",
  action,
  args,
});
const bind = (v: string, expr: string): Stmt => ({ kind: "bind", var: v, expr });
const BOX: Param[] = [{ name: "b", type: "Box" }];

// Go to box b, take the ball in it.
const GO_TAKE = [
  act("go", { b: "b" }),
  bind("x", "select_one(y: Ball, inside(b, y))"),
  act("take", { x: "x", b: "b" }),
];
const TAKE_STATES = states([["inside", "b1", "x1"]], [["visited", "b1"], ["at", "b1"]], [[
  "holds",
  "x1",
]]);

Deno.test("replaySegment() reproduces every expert action and ends in success right after the last", () => {
  const r = replaySegment(program(GO_TAKE, BOX), { b: "b1" }, {
    states: TAKE_STATES,
    actions: ["go to b1", "take x1 from b1"],
  });
  assert.deepEqual(r, { ok: true, matched: 2, replays: 1, decisions: [] });
});

Deno.test("replaySegment() names the generated and the expert's action at the first mismatch", () => {
  const p = program(GO_TAKE, BOX);
  const first = replaySegment(p, { b: "b2" }, {
    states: TAKE_STATES,
    actions: ["go to b1", "take x1 from b1"],
  });
  assert.deepEqual(first, {
    ok: false,
    matched: 0,
    reason: 'generated "go to b2" where the expert did "go to b1"',
    replays: 1,
    decisions: [],
  });
  const later = replaySegment(p, { b: "b1" }, {
    states: TAKE_STATES,
    actions: ["go to b1", "take x2 from b1"],
  });
  assert.equal(later.matched, 1);
  assert.equal(later.reason, 'generated "take x1 from b1" where the expert did "take x2 from b1"');
});

Deno.test("replaySegment() rejects a skill that succeeds before the expert is done", () => {
  const r = replaySegment(program([act("go", { b: "b" })], BOX), { b: "b1" }, {
    states: TAKE_STATES,
    actions: ["go to b1", "take x1 from b1"],
  });
  assert.equal(r.ok, false);
  assert.equal(r.matched, 1);
  assert.equal(r.reason, 'succeeded at "success" before expert action "take x1 from b1"');
});

Deno.test("replaySegment() rejects a skill that acts after the expert's last action", () => {
  const r = replaySegment(program(GO_TAKE, BOX), { b: "b1" }, {
    states: TAKE_STATES.slice(0, 2),
    actions: ["go to b1"],
  });
  assert.equal(r.ok, false);
  assert.equal(r.matched, 1);
  assert.equal(r.reason, `generated "take x1 from b1" after the expert's last action`);
});

Deno.test("replaySegment() reports a failure end and a failing expression as the reason", () => {
  const failing = program([act("go", { b: "b" }), { kind: "fail", message: "Gave up" }], BOX);
  const r = replaySegment(failing, { b: "b1" }, {
    states: TAKE_STATES,
    actions: ["go to b1", "take x1 from b1"],
  });
  assert.equal(r.matched, 1);
  assert.equal(r.reason, 'ended at failure node "fail": Gave up');
  // b2 holds no ball: the selection fails after the first action.
  const empty = replaySegment(program(GO_TAKE, BOX), { b: "b2" }, {
    states: states([], [["visited", "b2"]], []),
    actions: ["go to b2", "take x1 from b2"],
  });
  assert.equal(empty.ok, false);
  assert.equal(empty.matched, 1);
  assert.match(empty.reason ?? "", /select_one found no y: Ball with inside\(b, y\)/);
});

Deno.test("replaySegment() takes the select_one candidate the expert used even when it is not the first", () => {
  const p = program([bind("r", "select_one(b: Box, not visited(b))"), act("go", { b: "r" })]);
  for (const box of ["b3", "b2", "b1"]) {
    const r = replaySegment(p, {}, {
      states: states([], [["visited", box]]),
      actions: [`go to ${box}`],
    });
    assert.deepEqual(r, { ok: true, matched: 1, replays: 1, decisions: [] }, box);
  }
});

Deno.test("replaySegment() prefers a candidate named as a whole word even after a longer name containing it", () => {
  // The ball's id starts with the box's: "take b2x from b2" mentions b2 only at its end.
  const objects = { b1: "Box", b2: "Box", x1: "Ball", b2x: "Ball" };
  const s0 = facts(objects, ["inside", "b1", "x1"], ["inside", "b2", "b2x"]);
  const s1 = facts(objects, ["inside", "b1", "x1"], ["holds", "b2x"]);
  const p = program([
    bind("r", "select_one(b: Box, exists(y: Ball, inside(b, y)))"),
    bind("x", "select_one(y: Ball, inside(r, y))"),
    act("take", { x: "x", b: "r" }),
  ]);
  const r = replaySegment(p, {}, { states: [s0, s1], actions: ["take b2x from b2"] });
  assert.deepEqual(r, { ok: true, matched: 1, replays: 1, decisions: [] });
});

const SEARCH = [
  {
    kind: "loop",
    var: "x",
    over: "select_all(b: Box, not visited(b))",
    body: [act("go", { b: "x" })],
  } as Stmt,
];

Deno.test("replaySegment() follows the expert's order through an unordered loop", () => {
  const segment = {
    states: states([], [["visited", "b3"]], [["visited", "b1"]], [["visited", "b2"]]),
    actions: ["go to b3", "go to b1", "go to b2"],
  };
  assert.deepEqual(replaySegment(program(SEARCH), {}, segment), {
    ok: true,
    matched: 3,
    replays: 1,
    decisions: [],
  });
  // A loop that would go on after the expert stopped is not consistent.
  const short = replaySegment(program(SEARCH), {}, {
    states: segment.states.slice(0, 3),
    actions: segment.actions.slice(0, 2),
  });
  assert.equal(short.matched, 2);
  assert.equal(short.reason, `generated "go to b2" after the expert's last action`);
});

// Two open boxes, a ball in each; the choice of box shows only at the grab.
const OPEN_BOXES = states(
  [["is_open", "b1"], ["inside", "b1", "x1"], ["is_open", "b2"], ["inside", "b2", "x2"]],
  [],
  [["holds", "x2"]],
);
const WAIT_GRAB = [
  bind("r", "select_one(b: Box, is_open(b))"),
  act("wait"),
  bind("x", "select_one(y: Ball, inside(r, y))"),
  act("grab", { x: "x" }),
];

Deno.test("replaySegment() backtracks over a choice that leads to a mismatch later", () => {
  const r = replaySegment(program(WAIT_GRAB), {}, {
    states: OPEN_BOXES,
    actions: ["wait", "grab x2"],
  });
  assert.deepEqual(r, { ok: true, matched: 2, replays: 2, decisions: [] });
  // With a single run allowed the first choice stands and the replay gives up.
  const once = replaySegment(program(WAIT_GRAB), {}, {
    states: OPEN_BOXES,
    actions: ["wait", "grab x2"],
  }, {
    maxReplays: 1,
  });
  assert.deepEqual(once, {
    ok: false,
    matched: 1,
    reason: 'generated "grab x1" where the expert did "grab x2" (gave up after 1 replays)',
    replays: 1,
    decisions: [],
  });
  // When no choice works, every alternative is tried once and the best attempt is reported.
  const none = replaySegment(program(WAIT_GRAB), {}, {
    states: OPEN_BOXES,
    actions: ["wait", "grab x3"],
  });
  assert.deepEqual(none, {
    ok: false,
    matched: 1,
    reason: 'generated "grab x1" where the expert did "grab x3"',
    replays: 2,
    decisions: [],
  });
});

// Go to b; an open check (its condition still to be invented) guards `open b`.
const GO_OPEN_TAKE: Stmt[] = [
  act("go", { b: "b" }),
  { kind: "if", cond: "false", then: [act("open", { b: "b" })], else: [] },
  ...GO_TAKE.slice(1),
];
const OPENED = states(
  [["inside", "b1", "x1"], ["is_closed", "b1"]],
  [["visited", "b1"]],
  [["is_open", "b1"]],
  [["holds", "x1"]],
);

Deno.test("replaySegment() decides an open check as the expert did and records the decision", () => {
  const p = program(GO_OPEN_TAKE, BOX);
  const opened = { states: OPENED, actions: ["go to b1", "open b1", "take x1 from b1"] };
  const open = replaySegment(p, { b: "b1" }, opened, { openChecks: new Set(["check"]) });
  assert.deepEqual(open, {
    ok: true,
    matched: 3,
    replays: 1,
    decisions: [{ check: "check", value: true, position: 1, scope: { b: "b1" } }],
  });
  // The expert did not open: deciding yes fails, the replay backtracks to no.
  const closed = replaySegment(p, { b: "b1" }, {
    states: [OPENED[0], OPENED[1], OPENED[3]],
    actions: ["go to b1", "take x1 from b1"],
  }, { openChecks: new Set(["check"]) });
  assert.deepEqual(closed, {
    ok: true,
    matched: 2,
    replays: 2,
    decisions: [{ check: "check", value: false, position: 1, scope: { b: "b1" } }],
  });
  // Not open: the condition is evaluated (false), so the expert's open is a mismatch.
  for (const options of [{}, { openChecks: new Set(["other"]) }]) {
    const r = replaySegment(p, { b: "b1" }, opened, options);
    assert.equal(r.reason, 'generated "take x1 from b1" where the expert did "open b1"');
  }
});

Deno.test("replaySegment() records one decision per visit of an open check in a loop", () => {
  const p = program([{
    kind: "loop",
    var: "x",
    over: "select_all(b: Box, not visited(b))",
    body: [act("go", { b: "x" }), {
      kind: "if",
      cond: "false",
      then: [{ kind: "succeed" }],
      else: [],
    }],
  }]);
  const r = replaySegment(p, {}, {
    states: states([], [["visited", "b1"]], [["visited", "b2"]]),
    actions: ["go to b1", "go to b2"],
  }, { openChecks: new Set(["check"]) });
  assert.deepEqual(r, {
    ok: true,
    matched: 2,
    replays: 2,
    decisions: [
      { check: "check", value: false, position: 1, scope: { x: "b1" } },
      { check: "check", value: true, position: 2, scope: { x: "b2" } },
    ],
  });
});

Deno.test("consistencyRegion() lists the suffixes the skill reproduces to success", () => {
  const segment = { states: TAKE_STATES, actions: ["go to b1", "take x1 from b1"] };
  assert.deepEqual(consistencyRegion(program(GO_TAKE, BOX), { b: "b1" }, segment), [0]);
  // Going only when not there yet also reproduces the expert from where it stands at b1.
  const guarded = program([
    { kind: "if", cond: "not at(b)", then: [act("go", { b: "b" })], else: [] },
    ...GO_TAKE.slice(1),
  ], BOX);
  assert.deepEqual(consistencyRegion(guarded, { b: "b1" }, segment), [0, 1]);
  assert.deepEqual(consistencyRegion(guarded, { b: "b2" }, segment), []);
  assert.deepEqual(
    consistencyRegion(guarded, { b: "b1" }, { states: TAKE_STATES.slice(0, 1), actions: [] }),
    [],
  );
});
