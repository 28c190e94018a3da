import assert from "node:assert/strict";
import {
  classOf,
  countThreshold,
  deriveLandmarks,
  groupSegments,
  landmarkAt,
  liftedLandmark,
  type Segment,
  segmentTrace,
  segmentTraces,
  staticPredicates,
} from "../../compiler/segment.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { type AtomTuple, BOX_VOCAB, facts, handTrace, takeStep } from "./_induce_toy.ts";

// Landmarks of every kind: an add, an add with a `when` on the state before,
// a remove (no skill name), a numeric add that must go up, and one whose
// skill name is an action's.
const VOCAB: Vocabulary = {
  ...BOX_VOCAB,
  actions: {
    ...BOX_VOCAB.actions,
    put: {
      template: "put {x} in {b}",
      params: [{ name: "x", type: "Ball" }, { name: "b", type: "Box" }],
    },
    look: { template: "look", params: [] },
  },
  landmarks: [
    { pred: "holds", on: "add", skill: "fetch" },
    { pred: "inside", on: "add", when: "holds(a1)", skill: "place" },
    { pred: "is_closed", on: "remove" },
    { pred: "stock", on: "add", when: "a1 > count(a0)", skill: "gather" },
    { pred: "at", on: "add", skill: "go" },
  ],
};

const OBJECTS = { b1: "Box", b2: "Box", b3: "Box", x1: "Ball", x7: "Ball" };

Deno.test("landmarkAt() finds an atom a step really adds, in vocabulary order", () => {
  const g = handTrace(
    facts(OBJECTS, ["inside", "b2", "x1"], ["color", "x1", "red"], ["is_closed", "b2"]),
    [
      // Taking from a closed box also opens it: holds comes first in the vocabulary.
      { ...takeStep("x1", "b2"), remove: [["inside", "b2", "x1"], ["is_closed", "b2"]] },
      // Adding what already holds is no change.
      { action: "take x1 from b2", add: [["holds", "x1"]] },
      { action: "take x7 from b2", add: [["holds", "x7"]], rejected: "Nothing happens." },
    ],
  );
  assert.deepEqual(landmarkAt(g, 0, VOCAB), {
    decl: 0,
    declaration: VOCAB.landmarks![0],
    atom: { pred: "holds", args: ["x1"] },
  });
  assert.equal(landmarkAt(g, 1, VOCAB), undefined);
  // A rejected step is no landmark whatever its delta says.
  assert.equal(landmarkAt(g, 2, VOCAB), undefined);
});

Deno.test("landmarkAt() finds an atom a step really removes", () => {
  const g = handTrace(facts(OBJECTS, ["is_closed", "b1"]), [
    { action: "open b1", remove: [["is_closed", "b1"]], add: [["is_open", "b1"]] },
    { action: "open b3", remove: [["is_closed", "b3"]] },
  ]);
  assert.deepEqual(landmarkAt(g, 0, VOCAB), {
    decl: 2,
    declaration: VOCAB.landmarks![2],
    atom: { pred: "is_closed", args: ["b1"] },
  });
  // b3 was not closed: removing it changes nothing.
  assert.equal(landmarkAt(g, 1, VOCAB), undefined);
});

Deno.test("landmarkAt() checks the `when` condition on the atom's arguments before the step", () => {
  const g = handTrace(facts(OBJECTS, ["holds", "x1"]), [
    // Seeing a ball in a box is no placement: x7 was not held.
    { action: "go to b2", add: [["inside", "b2", "x7"]] },
    { action: "put x1 in b3", add: [["inside", "b3", "x1"]], remove: [["holds", "x1"]] },
    { action: "get 3 x1", add: [["stock", "x1", 3]] },
    // The stock goes down: no gathering.
    { action: "look", add: [["stock", "x1", 1]], remove: [["stock", "x1", 3]] },
  ]);
  assert.equal(landmarkAt(g, 0, VOCAB), undefined);
  assert.deepEqual(landmarkAt(g, 1, VOCAB), {
    decl: 1,
    declaration: VOCAB.landmarks![1],
    atom: { pred: "inside", args: ["b3", "x1"] },
  });
  assert.deepEqual(landmarkAt(g, 2, VOCAB), {
    decl: 3,
    declaration: VOCAB.landmarks![3],
    atom: { pred: "stock", args: ["x1", 3] },
  });
  assert.equal(landmarkAt(g, 3, VOCAB), undefined);
});

