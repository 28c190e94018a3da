import assert from "node:assert/strict";
import type { Instance, Item, StepRef } from "../../compiler/instances.ts";
import {
  foldInstance,
  planLoop,
  relatedElement,
  splitIterations,
} from "../../compiler/operators/loop_fold.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { BOX_VOCAB, facts, firstInstance, goStep, handTrace, takeStep } from "./_induce_toy.ts";

/** A step reference from an action text of the box vocabulary (index = position). */
function ref(index: number, text: string): StepRef {
  const [verb, ...rest] = text.split(" ");
  const args: Record<string, string> = {};
  if (verb === "go") args.b = rest[1];
  else if (verb === "open") args.b = rest[0];
  else if (verb === "take") Object.assign(args, { x: rest[0], b: rest[2] });
  else if (verb === "put") Object.assign(args, { x: rest[0], b: rest[2] });
  return { index, action: verb, args, text };
}

function refs(...texts: string[]): StepRef[] {
  return texts.map((t, i) => ref(i, t));
}

const texts = (steps: StepRef[]) => steps.map((s) => s.text);

Deno.test("splitIterations() cuts a prefix, one iteration per head, and a suffix after the last", () => {
  const steps = refs(
    "look",
    "go to b1",
    "open b1",
    "go to b2",
    "open b2",
    "take x1 from b2",
    "open b9",
    "put x1 in b9",
  );
  const split = splitIterations(steps, "go", "b");
  assert.deepEqual(texts(split.prefix), ["look"]);
  assert.deepEqual(split.iterations.map(texts), [
    ["go to b1", "open b1"],
    // The last iteration keeps only the steps on its object.
    ["go to b2", "open b2", "take x1 from b2"],
  ]);
  assert.deepEqual(texts(split.suffix), ["open b9", "put x1 in b9"]);
});

Deno.test("splitIterations() keeps in the last iteration the steps on objects first seen during it", () => {
  const steps = refs("go to b1", "go to b2", "take x1 from b2", "put x1 in b9", "open b7");
  // By default every object counts as seen before: the put (no b2) starts the suffix.
  assert.deepEqual(texts(splitIterations(steps, "go", "b").suffix), ["put x1 in b9", "open b7"]);
  // x1 was first seen during the last iteration (its search found it): the put belongs to it.
  const seen: string[] = [];
  const split = splitIterations(steps, "go", "b", (object, head) => {
    seen.push(`${object}@${head.text}`);
    return object !== "x1";
  });
  assert.deepEqual(split.iterations.map(texts), [
    ["go to b1"],
    ["go to b2", "take x1 from b2", "put x1 in b9"],
  ]);
  assert.deepEqual(texts(split.suffix), ["open b7"]);
  // Objects are judged as of the head of the last iteration.
  assert.ok(seen.every((s) => s.endsWith("@go to b2")), seen.join("; "));
});

Deno.test("splitIterations() without the head gives the whole sequence as prefix", () => {
  const steps = refs("open b1", "take x1 from b1");
  assert.deepEqual(splitIterations(steps, "go", "b"), {
    prefix: steps,
    iterations: [],
    suffix: [],
    elements: [],
  });
  const one = splitIterations(refs("go to b1"), "go", "b");
  assert.deepEqual(one.iterations.map(texts), [["go to b1"]]);
  assert.deepEqual([one.prefix, one.suffix], [[], []]);
});

// Two searches over unexplored boxes: the first box is empty in one, holds a
// ball of another colour in the other; the search ends with the red ball.
function searchA(): Instance {
  const g = handTrace(facts({ b1: "Box", b2: "Box", b3: "Box" }), [
    goStep("b1"),
    goStep("b2", [["inside", "b2", "x1"], ["color", "x1", "red"]], { x1: "Ball" }),
    takeStep("x1", "b2"),
  ], "search A");
  return firstInstance(g, 0);
}

