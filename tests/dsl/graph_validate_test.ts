import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { cyclicNodes } from "../../dsl/graph/_control_flow.ts";
import { freshIds } from "../../dsl/graph/ids.ts";
import {
  loopBodies,
  outEdge,
  type SkillIssue,
  validateSkill,
  variableTypes,
} from "../../dsl/graph/mod.ts";
import type { Node, Skill } from "../../dsl/graph/schema.ts";
import { searchSkill, VOCAB } from "./_fixtures_graph.ts";

/** The search skill with `change` applied to a deep copy. */
function changed(change: (s: Skill) => void): Skill {
  const s = structuredClone(searchSkill());
  change(s);
  return s;
}

function node(s: Skill, id: string): Node {
  const n = s.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`No node "${id}"`);
  return n;
}

/** The issues of an invalid skill (fails when the skill is accepted). */
function issuesOf(
  input: unknown,
  skills?: Record<string, { params: { name: string; type: string }[] }>,
): SkillIssue[] {
  const r = validateSkill(input, VOCAB, skills ? { skills } : {});
  if (r.ok) throw new Error("Expected the skill to be rejected");
  return r.error;
}

/** The one issue whose message matches `pattern`. */
function issue(issues: SkillIssue[], pattern: RegExp): SkillIssue {
  const found = issues.filter((i) => pattern.test(i.message));
  equal(found.length, 1, `one issue matching ${pattern} in ${JSON.stringify(issues, null, 1)}`);
  return found[0];
}

Deno.test("validateSkill() accepts the search-loop skill and applies defaults", () => {
  const input: Record<string, unknown> = { ...searchSkill() };
  delete input.format;
  const r = validateSkill(input, VOCAB);
  ok(r.ok, JSON.stringify(!r.ok && r.error));
  deepStrictEqual(r.value, searchSkill());
});

Deno.test("validateSkill() turns schema errors into issues with field paths and node ids", () => {
  const bad = structuredClone(searchSkill()) as unknown as { nodes: Record<string, unknown>[] };
  bad.nodes[2].kind = "jump";
  bad.nodes[3].cond = 5;
  const found = issuesOf(bad);
  const i = issue(found, /nodes\[2\]\.kind/);
  equal(i.field, "nodes[2].kind");
  equal(i.node, "go");
  ok(i.message.startsWith('Node "go":') && i.message.includes('"jump"'), i.message);
  const c = issue(found, /nodes\[3\]\.cond/);
  equal(c.node, "closed");
  equal(found.length, 2);
});

Deno.test("validateSkill() reports a duplicate node id", () => {
  const s = changed((s) => s.nodes.push({ id: "go", kind: "terminal", outcome: "success" }));
  const i = issue(issuesOf(s), /duplicate node id/);
  equal(i.node, "go");
  equal(i.field, `nodes[${s.nodes.length - 1}].id`);
});

Deno.test("validateSkill() reports an unknown entry", () => {
  const i = issue(issuesOf(changed((s) => s.entry = "nowhere")), /Entry "nowhere" is not a node/);
  equal(i.node, "nowhere");
  equal(i.field, "entry");
});

Deno.test("validateSkill() reports edges from and to unknown nodes", () => {
  const found = issuesOf(changed((s) => {
    s.edges.push({ from: "ghost", to: "ok", label: "next" });
    s.edges.push({ from: "pick", to: "phantom", label: "next" });
  }));
  equal(issue(found, /source node "ghost" does not exist/).node, "ghost");
  equal(issue(found, /target node "phantom" does not exist/).node, "phantom");
});

Deno.test("validateSkill() reports a missing required out-edge", () => {
  const s = changed((s) =>
    s.edges = s.edges.filter((e) => !(e.from === "closed" && e.label === "no"))
  );
  const i = issue(issuesOf(s), /expected out-edges/);
  equal(i.message, 'Node "closed": expected out-edges "yes" and "no" but "no" is missing');
  equal(i.node, "closed");
});

Deno.test("validateSkill() reports an out-edge label the node kind does not allow", () => {
  const s = changed((s) => s.edges.push({ from: "pick", to: "ok", label: "yes" }));
  const i = issue(issuesOf(s), /not allowed/);
  equal(i.node, "pick");
  ok(i.message.includes('"yes"') && i.message.includes("data node"));
});