Deno.test("landmarkAt() names a landmark condition that does not parse", () => {
  const bad: Vocabulary = { ...VOCAB, landmarks: [{ pred: "holds", on: "add", when: "holds(" }] };
  const g = handTrace(facts(OBJECTS), [{ action: "look", add: [["holds", "x1"]] }]);
  assert.throws(() => landmarkAt(g, 0, bad), (e: unknown) => {
    assert.ok(e instanceof SyntaxError);
    assert.match(e.message, /^Landmark condition "holds\(": /);
    return true;
  });
});

// Find a red ball in b2 and take it (after a rejected step, place it in b3),
// then a step after the last landmark.
function fetchAndPlace() {
  return handTrace(facts(OBJECTS, ["inside", "b2", "x1"], ["color", "x1", "red"]), [
    { action: "go to b2", add: [["visited", "b2"]] },
    takeStep("x1", "b2"),
    { action: "go to b3", rejected: "Nothing happens." },
    { action: "go to b3", add: [["visited", "b3"]] },
    { action: "put x1 in b3", add: [["inside", "b3", "x1"]], remove: [["holds", "x1"]] },
    { action: "wait" },
  ], "fetch and place");
}

Deno.test("segmentTrace() cuts after each landmark step, skipping rejected steps and the tail", () => {
  const g = fetchAndPlace();
  const segments = segmentTrace(g, 4, VOCAB);
  assert.deepEqual(
    segments.map(({ trace, traceIndex, start, end, steps, landmark, signature }) => ({
      trace: trace === g,
      traceIndex,
      start,
      end,
      steps,
      landmark,
      signature,
    })),
    [
      {
        trace: true,
        traceIndex: 4,
        start: 0,
        end: 2,
        steps: [0, 1],
        landmark: {
          decl: 0,
          declaration: VOCAB.landmarks![0],
          atom: { pred: "holds", args: ["x1"] },
        },
        signature: "holds:add(x_type: Color)",
      },
      {
        trace: true,
        traceIndex: 4,
        start: 2,
        end: 5,
        steps: [3, 4],
        landmark: {
          decl: 1,
          declaration: VOCAB.landmarks![1],
          atom: { pred: "inside", args: ["b3", "x1"] },
        },
        signature: "inside:add(b: Box, x_type: Color)",
      },
    ],
  );
  // Objects are lifted to their class where it has one, else kept as themselves.
  assert.deepEqual(segments[0].params, [
    { name: "x_type", type: "Color", value: "red", arg: 0, classPred: "color" },
  ]);
  assert.deepEqual(segments[1].params, [
    { name: "b", type: "Box", value: "b3", arg: 0 },
    { name: "x_type", type: "Color", value: "red", arg: 1, classPred: "color" },
  ]);
});

Deno.test("segmentTrace() names a parameter after its declared type when the step's action does not mention it", () => {
  const g = handTrace(facts(OBJECTS), [{ action: "look", add: [["holds", "x7"]] }]);
  const [segment] = segmentTrace(g, 0, VOCAB);
  assert.equal(segment.signature, "holds:add(ball: Ball)");
  assert.deepEqual(segment.params, [{ name: "ball", type: "Ball", value: "x7", arg: 0 }]);
});

