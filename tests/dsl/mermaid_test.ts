import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  mermaidToSkill,
  type Skill,
  type SkillIssue,
  SkillSchema,
  skillToMermaid,
  validateSkill,
} from "../../dsl/graph/mod.ts";
import { searchSkill, VOCAB } from "./_fixtures_graph.ts";

/** Nested loops, reserved ids, awkward strings, several failure ends, grafts. */
function trickySkill(): Skill {
  return {
    format: "skillc/skill@1",
    name: "tricky",
    vocabulary: "tiny",
    params: [
      { name: "T", type: "ItemType" },
      { name: "limit", type: "Num", doc: 'at most "limit" #1 <br> items\nper run' },
    ],
    doc: { summary: "", excluded: ["limit < 0", "limit > 100"] },
    entry: "START",
    nodes: [
      { id: "START", kind: "data", var: "names", expr: `['a"b', 'it\\'s', '{{x}}', '<br>#quot;']` },
      { id: "end", kind: "loop", var: "rec", over: "select_all(r: Receptacle, true)" },
      {
        id: "inner",
        kind: "loop",
        var: "x",
        over: "select_all(i: Item, contains(rec, i))",
        after: { var: "earlier", cond: "is_type(earlier, T) and not is_type(x, T)" },
      },
      { id: "chk", kind: "check", cond: "is_type(x, T) and len(names) >= 2", doc: "a doc" },
      { id: "tk", kind: "primitive", action: "take", args: { item: "x", source: "rec" } },
      {
        id: "fail_none",
        kind: "terminal",
        outcome: "failure",
        message: ' leading space, "quotes", #hash, <br> & {{x}}\nsecond line ',
        diagnosis: "not exists(i: Item, is_type(i, T))",
      },
      { id: "fail_take", kind: "terminal", outcome: "failure", message: "take refused", doc: "" },
      { id: "win", kind: "terminal", outcome: "success", message: "done" },
    ],
    edges: [
      { from: "START", to: "end", label: "next" },
      { from: "end", to: "inner", label: "body" },
      { from: "end", to: "fail_none", label: "done" },
      { from: "inner", to: "chk", label: "body" },
      { from: "inner", to: "end", label: "done" },
      { from: "chk", to: "tk", label: "yes" },
      { from: "chk", to: "inner", label: "no" },
      { from: "tk", to: "win", label: "next" },
      { from: "tk", to: "fail_take", label: "failed" },
    ],
    grafts: [{ id: "g1", nodes: ["fail_take"], status: "tentative", successes: 0 }],
  };
}

/** A skill that calls a library skill. */
function callerSkill(): Skill {
  return {
    format: "skillc/skill@1",
    name: "caller",
    vocabulary: "tiny",
    params: [{ name: "T", type: "ItemType" }],
    doc: { summary: "Fetch, then report.", post: "exists(x: Item, holds(x) and is_type(x, T))" },
    entry: "call",
    nodes: [
      { id: "call", kind: "primitive", action: "fetch", args: { kind: "T", count: "1 + 1" } },
      { id: "yes_end", kind: "terminal", outcome: "success" },
      { id: "no_end", kind: "terminal", outcome: "failure", message: "fetch failed" },
    ],
    edges: [
      { from: "call", to: "yes_end", label: "next" },
      { from: "call", to: "no_end", label: "failed" },
    ],
  };
}

const FETCH = {
  fetch: { params: [{ name: "kind", type: "ItemType" }, { name: "count", type: "Num" }] },
};

function roundTrip(skill: Skill, exportVocab: boolean): Skill {
  const text = skillToMermaid(skill, exportVocab ? { vocab: VOCAB, skills: FETCH } : {});
  const back = mermaidToSkill(text, { vocabulary: skill.vocabulary });
  ok(back.ok, `${text}\n${JSON.stringify(!back.ok && back.error, null, 1)}`);
  return SkillSchema.parse(back.value);
}

