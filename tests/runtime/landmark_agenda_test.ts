// The landmark agenda on a domain of its own: letters to post, each to the
// box the goal names.
import assert from "node:assert/strict";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { pendingLandmarkCalls } from "../../runtime/plan/landmark_agenda.ts";
import { SkillLibrary } from "../../runtime/store/library.ts";
import { compileSkill } from "../../runtime/exec/program.ts";

const vocab: Vocabulary = {
  name: "post",
  types: { Letter: { kind: "object" }, Box: { kind: "object" } },
  predicates: {
    posted: { params: ["Letter", "Box"] },
    goal_posted: { params: ["Letter", "Box"] },
    stamped: { params: ["Letter"] },
    goal_stamped: { params: ["Letter"] },
  },
  functions: {},
  actions: {
    post: {
      template: "post {l} in {b}",
      params: [{ name: "l", type: "Letter" }, { name: "b", type: "Box" }],
    },
  },
  landmarks: [
    { pred: "posted", on: "add", when: "goal_posted(a0, a1)" },
    { pred: "stamped", on: "add", when: "goal_stamped(a0)" },
  ],
};

function postSkill() {
  const compiled = compileSkill({
    format: "skillc/skill@1",
    name: "achieve_posted",
    vocabulary: "post",
    // Parameters in another order than the landmark's arguments.
    params: [{ name: "box", type: "Box" }, { name: "letter", type: "Letter" }],
    doc: { summary: "Post a letter.", post: "posted(letter, box)" },
    entry: "post",
    nodes: [
      { id: "post", kind: "primitive", action: "post", args: { l: "letter", b: "box" } },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "post", to: "ok", label: "next" }],
  }, vocab);
  assert.ok(compiled.ok);
  return compiled.value;
}

Deno.test("pendingLandmarkCalls() calls the skill that states each subgoal the goal still asks for", () => {
  const objects = { l1: "Letter", l2: "Letter", l3: "Letter", red: "Box", blue: "Box" };
  const facts = new FactStore([
    { pred: "goal_posted", args: ["l1", "red"] },
    { pred: "goal_posted", args: ["l2", "blue"] },
    { pred: "goal_posted", args: ["l3", "red"] },
    { pred: "posted", args: ["l3", "red"] },
    // No skill states stamped(): that subgoal is left out.
    { pred: "goal_stamped", args: ["l1"] },
  ], objects);
  const library = new SkillLibrary([postSkill()]);
  assert.deepEqual(pendingLandmarkCalls(vocab, library, facts), [
    { skill: "achieve_posted", args: { letter: "l1", box: "red" } },
    { skill: "achieve_posted", args: { letter: "l2", box: "blue" } },
  ]);
  assert.deepEqual(pendingLandmarkCalls(vocab, new SkillLibrary([]), facts), []);
});
