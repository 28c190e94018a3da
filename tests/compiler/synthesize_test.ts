import assert from "node:assert/strict";
import { synthesizeProgram } from "../../compiler/synthesize.ts";
import { induceGroup } from "../../compiler/induce.ts";
import { groupSegments, type SegmentGroup } from "../../compiler/segment.ts";
import type { Stmt } from "../../compiler/program_tree.ts";
import {
  type AtomTuple,
  BOX_VOCAB,
  facts,
  firstInstance,
  handTrace,
  type StepSpec,
  takeStep,
} from "./_induce_toy.ts";

// Fetch the red ball from the box it is known to be in; the box is closed in
// the first trace (the expert opens it) and open in the second.
function instances() {
  const closed = handTrace(
    facts(
      { b1: "Box", b2: "Box", x1: "Ball", x9: "Ball" },
      ["inside", "b1", "x1"],
      ["color", "x1", "red"],
      ["is_closed", "b1"],
      ["inside", "b2", "x9"],
      ["color", "x9", "blue"],
    ),
    [
      { action: "go to b1", add: [["visited", "b1"]] },
      { action: "open b1", add: [["is_open", "b1"]], remove: [["is_closed", "b1"]] },
      takeStep("x1", "b1"),
    ],
  );
  const open = handTrace(
    facts(
      { c1: "Box", c2: "Box", y1: "Ball", y9: "Ball" },
      ["inside", "c2", "y9"],
      ["color", "y9", "blue"],
      ["is_closed", "c2"],
      ["inside", "c1", "y1"],
      ["color", "y1", "red"],
      ["is_open", "c1"],
    ),
    [{ action: "go to c1", add: [["visited", "c1"]] }, takeStep("y1", "c1")],
  );
  return [firstInstance(closed, 0), firstInstance(open, 1)];
}

Deno.test("synthesizeProgram() aligns two segments and guards the step only one takes with an invented predicate", () => {
  const { body, notes } = synthesizeProgram(instances(), undefined, { x_type: "Color" }, BOX_VOCAB);
  const box = body[1]?.kind === "bind" ? body[1].var : "";
  assert.match(box, /^b(_\d+)?$/);
  const expected: Stmt[] = [
    { kind: "bind", var: "ball", expr: "select_one(x: Ball, color(x, x_type))" },
    { kind: "bind", var: box, expr: "select_one(x: Box, inside(x, ball))" },
    { kind: "act", action: "go", args: { b: box } },
    {
      kind: "if",
      cond: `is_closed(${box})`,
      then: [{ kind: "act", action: "open", args: { b: box } }],
      else: [],
    },
    { kind: "act", action: "take", args: { x: "ball", b: box } },
    { kind: "succeed" },
  ];
  assert.deepEqual(body, expected);
  assert.ok(
    notes.includes(`branch (open): is_closed(${box}) [1 take it, 1 skip it]`),
    notes.join("\n"),
  );
});

Deno.test("synthesizeProgram() of one segment replays its steps with lifted arguments and no guard", () => {
  const [closed] = instances();
  const { body } = synthesizeProgram([closed], undefined, { x_type: "Color" }, BOX_VOCAB);
  const box = body[0]?.kind === "bind" ? body[0].var : "";
  assert.match(box, /^b(_\d+)?$/);
  // Alone, the closed box is the smallest selection that fits.
  assert.deepEqual(body, [
    { kind: "bind", var: box, expr: "select_one(x: Box, is_closed(x))" },
    { kind: "act", action: "go", args: { b: box } },
    { kind: "act", action: "open", args: { b: box } },
    { kind: "bind", var: "x", expr: "select_one(x: Ball, color(x, x_type))" },
    { kind: "act", action: "take", args: { b: box, x: "x" } },
    { kind: "succeed" },
  ]);
});

// Twenty segments take the red ball straight away; one waits first. `marks` are
// the facts about the box of each: what could explain the waiting.
function oneAmongTwenty(odd: AtomTuple[], others: (k: number) => AtomTuple[]) {
  const make = (k: number, marks: AtomTuple[], steps: StepSpec[]) =>
    firstInstance(
      handTrace(
        facts(
          { b1: "Box", x1: "Ball" },
          ["inside", "b1", "x1"],
          ["color", "x1", "red"],
          ...marks,
        ),
        steps,
        `trace ${k}`,
      ),
      k,
    );
  return [
    make(0, odd, [{ action: "wait" }, takeStep("x1", "b1")]),
    ...Array.from({ length: 20 }, (_, k) => make(k + 1, others(k), [takeStep("x1", "b1")])),
  ];
}

Deno.test("synthesizeProgram() believes a single literal that singles out one segment among twenty", () => {
  const insts = oneAmongTwenty([["is_closed", "b1"]], () => []);
  const { body, notes } = synthesizeProgram(insts, undefined, { x_type: "Color" }, BOX_VOCAB);
  const guard = body.find((s) => s.kind === "if");
  assert.ok(guard && guard.kind === "if", JSON.stringify(body));
  assert.match(guard.cond, /^(exists\(\w+: Box, )?is_closed\(\w+\)\)?$/);
  assert.ok(notes.some((n) => /\[1 take it, 20 skip it\]/.test(n)), notes.join("\n"));
});

Deno.test("synthesizeProgram() reports a conjunction that tells one segment from twenty others as weak", () => {
  // Visited and open both hold only where the expert waited; each alone holds elsewhere.
  const insts = oneAmongTwenty(
    [["visited", "b1"], ["is_open", "b1"]],
    (k) => k % 2 === 0 ? [["visited", "b1"]] : [["is_open", "b1"]],
  );
  const { body, weak } = synthesizeProgram(insts, undefined, { x_type: "Color" }, BOX_VOCAB);
  const guard = body.find((s) => s.kind === "if");
  assert.ok(guard && guard.kind === "if", JSON.stringify(body));
  assert.match(guard.cond, / and /);
  assert.deepEqual(weak, [{ cond: guard.cond, instance: 0 }]);
  // A single literal is no weak evidence.
  const literal = synthesizeProgram(
    oneAmongTwenty([["is_closed", "b1"]], () => []),
    undefined,
    { x_type: "Color" },
    BOX_VOCAB,
  );
  assert.deepEqual(literal.weak, []);
});

Deno.test("induction gives up a segment that only a weak guard would reproduce", () => {
  const group = (odd: AtomTuple[], others: (k: number) => AtomTuple[]): SegmentGroup => {
    const insts = oneAmongTwenty(odd, others);
    return groupSegments(insts.map((i) => i.segment), BOX_VOCAB)[0];
  };
  const weakly = induceGroup(
    group(
      [["visited", "b1"], ["is_open", "b1"]],
      (k) => k % 2 === 0 ? [["visited", "b1"]] : [["is_open", "b1"]],
    ),
    BOX_VOCAB,
  );
  assert.equal(weakly.segments, 21);
  assert.equal(weakly.covered, 20);
  assert.ok(!weakly.skill.nodes.some((n) => n.kind === "primitive" && n.action === "wait"));
  const clearly = induceGroup(group([["is_closed", "b1"]], () => []), BOX_VOCAB);
  assert.equal(clearly.covered, 21);
});