for (
  const [name, make] of [["search", searchSkill], ["tricky", trickySkill], [
    "caller",
    callerSkill,
  ]] as const
) {
  Deno.test(`mermaidToSkill(skillToMermaid(s)) gives back the ${name} skill`, () => {
    const skill = make();
    const valid = validateSkill(skill, VOCAB, { skills: FETCH });
    ok(valid.ok, JSON.stringify(!valid.ok && valid.error));
    deepStrictEqual(roundTrip(skill, false), skill);
    deepStrictEqual(roundTrip(skill, true), skill);
  });
}

Deno.test("skillToMermaid() writes the paper's label forms and loop edge labels", () => {
  const text = skillToMermaid(searchSkill(), { vocab: VOCAB });
  ok(text.includes("flowchart TD"));
  ok(text.includes("classDef LoopControl"));
  ok(text.includes('START(["Interface: find_and_take(T: ItemType)'));
  ok(text.includes(`each["LoopControl: For rec in {{recs}}"]:::LoopControl`));
  ok(text.includes(`closed["Check: is_closed(rec)"]:::Check`));
  ok(text.includes("(item: Item := select_one(x: Item, contains(rec, x) and is_type(x, T)))"));
  ok(
    text.includes(
      "PrimitiveAction: (action: 'go to {{target}}')<br>name: goto<br>local in: (target: Receptacle = {{rec}})",
    ),
  );
  ok(text.includes("recs -->|Start_Loop| each"));
  ok(text.includes("found -->|No, Continue_Loop| each"));
  ok(text.includes("take_it -->|failed| take_failed"));
  ok(text.includes("START --> recs"));
});