Deno.test("validateSkill() reports a label given twice on one node", () => {
  const s = changed((s) => s.edges.push({ from: "closed", to: "ok", label: "yes" }));
  const i = issue(issuesOf(s), /given 2 times/);
  equal(i.node, "closed");
  ok(i.message.includes('"open_it"') && i.message.includes('"ok"'));
});

Deno.test("validateSkill() reports an out-edge of a terminal node", () => {
  const s = changed((s) => s.edges.push({ from: "ok", to: "recs", label: "next" }));
  equal(issue(issuesOf(s), /terminal node has no out-edges/).node, "ok");
});

Deno.test("validateSkill() reports a node not reachable from the entry", () => {
  const s = changed((s) => s.nodes.push({ id: "island", kind: "terminal", outcome: "success" }));
  const i = issue(issuesOf(s), /not reachable/);
  equal(i.node, "island");
  equal(i.message, 'Node "island" is not reachable from the entry "recs"');
});

Deno.test("validateSkill() reports a loop variable read on the done path, with the path", () => {
  // The loop assigns "rec" only along "body": after "done" it may be unassigned.
  const s = changed((s) => {
    const t = node(s, "none_found");
    if (t.kind === "terminal") t.diagnosis = "not exists(x: Item, contains(rec, x))";
  });
  const i = issue(issuesOf(s), /may be read before it is assigned/);
  equal(i.node, "none_found");
  equal(
    i.message,
    'Node "none_found": variable "rec" may be read before it is assigned (not assigned on the path recs -> each -> none_found)',
  );
});

Deno.test("validateSkill() requires assignment on every path, not just one branch", () => {
  // "item" is assigned only when the receptacle was closed; "found" reads it on both paths.
  const both = changed((s) => {
    s.nodes.push({ id: "early", kind: "data", var: "n", expr: "1" });
    s.edges = s.edges.map((e) =>
      e.from === "closed" && e.label === "yes" ? { ...e, to: "early" } : e
    );
    s.edges.push({ from: "early", to: "open_it", label: "next" });
    const f = node(s, "found");
    if (f.kind === "check") f.cond = "n > 0";
  });
  const i = issue(issuesOf(both), /may be read before/);
  equal(i.node, "found");
  ok(i.message.includes("closed -> found"));
  // Assigned on both branches: accepted.
  const fixed = changed((s) => {
    s.nodes.push({ id: "early", kind: "data", var: "n", expr: "1" });
    s.nodes.push({ id: "late", kind: "data", var: "n", expr: "2" });
    s.edges = s.edges.filter((e) => !(e.from === "closed"));
    s.edges.push({ from: "closed", to: "early", label: "yes" }, {
      from: "closed",
      to: "late",
      label: "no",
    });
    s.edges.push({ from: "early", to: "open_it", label: "next" }, {
      from: "late",
      to: "found",
      label: "next",
    });
    const f = node(s, "found");
    if (f.kind === "check") f.cond = "n > 0";
  });
  const r = validateSkill(fixed, VOCAB);
  ok(r.ok, JSON.stringify(!r.ok && r.error));
});

Deno.test("validateSkill() reports a variable that is never assigned", () => {
  const s = changed((s) => {
    const c = node(s, "closed");
    if (c.kind === "check") c.cond = "is_closed(somewhere)";
  });
  const i = issue(issuesOf(s), /never assigned/);
  equal(i.node, "closed");
  equal(i.field, "nodes[3].cond");
});

Deno.test("validateSkill() reports a variable assigned two different types", () => {
  const s = changed((s) => {
    s.nodes.push({ id: "again", kind: "data", var: "item", expr: "rec" });
    s.edges = s.edges.map((e) => e.from === "pick" ? { ...e, to: "again" } : e);
    s.edges.push({ from: "again", to: "take_it", label: "next" });
  });
  const i = issue(issuesOf(s), /assigned Receptacle here but Item/);
  equal(i.node, "again");
});

