import assert from "node:assert/strict";
import { induceGroup, measure, skillSize } from "../../compiler/induce.ts";
import { groupSegments, type SegmentGroup, segmentTrace } from "../../compiler/segment.ts";
import { treeToSkill } from "../../compiler/program_tree.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { validateSkill } from "../../dsl/graph/validate.ts";
import { BOX_VOCAB, facts, goStep, handTrace, takeStep } from "./_induce_toy.ts";

// Three searches for a red ball over unvisited boxes: found in the second,
// the third (after a blue one) and the first box.
function searchGroup(): SegmentGroup {
  const traces = [
    handTrace(facts({ b1: "Box", b2: "Box", b3: "Box" }), [
      goStep("b1"),
      goStep("b2", [["inside", "b2", "x1"], ["color", "x1", "red"]], { x1: "Ball" }),
      takeStep("x1", "b2"),
    ], "A"),
    handTrace(facts({ c1: "Box", c2: "Box", c3: "Box" }), [
      goStep("c1", [["inside", "c1", "y1"], ["color", "y1", "blue"]], { y1: "Ball" }),
      goStep("c2"),
      goStep("c3", [["inside", "c3", "y2"], ["color", "y2", "red"]], { y2: "Ball" }),
      takeStep("y2", "c3"),
    ], "B"),
    handTrace(facts({ d1: "Box", d2: "Box" }), [
      goStep("d1", [["inside", "d1", "z1"], ["color", "z1", "red"]], { z1: "Ball" }),
      takeStep("z1", "d1"),
    ], "C"),
  ];
  const groups = groupSegments(traces.flatMap((g, i) => segmentTrace(g, i, BOX_VOCAB)), BOX_VOCAB);
  assert.equal(groups.length, 1);
  return groups[0];
}

const HAS_BALL = "exists(x: Ball, inside(b, x) and color(x, x_type))";

Deno.test("induceGroup() induces a search loop that exits when the box holds a ball of the class", () => {
  const lines: string[] = [];
  const induced = induceGroup(searchGroup(), BOX_VOCAB, { explain: (l) => lines.push(l) });
  const { skill } = induced;
  assert.equal(skill.name, "fetch");
  assert.deepEqual(skill.params, [{ name: "x_type", type: "Color" }]);
  assert.equal(skill.doc.post, "exists(v0: Ball, holds(v0) and color(v0, x_type))");
  assert.equal(skill.entry, "each_b");
  assert.deepEqual(skill.nodes, [
    { id: "each_b", kind: "loop", var: "b", over: "select_all(x: Box, not visited(x))" },
    {
      id: "fail",
      kind: "terminal",
      outcome: "failure",
      message: "No b in select_all(x: Box, not visited(x)) led to the goal",
      diagnosis: `not exists(b: Box, ${HAS_BALL})`,
    },
    { id: "check", kind: "check", cond: HAS_BALL },
    { id: "success", kind: "terminal", outcome: "success" },
    { id: "take", kind: "primitive", action: "take", args: { b: "b", x: "x" } },
    { id: "bind_x", kind: "data", var: "x", expr: "select_one(x: Ball, color(x, x_type))" },
    { id: "go", kind: "primitive", action: "go", args: { b: "b" } },
  ]);
  assert.deepEqual(skill.edges, [
    { from: "take", to: "success", label: "next" },
    { from: "bind_x", to: "take", label: "next" },
    { from: "check", to: "bind_x", label: "yes" },
    { from: "check", to: "each_b", label: "no" },
    { from: "go", to: "check", label: "next" },
    { from: "each_b", to: "go", label: "body" },
    { from: "each_b", to: "fail", label: "done" },
  ]);
  assert.ok(validateSkill(skill, BOX_VOCAB).ok);
  assert.deepEqual(
    { ...induced, skill: undefined },
    {
      skill: undefined,
      segments: 3,
      covered: 3,
      // A from its first two steps, B from its first three, C from its first.
      region: 6,
      states: 9,
      size: 41,
      score: 6 - 0.05 * 41,
      uncovered: [],
    },
  );
  assert.ok(
    lines.includes(
      '[fetch] LoopFold: "go" over select_all(x: Box, not visited(x)), folded in 3 of 3 segments',
    ),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) => l.startsWith("[fetch] consolidate B steps 1-4: accepted, covers 3 of 3")),
    lines.join("\n"),
  );
});

Deno.test("induceGroup() ends consolidation at a candidate larger than maxSize, keeping the skill so far", () => {
  const lines: string[] = [];
  const induced = induceGroup(searchGroup(), BOX_VOCAB, {
    maxSize: 10,
    explain: (l) => lines.push(l),
  });
  // The start covers one segment; the first candidate, over two, is too large.
  assert.ok(
    lines.some((l) =>
      /^\[fetch\] consolidate .*: size \d+ exceeds 10; consolidation ends$/.test(l)
    ),
    lines.join("\n"),
  );
  assert.ok(induced.covered < 3);
  assert.ok(!lines.some((l) => l.includes(": accepted,")), lines.join("\n"));
});

Deno.test("measure() names each segment a skill does not reproduce, with the reason", () => {
  const group = searchGroup();
  const waiting = treeToSkill({
    name: "fetch",
    vocabulary: "boxes",
    params: group.params,
    doc: { summary: "" },
    body: [{ kind: "act", action: "wait", args: {} }],
  });
  const m = measure({ format: "skillc/skill@1", ...waiting } as Skill, group, BOX_VOCAB, 1);
  assert.deepEqual(m.uncovered, [
    { source: "A steps 1-3", reason: 'generated "wait" where the expert did "go to b1"' },
    { source: "B steps 1-4", reason: 'generated "wait" where the expert did "go to c1"' },
    { source: "C steps 1-2", reason: 'generated "wait" where the expert did "go to d1"' },
  ]);
  // Two nodes (wait, success), no expressions; lambda 1.
  assert.deepEqual([m.covered, m.region, m.states, m.size, m.score], [0, 0, 9, 2, -2]);
});

Deno.test("skillSize() counts nodes plus the AST nodes of their expressions", () => {
  const skill = treeToSkill({
    name: "s",
    vocabulary: "boxes",
    params: [],
    doc: { summary: "" },
    body: [
      { kind: "bind", var: "r", expr: "select_one(b: Box, not visited(b))" },
      { kind: "act", action: "go", args: { b: "r" } },
      { kind: "fail", message: "m", diagnosis: "visited(r)" },
    ],
  });
  // 3 nodes; 5 + 1 + 2 expression nodes.
  assert.equal(skillSize({ format: "skillc/skill@1", ...skill }), 11);
});
