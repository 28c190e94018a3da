import assert from "node:assert/strict";
import { exprSize, type Stmt, treeSize, treeToSkill } from "../../compiler/program_tree.ts";
import { validateSkill } from "../../dsl/graph/validate.ts";
import { BOX_VOCAB } from "./_induce_toy.ts";

const UNVISITED = "select_all(b: Box, not visited(b))";
const FAIL_DIAGNOSIS = "not exists(b: Box, not visited(b))";

// Every statement kind: bind, a loop whose body acts, opens if closed and
// succeeds when the box holds a ball, then an act and a failure after it.
const BODY: Stmt[] = [
  { kind: "bind", var: "r", expr: "select_one(b: Box, not visited(b))" },
  {
    kind: "loop",
    var: "x",
    over: UNVISITED,
    body: [
      { kind: "act", action: "go", args: { b: "x" } },
      {
        kind: "if",
        cond: "is_closed(x)",
        then: [{ kind: "act", action: "open", args: { b: "x" } }],
        else: [],
      },
      { kind: "if", cond: "exists(y: Ball, inside(x, y))", then: [{ kind: "succeed" }], else: [] },
    ],
  },
  { kind: "act", action: "go", args: { b: "r" } },
  { kind: "fail", message: "No box holds a ball", diagnosis: FAIL_DIAGNOSIS },
];

function tree(body: Stmt[]) {
  return { name: "search", vocabulary: "boxes", params: [], doc: { summary: "Search." }, body };
}

Deno.test("treeToSkill() compiles bind, loop, if, act, succeed and fail to exact nodes and edges", () => {
  const skill = treeToSkill(tree(BODY));
  assert.equal(skill.entry, "bind_r");
  assert.deepEqual(skill.nodes, [
    { id: "bind_r", kind: "data", var: "r", expr: "select_one(b: Box, not visited(b))" },
    {
      id: "fail",
      kind: "terminal",
      outcome: "failure",
      message: "No box holds a ball",
      diagnosis: FAIL_DIAGNOSIS,
    },
    // Statements are emitted last first: the later `go` gets the plain id.
    { id: "go", kind: "primitive", action: "go", args: { b: "r" } },
    { id: "each_x", kind: "loop", var: "x", over: UNVISITED },
    { id: "check", kind: "check", cond: "exists(y: Ball, inside(x, y))" },
    { id: "success", kind: "terminal", outcome: "success" },
    { id: "check_2", kind: "check", cond: "is_closed(x)" },
    { id: "open", kind: "primitive", action: "open", args: { b: "x" } },
    { id: "go_2", kind: "primitive", action: "go", args: { b: "x" } },
  ]);
  assert.deepEqual(skill.edges, [
    { from: "go", to: "fail", label: "next" },
    { from: "check", to: "success", label: "yes" },
    // An empty branch and the end of the body go back to the loop.
    { from: "check", to: "each_x", label: "no" },
    { from: "open", to: "check", label: "next" },
    { from: "check_2", to: "open", label: "yes" },
    { from: "check_2", to: "check", label: "no" },
    { from: "go_2", to: "check_2", label: "next" },
    { from: "each_x", to: "go_2", label: "body" },
    { from: "each_x", to: "go", label: "done" },
    { from: "bind_r", to: "each_x", label: "next" },
  ]);
  assert.deepEqual(
    [skill.name, skill.vocabulary, skill.params, skill.doc],
    ["search", "boxes", [], { summary: "Search." }],
  );
  const valid = validateSkill(skill, BOX_VOCAB);
  assert.ok(valid.ok, JSON.stringify(!valid.ok && valid.error));
});

Deno.test("treeToSkill() ends a sequence that runs off the top level in one shared success", () => {
  const skill = treeToSkill(tree([
    {
      kind: "if",
      cond: "exists(b: Box, is_open(b))",
      then: [{ kind: "act", action: "wait", args: {} }],
      else: [{ kind: "succeed" }],
    },
    { kind: "act", action: "wait", args: {} },
  ]));
  assert.deepEqual(skill.nodes.map((n) => n.id), ["check", "wait", "success", "wait_2"]);
  assert.deepEqual(skill.edges, [
    { from: "wait", to: "success", label: "next" },
    { from: "wait_2", to: "wait", label: "next" },
    { from: "check", to: "wait_2", label: "yes" },
    { from: "check", to: "success", label: "no" },
  ]);
  assert.equal(skill.nodes.filter((n) => n.kind === "terminal").length, 1);
  assert.ok(validateSkill(skill, BOX_VOCAB).ok);
});

Deno.test("treeToSkill() of an empty body is a lone success, and a failure keeps no diagnosis it lacks", () => {
  const empty = treeToSkill(tree([]));
  assert.equal(empty.entry, "success");
  assert.deepEqual(empty.nodes, [{ id: "success", kind: "terminal", outcome: "success" }]);
  assert.deepEqual(empty.edges, []);
  assert.ok(validateSkill(empty, BOX_VOCAB).ok);
  const failing = treeToSkill(tree([{ kind: "fail", message: "Cannot" }]));
  assert.deepEqual(failing.nodes, [{
    id: "fail",
    kind: "terminal",
    outcome: "failure",
    message: "Cannot",
  }]);
  assert.ok(!("diagnosis" in failing.nodes[0]));
});

Deno.test("treeToSkill() gives a loop without body statements an edge back to itself", () => {
  const skill = treeToSkill(tree([{ kind: "loop", var: "x", over: UNVISITED, body: [] }]));
  assert.deepEqual(skill.edges, [
    { from: "each_x", to: "each_x", label: "body" },
    { from: "each_x", to: "success", label: "done" },
  ]);
});

Deno.test("treeSize() counts one per statement plus the AST nodes of every expression", () => {
  // bind 1+5, loop 1+5+(act 2, if 1+2+2, if 1+5+1), act 2, fail 1+6.
  assert.equal(treeSize(BODY), 35);
  assert.equal(treeSize([]), 0);
  assert.equal(treeSize([{ kind: "succeed" }, { kind: "fail", message: "m" }]), 2);
  assert.equal(
    treeSize([{
      kind: "if",
      cond: "true",
      then: [],
      else: [{ kind: "act", action: "wait", args: {} }],
    }]),
    3,
  );
});

Deno.test("exprSize() counts AST nodes, and 0 for a text that does not parse", () => {
  assert.equal(exprSize("want(ball) - count(ball)"), 5);
  assert.equal(exprSize("['a', 1]"), 3);
  assert.equal(exprSize("forall(b in [r], is_open(b))"), 5);
  assert.equal(exprSize("-count(x)"), 3);
  assert.equal(exprSize("is_open("), 0);
});

Deno.test("treeToSkill() compiles a repeated if to a check its branch returns to (a while loop)", () => {
  const skill = treeToSkill({
    name: "top_up",
    vocabulary: "boxes",
    params: [{ name: "x", type: "Ball" }],
    doc: { summary: "Grab until there are enough." },
    body: [
      {
        kind: "if",
        cond: "count(x) < want(x)",
        then: [{ kind: "act", action: "grab", args: { x: "x" } }],
        else: [],
        repeat: true,
      },
    ],
  });
  assert.deepEqual(skill.edges, [
    { from: "grab", to: "check", label: "next" },
    { from: "check", to: "grab", label: "yes" },
    { from: "check", to: "success", label: "no" },
  ]);
  assert.ok(validateSkill(skill, BOX_VOCAB).ok);
});