Deno.test("skillToMermaid() escapes labels so no raw quote or tag breaks a node", () => {
  const text = skillToMermaid(trickySkill(), { vocab: VOCAB });
  const defs = text.split("\n").filter((l) => /^\s+\w+\(?\[/.test(l));
  equal(defs.length, 10); // spec, start and eight nodes
  for (const l of defs) equal(l.split('"').length - 1, 2, l);
  ok(text.includes("#quot;quotes#quot;"));
  ok(text.includes("#lt;br>"));
  ok(text.includes('N_START["DataOp'), "a node named START is renamed");
  ok(text.includes('N_end["LoopControl'), "a node named end is renamed");
  ok(text.includes("inner -->|done, Continue_Loop| N_end"));
});

Deno.test("mermaidToSkill() takes the name from options over the START signature", () => {
  const r = mermaidToSkill(skillToMermaid(searchSkill()), { name: "renamed", vocabulary: "other" });
  ok(r.ok);
  equal(r.value.name, "renamed");
  equal(r.value.vocabulary, "other");
});

const PAPER_STYLE = String.raw`%%{init: {'theme': 'default',
  'themeVariables': {'background': '#ffffff'} }}%%
flowchart TD
    %% ===================== Class Definitions =====================
    classDef Spec fill:#f4f4ff,stroke:#6a6ab2,stroke-dasharray: 4 3,
        stroke-width:2px;
    classDef Interface fill:#e2e2f2,stroke:#6a6ab2,stroke-width:2px;
    classDef LoopControl fill:#f9e4b7,stroke:#b99b37,stroke-width:2px;
    classDef PrimitiveAction fill:#f9c2c2,stroke:#c23737,stroke-width:2px;
    classDef Check fill:#d0e1f9,stroke:#4378a2,stroke-width:2px;
    classDef DataOp fill:#f0f0f0,stroke:#888888,stroke-width:2px;

    LEGEND["Type Legend:<br>ReceptacleName := str<br>ItemName := str
        <br>List_T := sequence of T"]:::Spec
    FLOW_SPEC["Spec: Find an item of a type and take it.<br>post: exists(x: Item, holds(x) and is_type(x, {{TARGET_TYPE}}))"]:::Spec

    START(["Interface: fetch_item(TARGET_TYPE: ItemType)"]):::Interface
    SUCCESS_END(["Interface: SUCCESS_FLAG: Bool:=True<br>
        writes GLOBAL: (SUCCESS_FLAG: Bool:=True)"]):::Interface
    FAILURE_END(["Interface: SUCCESS_FLAG: Bool:=False<br>
        writes GLOBAL: (SUCCESS_FLAG: Bool:=False)"]):::Interface

    A_GOTO["PrimitiveAction: (action: 'go to {{goto_rec}}')<br>
        local in: (goto_rec: ReceptacleName = {{CURRENT_RECEPTACLE}})<br>
        out: (executed: Bool)"]:::PrimitiveAction
    A_OPEN["PrimitiveAction: (action: &quot;open {{open_rec}}&quot;)<br>
        local in: (open_rec: ReceptacleName = {{CURRENT_RECEPTACLE}})"]:::PrimitiveAction
    A_TAKE["PrimitiveAction: (action: #quot;take {{take_item}} from {{from_rec}}#quot;)
        <br>local in: (take_item: ItemName = {{TARGET_ITEM}},
        from_rec: ReceptacleName = {{CURRENT_RECEPTACLE}})<br>
        out: (executed: Bool)"]:::PrimitiveAction

    LOOP_FOR_LOCATIONS["LoopControl: For receptacle_i in {{loop_receptacles}}
        <br>writes GLOBAL: (CURRENT_RECEPTACLE: ReceptacleName:=receptacle_i)
        <br>local in: (loop_receptacles: List_ReceptacleName =
        {{RECEPTACLE_CANDIDATES}})"]:::LoopControl

    C_IS_CLOSED{"is_closed({{rec_name_to_check}})<br>
        local in: (rec_name_to_check: ReceptacleName =
        {{CURRENT_RECEPTACLE}})"}
    C_HAS_TYPE["Check: exists(Item, lambda x: contains({{rec_name_to_check}},
        x) and is_type(x, {{item_type_to_check}}))<br>
        local in: (rec_name_to_check: ReceptacleName =
        {{CURRENT_RECEPTACLE}}, item_type_to_check: ItemType =
        {{TARGET_TYPE}})"]:::Check

    D_INIT["DataOp: writes GLOBAL: (RECEPTACLE_CANDIDATES: List_ReceptacleName = select_all(\'Receptacle\', not locates(x)))"]:::DataOp
    D_SELECT_ONE_ITEM_WITH_TYPE["DataOp: writes GLOBAL: (TARGET_ITEM:
        ItemName = select_one(\'Item\', contains({{rec}}, x) and is_type(x,
        {{select_item_type}}))) <br>local in: (select_item_type: ItemType
        = {{TARGET_TYPE}}, rec: ReceptacleName = {{CURRENT_RECEPTACLE}})"]:::DataOp

    %% ===================== Node Class Assignments =====================
    class C_IS_CLOSED Check

    %% ===================== Legend links =====================
    START -.- FLOW_SPEC
    START -.- LEGEND

    %% ===================== Control-Flow Edges =====================
    START --> D_INIT
    D_INIT -->|Start_Loop| LOOP_FOR_LOCATIONS
    LOOP_FOR_LOCATIONS -->|body| A_GOTO
    LOOP_FOR_LOCATIONS -- done --> FAILURE_END
    A_GOTO --> C_IS_CLOSED
    C_IS_CLOSED -- Yes --> A_OPEN
    C_IS_CLOSED -->|No| C_HAS_TYPE
    A_OPEN --> C_HAS_TYPE
    C_HAS_TYPE -->|Yes| D_SELECT_ONE_ITEM_WITH_TYPE
    C_HAS_TYPE -->|"No, Continue_Loop"| LOOP_FOR_LOCATIONS
    D_SELECT_ONE_ITEM_WITH_TYPE --> A_TAKE --> SUCCESS_END
`;

Deno.test("mermaidToSkill() reads a hand-written flowchart in the paper's style", () => {
  const r = mermaidToSkill(PAPER_STYLE, { vocabulary: "tiny", vocab: VOCAB });
  ok(r.ok, JSON.stringify(!r.ok && r.error, null, 1));
  const s = SkillSchema.parse(r.value);
  equal(s.name, "fetch_item");
  deepStrictEqual(s.params, [{ name: "TARGET_TYPE", type: "ItemType" }]);
  deepStrictEqual(s.doc, {
    summary: "Find an item of a type and take it.",
    post: "exists(x: Item, holds(x) and is_type(x, TARGET_TYPE))",
  });
  equal(s.entry, "D_INIT");
  const byId = Object.fromEntries(s.nodes.map((n) => [n.id, n]));
  deepStrictEqual(byId.SUCCESS_END, { id: "SUCCESS_END", kind: "terminal", outcome: "success" });
  deepStrictEqual(byId.FAILURE_END, { id: "FAILURE_END", kind: "terminal", outcome: "failure" });
  deepStrictEqual(byId.A_GOTO, {
    id: "A_GOTO",
    kind: "primitive",
    action: "goto",
    args: { target: "CURRENT_RECEPTACLE" },
  });
  deepStrictEqual(byId.A_OPEN, {
    id: "A_OPEN",
    kind: "primitive",
    action: "open",
    args: { target: "CURRENT_RECEPTACLE" },
  });
  deepStrictEqual(byId.A_TAKE, {
    id: "A_TAKE",
    kind: "primitive",
    action: "take",
    args: { item: "TARGET_ITEM", source: "CURRENT_RECEPTACLE" },
  });
  deepStrictEqual(byId.LOOP_FOR_LOCATIONS, {
    id: "LOOP_FOR_LOCATIONS",
    kind: "loop",
    var: "CURRENT_RECEPTACLE",
    over: "RECEPTACLE_CANDIDATES",
  });
  deepStrictEqual(byId.C_IS_CLOSED, {
    id: "C_IS_CLOSED",
    kind: "check",
    cond: "is_closed(CURRENT_RECEPTACLE)",
  });
  deepStrictEqual(byId.C_HAS_TYPE, {
    id: "C_HAS_TYPE",
    kind: "check",
    cond: "exists(x: Item, contains(CURRENT_RECEPTACLE, x) and is_type(x, TARGET_TYPE))",
  });
  deepStrictEqual(byId.D_INIT, {
    id: "D_INIT",
    kind: "data",
    var: "RECEPTACLE_CANDIDATES",
    expr: "select_all(x: Receptacle, not locates(x))",
  });
  deepStrictEqual(byId.D_SELECT_ONE_ITEM_WITH_TYPE, {
    id: "D_SELECT_ONE_ITEM_WITH_TYPE",
    kind: "data",
    var: "TARGET_ITEM",
    expr: "select_one(x: Item, contains(CURRENT_RECEPTACLE, x) and is_type(x, TARGET_TYPE))",
  });
  deepStrictEqual(s.edges, [
    { from: "D_INIT", to: "LOOP_FOR_LOCATIONS", label: "next" },
    { from: "LOOP_FOR_LOCATIONS", to: "A_GOTO", label: "body" },
    { from: "LOOP_FOR_LOCATIONS", to: "FAILURE_END", label: "done" },
    { from: "A_GOTO", to: "C_IS_CLOSED", label: "next" },
    { from: "C_IS_CLOSED", to: "A_OPEN", label: "yes" },
    { from: "C_IS_CLOSED", to: "C_HAS_TYPE", label: "no" },
    { from: "A_OPEN", to: "C_HAS_TYPE", label: "next" },
    { from: "C_HAS_TYPE", to: "D_SELECT_ONE_ITEM_WITH_TYPE", label: "yes" },
    { from: "C_HAS_TYPE", to: "LOOP_FOR_LOCATIONS", label: "no" },
    { from: "D_SELECT_ONE_ITEM_WITH_TYPE", to: "A_TAKE", label: "next" },
    { from: "A_TAKE", to: "SUCCESS_END", label: "next" },
  ]);
  const valid = validateSkill(s, VOCAB);
  ok(valid.ok, JSON.stringify(!valid.ok && valid.error, null, 1));
});

Deno.test("mermaidToSkill() accepts other shapes, unquoted labels and class lines", () => {
  const text = [
    "graph TD",
    "  START([Interface: probe#40;#41;]) --> C1{Check: holds(x)}",
    "  START:::Interface",
    "  C1 -->|true| OK((Interface: SUCCESS_FLAG: Bool:=True))",
    "  C1 -->|false| KO(\"Interface: SUCCESS_FLAG: Bool:=False<br>message: no \\'x\\'\")",
    "  class OK,KO Interface",
  ].join("\n");
  const r = mermaidToSkill(text, { vocabulary: "tiny" });
  ok(r.ok, JSON.stringify(!r.ok && r.error, null, 1));
  equal(r.value.name, "probe");
  deepStrictEqual(r.value.nodes, [
    { id: "C1", kind: "check", cond: "holds(x)" },
    { id: "OK", kind: "terminal", outcome: "success" },
    { id: "KO", kind: "terminal", outcome: "failure", message: "no 'x'" },
  ]);
  deepStrictEqual(r.value.edges.map((e) => e.label), ["yes", "no"]);
});

function issueAt(issues: SkillIssue[], line: number, pattern: RegExp): SkillIssue {
  const found = issues.filter((i) => i.line === line && pattern.test(i.message));
  equal(
    found.length,
    1,
    `one issue at line ${line} matching ${pattern} in ${JSON.stringify(issues, null, 1)}`,
  );
  return found[0];
}

Deno.test("mermaidToSkill() reports malformed flowcharts with line numbers", () => {
  const text = [
    "flowchart TD", // 1
    '  START(["Interface: broken(T: ItemType)"]):::Interface', // 2
    '  D1["DataOp: nothing to bind here"]:::DataOp', // 3
    '  C1["is_closed(rec)"]', // 4
    '  X1["Check: holds(x)"]:::Check', // 5
    "  START --> X1", // 6
    "  D1 --> C1", // 7
    "  X1 -->|Yes| GHOST", // 8
    "  X1 -->|maybe| X1", // 9
    "  this is not mermaid", // 10
    '  BAD["unterminated', // 11
  ].join("\n");
  const r = mermaidToSkill(text, { vocabulary: "tiny" });
  ok(!r.ok);
  const issues = r.error;
  equal(issueAt(issues, 3, /binding/).node, "D1");
  equal(issueAt(issues, 4, /cannot determine its kind/).node, "C1");
  equal(issueAt(issues, 8, /undefined node "GHOST"/).node, "GHOST");
  equal(issueAt(issues, 9, /"Yes" or "No"/).node, "X1");
  issueAt(issues, 10, /Cannot read/);
  issueAt(issues, 11, /Unclosed quote/);
  ok(issues.every((i) => i.message.startsWith(`Line ${i.line}: `)));
  equal(issues.length, 6);
});

Deno.test("mermaidToSkill() reports a missing START and an unreadable action", () => {
  const r = mermaidToSkill(
    'flowchart TD\n  A["PrimitiveAction: (action: \'dance wildly\')"]\n  A --> B\n  B(["Interface: SUCCESS_FLAG: Bool:=True"])',
    { vocabulary: "tiny", vocab: VOCAB },
  );
  ok(!r.ok);
  ok(r.error.some((i) => /No START interface/.test(i.message)));
  equal(issueAt(r.error, 2, /cannot determine its action/).node, "A");
});