Deno.test("classOf() is the one value of a class predicate, if there is exactly one", () => {
  const f = facts(OBJECTS, ["color", "x1", "red"], ["color", "x7", "red"], ["color", "x7", "blue"]);
  assert.deepEqual(classOf("x1", f, VOCAB), { pred: "color", type: "Color", value: "red" });
  assert.equal(classOf("x7", f, VOCAB), undefined);
  assert.equal(classOf("b1", f, VOCAB), undefined);
});

/** Segments of several hand-made traces, in order. */
function allSegments(): Segment[] {
  const traces = [
    fetchAndPlace(),
    // A fetch of a blue ball: the same signature as the red one.
    handTrace(facts(OBJECTS, ["inside", "b1", "x7"], ["color", "x7", "blue"]), [
      takeStep("x7", "b1"),
    ]),
    // A ball without a class: kept as an object parameter.
    handTrace(facts(OBJECTS, ["inside", "b1", "x7"]), [takeStep("x7", "b1")]),
    handTrace(facts(OBJECTS, ["is_closed", "b1"]), [
      { action: "open b1", remove: [["is_closed", "b1"]] },
    ]),
    handTrace(facts(OBJECTS, ["color", "x1", "red"]), [
      { action: "get 2 x1", add: [["stock", "x1", 2]] },
    ]),
    handTrace(facts(OBJECTS), [{ action: "go to b1", add: [["at", "b1"]] }]),
  ];
  return traces.flatMap((g, i) => segmentTrace(g, i, VOCAB));
}

Deno.test("groupSegments() groups by signature, names each group and lifts its landmark", () => {
  const groups = groupSegments(allSegments(), VOCAB);
  assert.deepEqual(
    groups.map((g) => ({
      name: g.name,
      signature: g.signature,
      params: g.params,
      post: g.post,
      segments: g.segments.map((s) => `${s.traceIndex}:${s.start}-${s.end}`),
    })),
    [
      {
        name: "fetch",
        signature: "holds:add(x_type: Color)",
        params: [{ name: "x_type", type: "Color" }],
        post: "exists(v0: Ball, holds(v0) and color(v0, x_type))",
        segments: ["0:0-2", "1:0-1"],
      },
      {
        name: "place",
        signature: "inside:add(b: Box, x_type: Color)",
        params: [{ name: "b", type: "Box" }, { name: "x_type", type: "Color" }],
        post: "exists(v1: Ball, inside(b, v1) and color(v1, x_type))",
        segments: ["0:2-5"],
      },
      {
        // Same landmark, other parameter types: another skill.
        name: "fetch_2",
        signature: "holds:add(x: Ball)",
        params: [{ name: "x", type: "Ball" }],
        post: "holds(x)",
        segments: ["2:0-1"],
      },
      {
        // No skill name: the landmark action and predicate.
        name: "open_is_closed",
        signature: "is_closed:remove(b: Box)",
        params: [{ name: "b", type: "Box" }],
        post: "not is_closed(b)",
        segments: ["3:0-1"],
      },
      {
        // The amount, through the function read off the predicate: at least what
        // the segment reached and did not start at (no stock, then 2).
        name: "gather",
        signature: "stock:add(x_type: Color)",
        params: [{ name: "x_type", type: "Color" }],
        post: "exists(v0: Ball, count(v0) >= 1 and color(v0, x_type))",
        segments: ["4:0-1"],
      },
      {
        // "go" is an action: the skill takes another name.
        name: "go_2",
        signature: "at:add(b: Box)",
        params: [{ name: "b", type: "Box" }],
        post: "at(b)",
        segments: ["5:0-1"],
      },
    ],
  );
  assert.equal(groups[0].landmark, VOCAB.landmarks![0]);
});

Deno.test("liftedLandmark() writes the landmark over the segment's parameters", () => {
  const [fetch, place] = segmentTrace(fetchAndPlace(), 0, VOCAB);
  assert.equal(liftedLandmark(fetch, VOCAB), "exists(v0: Ball, holds(v0) and color(v0, x_type))");
  assert.equal(
    liftedLandmark(place, VOCAB),
    "exists(v1: Ball, inside(b, v1) and color(v1, x_type))",
  );
});

