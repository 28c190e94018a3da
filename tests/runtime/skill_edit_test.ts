import assert from "node:assert/strict";
import { applySkillEdit, replayEdits, type SkillEdit } from "../../runtime/store/skill_edit.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { takeOnlySkill, toyVocab } from "./_toy.ts";

const base = takeOnlySkill();

const graft = (id: string, guard: string, before = "take"): SkillEdit => ({
  op: "graft",
  skill: "take_color",
  graft: id,
  before,
  guard,
  steps: [{ action: "open", args: { b: "b" } }],
});

Deno.test("applySkillEdit() grafts, solidifies and removes, back to the original graph", () => {
  const grafted = applySkillEdit(base, graft("g1", "not is_open(b)"));
  assert.equal(grafted.graft, "g1");
  assert.ok(compileSkill(grafted.skill, toyVocab).ok);
  assert.deepEqual(grafted.skill.grafts, [
    { id: "g1", nodes: ["graft_g1", "recover_open"], status: "tentative", successes: 0 },
  ]);
  const solid = applySkillEdit(grafted.skill, { op: "solidify", skill: "take_color", graft: "g1" });
  assert.equal(solid.skill.grafts?.[0].status, "permanent");
  const removed = applySkillEdit(solid.skill, { op: "remove", skill: "take_color", graft: "g1" });
  assert.deepEqual(removed.skill.nodes, base.nodes);
  assert.deepEqual(removed.skill.edges, base.edges);
  assert.deepEqual(removed.skill.grafts, []);
});

Deno.test("applySkillEdit() says why an edit no longer fits instead of throwing", () => {
  assert.match(
    applySkillEdit(base, graft("g1", "not is_open(b)", "gone")).note ?? "",
    /node "gone" is no longer in the skill/,
  );
  assert.match(
    applySkillEdit(base, { op: "remove", skill: "take_color", graft: "g9" }).note ?? "",
    /graft g9 is no longer in the skill/,
  );
  const twice = applySkillEdit(
    applySkillEdit(base, graft("g1", "not is_open(b)")).skill,
    graft("g2", "not is_open(b)"),
  );
  assert.equal(twice.graft, "g1");
  assert.match(twice.note ?? "", /already there as g1/);
});

Deno.test("replayEdits() renames a graft whose id is taken and follows the renaming", () => {
  // Another process grafted g1 first; ours (also g1) is replayed on its version.
  const theirs = applySkillEdit(base, graft("g1", "weight(b) > 5")).skill;
  const ours: SkillEdit[] = [
    graft("g1", "not is_open(b)"),
    { op: "solidify", skill: "take_color", graft: "g1" },
    { op: "narrow", skill: "take_color", cond: "c == 'blue'", note: "Not for blue." },
  ];
  const { skills, notes } = replayEdits([theirs], ours, toyVocab);
  const skill = skills[0];
  assert.deepEqual(skill.grafts?.map((g) => [g.id, g.status]), [
    ["g1", "tentative"],
    ["g2", "permanent"],
  ]);
  assert.equal(notes.get(0), "recorded as g2");
  assert.equal(notes.has(1), false);
  assert.deepEqual(skill.doc.excluded, ["c == 'blue'"]);
  assert.equal(skill.doc.pre, "not (c == 'blue')");
  assert.match(skill.doc.summary, /Not for blue\.$/);
  assert.ok(compileSkill(skill, toyVocab).ok);
  // Both guards run before "take": theirs falls through to ours.
  const checks = skill.nodes.filter((n) => n.kind === "check").map((n) => n.id);
  assert.deepEqual(
    skill.edges.filter((e) => e.label === "no").map((e) => [e.from, e.to]),
    [[checks[0], checks[1]], [checks[1], "take"]],
  );
});

Deno.test("replayEdits() leaves out an edit that would not validate, and one for a missing skill", () => {
  const { skills, notes } = replayEdits([base], [
    graft("g1", "weight(nowhere) > 1"),
    { op: "narrow", skill: "other", note: "x" },
  ], toyVocab);
  assert.deepEqual(skills[0], base);
  assert.match(notes.get(0) ?? "", /would not validate/);
  assert.match(notes.get(1) ?? "", /skill "other" is no longer in the library/);
});

Deno.test("a narrowing by a negated context reads without a double negation, and once", () => {
  const edit: SkillEdit = {
    op: "narrow",
    skill: "take_color",
    cond: "not exists(x: Box, is_open(x))",
    note: "Not when no box is open.",
  };
  const once = applySkillEdit(base, edit).skill;
  assert.equal(once.doc.pre, "exists(x: Box, is_open(x))");
  const twice = applySkillEdit(once, edit).skill;
  assert.deepEqual(twice.doc.excluded, ["not exists(x: Box, is_open(x))"]);
  assert.equal(twice.doc.pre, once.doc.pre);
  assert.equal(twice.doc.summary, once.doc.summary);
  assert.ok(compileSkill(twice, toyVocab).ok);
});