Deno.test("validateSkill() reports a parameter reassigned with another type", () => {
  const s = changed((s) => {
    const p = node(s, "pick");
    if (p.kind === "data") p.var = "T";
  });
  const i = issue(issuesOf(s), /parameter of type ItemType/);
  equal(i.node, "pick");
  equal(
    i.message,
    'Node "pick": variable "T" is a parameter of type ItemType and cannot be assigned Item',
  );
});

Deno.test("validateSkill() reports an expression that does not parse, with line and column", () => {
  const s = changed((s) => {
    const c = node(s, "closed");
    if (c.kind === "check") c.cond = "is_closed(rec";
  });
  const i = issue(issuesOf(s), /cannot parse "cond"/);
  equal(i.node, "closed");
  equal(i.line, 1);
  equal(i.column, 14);
});

Deno.test("validateSkill() reports a type error inside an expression, with its position", () => {
  const s = changed((s) => {
    const c = node(s, "closed");
    if (c.kind === "check") c.cond = "is_closed(rec) and is_shut(rec)";
  });
  const i = issue(issuesOf(s), /Unknown predicate "is_shut"/);
  equal(i.node, "closed");
  deepStrictEqual([i.line, i.column], [1, 20]);
});

Deno.test("validateSkill() requires a check condition to be Bool", () => {
  const s = changed((s) => {
    const c = node(s, "closed");
    if (c.kind === "check") c.cond = "rec";
  });
  const i = issue(issuesOf(s), /must be Bool/);
  equal(i.message, 'Node "closed": "cond" must be Bool but is Receptacle');
});

Deno.test("validateSkill() requires a loop to range over a List", () => {
  const s = changed((s) => {
    const l = node(s, "each");
    if (l.kind === "loop") l.over = "select_one(x: Item, holds(x))";
  });
  const i = issue(issuesOf(s), /must be a List/);
  equal(i.message, 'Node "each": "over" must be a List but is Item');
});

Deno.test("validateSkill() requires a terminal diagnosis to be Bool", () => {
  const s = changed((s) => {
    const t = node(s, "none_found");
    if (t.kind === "terminal") t.diagnosis = "T";
  });
  equal(issue(issuesOf(s), /"diagnosis" must be Bool/).node, "none_found");
});

Deno.test("validateSkill() reports an unknown action", () => {
  const s = changed((s) => {
    const p = node(s, "go");
    if (p.kind === "primitive") p.action = "teleport";
  });
  equal(issue(issuesOf(s), /unknown action "teleport"/).node, "go");
});

Deno.test("validateSkill() reports missing and unknown action arguments", () => {
  const s = changed((s) => {
    const p = node(s, "take_it");
    if (p.kind === "primitive") p.args = { item: "item", from: "rec" };
  });
  const found = issuesOf(s);
  equal(issue(found, /missing argument "source"/).node, "take_it");
  const u = issue(found, /unknown argument "from"/);
  equal(u.node, "take_it");
  equal(u.field, "nodes[7].args.from");
});

Deno.test("validateSkill() requires argument types assignable to the action's parameters", () => {
  const s = changed((s) => {
    const p = node(s, "go");
    if (p.kind === "primitive") p.args = { target: "select_one(x: Item, holds(x))" };
  });
  const i = issue(issuesOf(s), /must be Receptacle but is Item/);
  equal(i.node, "go");
});

Deno.test("validateSkill() accepts a call of a library skill given in options", () => {
  const s = changed((s) => {
    const p = node(s, "go");
    if (p.kind === "primitive") Object.assign(p, { action: "visit", args: { place: "rec" } });
  });
  equal(issue(issuesOf(s), /unknown action "visit"/).node, "go");
  const r = validateSkill(s, VOCAB, {
    skills: { visit: { params: [{ name: "place", type: "Object" }] } },
  });
  ok(r.ok, JSON.stringify(!r.ok && r.error));
  const wrong = issuesOf(s, { visit: { params: [{ name: "place", type: "Item" }] } });
  equal(issue(wrong, /must be Item but is Receptacle/).node, "go");
});