// Two balls put in a box, one at a time: the vocabulary declares no landmarks.
function putTwo(first: string, second: string) {
  return handTrace(
    facts(OBJECTS, ["color", first, "red"], ["color", second, "red"], ["is_open", "b1"]),
    [
      { action: `go to b1`, add: [["at", "b1"]] },
      { action: `take ${first} from b1`, add: [["holds", first]] },
      { action: `put ${first} in b3`, add: [["inside", "b3", first]], remove: [["holds", first]] },
      { action: `take ${second} from b1`, add: [["holds", second]] },
      {
        action: `put ${second} in b3`,
        add: [["inside", "b3", second]],
        remove: [["holds", second]],
      },
    ],
  );
}

Deno.test("deriveLandmarks() takes what the last step made true and nothing ever undoes", () => {
  const bare: Vocabulary = { ...VOCAB, landmarks: [] };
  const traces = [putTwo("x1", "x7")];
  // inside: added by the last step, never removed; holds: removed, so no landmark.
  assert.deepEqual(deriveLandmarks(traces, bare), [{ pred: "inside", on: "add" }]);
  const segments = segmentTraces(traces, bare);
  assert.deepEqual(segments.map((s) => [s.start, s.end]), [[0, 3], [3, 5]]);
});

Deno.test("staticPredicates() are those no step changes about an object known before it", () => {
  const traces = [putTwo("x1", "x7")];
  const stable = staticPredicates(traces, VOCAB);
  assert.ok(stable.has("color"));
  assert.ok(stable.has("is_open"));
  for (const p of ["at", "holds", "inside"]) assert.ok(!stable.has(p), p);
});

Deno.test("segmentTraces() keeps a landmark object known at the segment's start when its class repeats", () => {
  const bare: Vocabulary = { ...VOCAB, landmarks: [{ pred: "inside", on: "add", skill: "place" }] };
  const segments = segmentTraces([putTwo("x1", "x7")], bare);
  // Two red balls go to b3 in one trace: the class would not tell the calls apart.
  assert.deepEqual(segments.map((s) => s.params.map((p) => [p.name, p.type, p.value])), [
    [["x", "Ball", "x1"]],
    [["x", "Ball", "x7"]],
  ]);
  // b3 is described by no fact that never changes: the skill chooses it.
  assert.match(segments[0].signature, /some Box/);
});

Deno.test("countThreshold() is the least count every segment ends at or above and none starts at", () => {
  const gather = (start: number | undefined, end: number, i: number) =>
    segmentTrace(
      handTrace(
        facts(
          OBJECTS,
          ["color", "x1", "red"],
          ...(start ? [["stock", "x1", start] as AtomTuple] : []),
        ),
        [{
          action: `get ${end - (start ?? 0)} x1`,
          add: [["stock", "x1", end]],
          remove: start ? [["stock", "x1", start]] : [],
        }],
      ),
      i,
      VOCAB,
    );
  // From 2 to 6 and from nothing to 4: more than 2 is what all of them achieved.
  const both = [...gather(2, 6, 0), ...gather(undefined, 4, 1)];
  assert.equal(countThreshold(both, VOCAB), 3);
  assert.equal(
    groupSegments(both, VOCAB)[0].post,
    "exists(v0: Ball, count(v0) >= 3 and color(v0, x_type))",
  );
  // A segment that starts where another ends: no count separates them.
  assert.equal(countThreshold([...gather(4, 6, 0), ...gather(undefined, 4, 1)], VOCAB), undefined);
  assert.equal(
    groupSegments([...gather(4, 6, 0), ...gather(undefined, 4, 1)], VOCAB)[0].post,
    "exists(v0: Ball, count(v0) > 0 and color(v0, x_type))",
  );
});