function searchB(): Instance {
  const g = handTrace(facts({ c1: "Box", c2: "Box", c3: "Box" }), [
    goStep("c1", [["inside", "c1", "y1"], ["color", "y1", "blue"]], { y1: "Ball" }),
    goStep("c2"),
    goStep("c3", [["inside", "c3", "y2"], ["color", "y2", "red"]], { y2: "Ball" }),
    takeStep("y2", "c3"),
  ], "search B");
  return firstInstance(g, 1);
}

/** Items as text: a step's action, or `loop[iteration | iteration]` with `!` when it exits. */
function showItems(items: readonly Item[]): string[] {
  return items.map((it) =>
    it.kind === "step"
      ? it.step.text
      : `loop ${it.head}/${it.role}${it.exits ? "!" : ""}[${
        it.iterations.map((i) => i.map((s) => s.text).join(", ")).join(" | ")
      }]`
  );
}

Deno.test("planLoop() finds a search loop over the boxes not yet visited", () => {
  const a = searchA();
  const b = searchB();
  assert.deepEqual(a.args, { x_type: "red" });
  const plan = planLoop([a, b], BOX_VOCAB, { x_type: "Color" });
  assert.deepEqual(plan, {
    head: "go",
    role: "b",
    var: "b",
    type: "Box",
    pre: [],
    over: "select_all(x: Box, not visited(x))",
  });
});

Deno.test("planLoop() names the loop variable apart from the parameters", () => {
  const plan = planLoop([searchA(), searchB()], BOX_VOCAB, { x_type: "Color", b: "Box" });
  assert.equal(plan?.var, "b_i");
  const both = planLoop([searchA(), searchB()], BOX_VOCAB, { b: "Box", b_i: "Box" });
  assert.equal(both?.var, "b_i2");
});

Deno.test("planLoop() finds no loop when no action repeats over different objects", () => {
  const g = handTrace(facts({ b1: "Box" }, ["inside", "b1", "x1"], ["color", "x1", "red"]), [
    goStep("b1"),
    takeStep("x1", "b1"),
  ]);
  assert.equal(planLoop([firstInstance(g, 0)], BOX_VOCAB, { x_type: "Color" }), undefined);
});

Deno.test("foldInstance() folds every iteration of a search into one loop that exits", () => {
  const a = searchA();
  const b = searchB();
  const plan = planLoop([a, b], BOX_VOCAB, { x_type: "Color" })!;
  assert.deepEqual(showItems(foldInstance(a, plan, BOX_VOCAB).items), [
    "loop go/b![go to b1 | go to b2, take x1 from b2]",
  ]);
  const folded = foldInstance(b, plan, BOX_VOCAB);
  assert.deepEqual(showItems(folded.items), [
    "loop go/b![go to c1 | go to c2 | go to c3, take y2 from c3]",
  ]);
  // The instance keeps its segment and arguments.
  assert.equal(folded.segment, b.segment);
  assert.deepEqual(folded.args, b.args);
});

Deno.test("foldInstance() leaves a single action aimed at a known object unfolded", () => {
  const plan = planLoop([searchA(), searchB()], BOX_VOCAB, { x_type: "Color" })!;
  // d1 was visited before: the expert goes straight back to the ball it saw there.
  const known = handTrace(
    facts(
      { d1: "Box", d2: "Box", z1: "Ball" },
      ["visited", "d1"],
      ["inside", "d1", "z1"],
      ["color", "z1", "red"],
    ),
    [{ action: "go to d1" }, takeStep("z1", "d1")],
  );
  const inst = firstInstance(known, 2);
  const out = foldInstance(inst, plan, BOX_VOCAB);
  assert.equal(out, inst);
  assert.deepEqual(showItems(out.items), ["go to d1", "take z1 from d1"]);
});