Deno.test("validateSkill() checks docstring conditions: parse, parameters only, Bool", () => {
  const s = changed((s) => {
    s.doc.pre = "holds(item)";
    s.doc.post = "T";
    s.doc.excluded = ["is_type(("];
  });
  const found = issuesOf(s);
  equal(issue(found, /may only use parameters/).field, "doc.pre");
  equal(issue(found, /must be Bool but is ItemType/).field, "doc.post");
  const p = issue(found, /cannot parse/);
  equal(p.field, "doc.excluded[0]");
  ok(p.line === 1 && typeof p.column === "number");
});

Deno.test("validateSkill() reports an unknown parameter type", () => {
  const i = issue(issuesOf(changed((s) => s.params[0].type = "Colour")), /unknown type "Colour"/);
  equal(i.field, "params[0].type");
});

Deno.test("validateSkill() reports every problem at once", () => {
  const s = changed((s) => {
    s.nodes.push({ id: "island", kind: "terminal", outcome: "success" });
    const c = node(s, "closed");
    if (c.kind === "check") c.cond = "rec";
    s.edges = s.edges.filter((e) => !(e.from === "each" && e.label === "done"));
  });
  const nodes = issuesOf(s).map((i) => i.node).sort();
  deepStrictEqual(nodes, ["closed", "each", "island", "none_found"].sort());
});

Deno.test("variableTypes() infers the type of every variable", () => {
  deepStrictEqual(variableTypes(searchSkill(), VOCAB), {
    T: "ItemType",
    recs: "List<Receptacle>",
    rec: "Receptacle",
    item: "Item",
  });
});

Deno.test("variableTypes() iterates until types of variables used above their assignment settle", () => {
  // Breadth-first, "a" is typed before "b" is known; a second round types it.
  const s: Skill = {
    ...searchSkill(),
    params: [],
    doc: { summary: "" },
    entry: "a",
    nodes: [
      { id: "a", kind: "data", var: "a", expr: "[b]" },
      { id: "b", kind: "data", var: "b", expr: "len([1, 2])" },
      { id: "t", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "a", to: "b", label: "next" }, { from: "b", to: "t", label: "next" }],
  };
  deepStrictEqual(variableTypes(s, VOCAB), { a: "List<Num>", b: "Num" });
  equal(issue(issuesOf(s), /may be read before/).node, "a");
});

Deno.test("loopBodies() holds the nodes reachable from the body without passing the loop", () => {
  const bodies = loopBodies(searchSkill());
  deepStrictEqual([...bodies.keys()], ["each"]);
  deepStrictEqual(
    [...(bodies.get("each") ?? [])].sort(),
    ["closed", "found", "go", "ok", "open_it", "pick", "take_failed", "take_it"],
  );
  equal(outEdge(searchSkill(), "found", "no"), "each");
  equal(outEdge(searchSkill(), "found", "failed"), undefined);
});

Deno.test("cyclicNodes() holds exactly the nodes a run can visit twice: a loop and its way back", () => {
  deepStrictEqual(
    [...cyclicNodes(searchSkill())].sort(),
    ["closed", "each", "found", "go", "open_it"],
  );
  // A chain of 50,000 nodes has none, and is walked without recursion.
  const n = 50_000;
  const chain: Skill = {
    format: "skillc/skill@1",
    name: "chain",
    vocabulary: "v",
    params: [],
    doc: { summary: "" },
    entry: "n0",
    nodes: Array.from(
      { length: n },
      (_, i): Node =>
        i === n - 1
          ? { id: `n${i}`, kind: "terminal", outcome: "success" }
          : { id: `n${i}`, kind: "data", var: "x", expr: "1" },
    ),
    edges: Array.from({ length: n - 1 }, (_, i) => ({
      from: `n${i}`,
      to: `n${i + 1}`,
      label: "next" as const,
    })),
  };
  equal(cyclicNodes(chain).size, 0);
  // Closing it into a ring puts every node on the cycle.
  chain.edges.push({ from: `n${n - 2}`, to: "n0", label: "next" });
  equal(cyclicNodes(chain).size, n - 1);
});

Deno.test("freshIds() continues a base's suffixes without reusing a taken id", () => {
  const fresh = freshIds(["go", "go_2", "go_4"]);
  deepStrictEqual(
    [fresh("go"), fresh("go"), fresh("go"), fresh("take"), fresh("take")],
    ["go_3", "go_5", "go_6", "take", "take_2"],
  );
});