Deno.test("foldInstance() folds a single visit of an unexplored box (a search that found at once)", () => {
  const plan = planLoop([searchA(), searchB()], BOX_VOCAB, { x_type: "Color" })!;
  const g = handTrace(facts({ e1: "Box", e2: "Box" }), [
    goStep("e1", [["inside", "e1", "z2"], ["color", "z2", "red"]], { z2: "Ball" }),
    takeStep("z2", "e1"),
  ]);
  assert.deepEqual(showItems(foldInstance(firstInstance(g, 3), plan, BOX_VOCAB).items), [
    "loop go/b![go to e1, take z2 from e1]",
  ]);
});

Deno.test("foldInstance() keeps a visit of a known box before the search as a plain step", () => {
  const plan = planLoop([searchA(), searchB()], BOX_VOCAB, { x_type: "Color" })!;
  const g = handTrace(facts({ e1: "Box", e2: "Box" }, ["visited", "e1"]), [
    goStep("e1"),
    goStep("e2", [["inside", "e2", "z3"], ["color", "z3", "red"]], { z3: "Ball" }),
    takeStep("z3", "e2"),
    { action: "wait" },
  ]);
  // The wait comes after the landmark: it is not part of the segment.
  assert.deepEqual(showItems(foldInstance(firstInstance(g, 4), plan, BOX_VOCAB).items), [
    "go to e1",
    "loop go/b![go to e2, take z3 from e2]",
  ]);
});

Deno.test("foldInstance() marks a loop followed by more steps as not exiting", () => {
  const plan = planLoop([searchA(), searchB()], BOX_VOCAB, { x_type: "Color" })!;
  const g = handTrace(
    facts({ f1: "Box", f2: "Box", f3: "Box", z4: "Ball" }, ["inside", "f3", "z4"], [
      "color",
      "z4",
      "red",
    ]),
    [goStep("f1"), goStep("f2"), { action: "open f3" }, takeStep("z4", "f3")],
  );
  assert.deepEqual(showItems(foldInstance(firstInstance(g, 5), plan, BOX_VOCAB).items), [
    "loop go/b[go to f1 | go to f2]",
    "open f3",
    "take z4 from f3",
  ]);
});

Deno.test("splitIterations() starts an iteration at another action on a new element, related or not", () => {
  // Go to b1 and open it (the alternate on the same box stays in its iteration),
  // then open b2 (the alternate on a new box starts one).
  const steps = refs("go to b1", "open b1", "take x1 from b1", "open b2", "take x2 from b2");
  const split = splitIterations(steps, "go", "b", () => true, { open: "b" });
  assert.deepEqual(split.iterations.map(texts), [
    ["go to b1", "open b1", "take x1 from b1"],
    ["open b2", "take x2 from b2"],
  ]);
  assert.deepEqual(split.elements, ["b1", "b2"]);
  // An element found through a relation: "b9" stands for the list's "b2".
  const related = splitIterations(
    refs("go to b1", "open b9"),
    "go",
    "b",
    () => true,
    { open: "b" },
    (_step, object) => object === "b9" ? "b2" : object,
  );
  assert.deepEqual(related.elements, ["b1", "b2"]);
});

Deno.test("relatedElement() maps an object to the one untaken list element a fact links it to", () => {
  const facts = new FactStore(
    [{ pred: "inside", args: ["b2", "x7"] }],
    { b1: "Box", b2: "Box", x7: "Ball" },
  );
  assert.equal(relatedElement(["b1", "b2"], facts, "b1", BOX_VOCAB, new Set()), "b1");
  assert.equal(relatedElement(["b1", "b2"], facts, "x7", BOX_VOCAB, new Set()), "b2");
  // Taken already, or no link: the object stays itself.
  assert.equal(relatedElement(["b1", "b2"], facts, "x7", BOX_VOCAB, new Set(["b2"])), "x7");
  assert.equal(relatedElement(["b1"], facts, "x7", BOX_VOCAB, new Set()), "x7");
});
