// An action the demonstrations never used stands in for a rejected one: a
// walk along a trail learned where the trail never crossed a hill goes on
// over a hill by climbing, which the agent knows only by its name and
// argument types.
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { type AgentEvent, runAgent } from "../../runtime/agent/mod.ts";
import { StandIns } from "../../runtime/agent/stand_ins.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { drainAgent } from "./_agent_fixtures.ts";

const LEARNED = { rules: "learned" };

/**
 * A trail of cells; walking onto a hill is refused, climbing is how. Waving
 * takes the same arguments and does something else (it is declared first, so
 * it is tried first).
 */
const TRAIL_DOMAIN = `
(define (domain trail)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell)
  (:predicates (at ?c - cell) (hill ?c - cell) (next ?c - cell ?d - cell) (waved ?c - cell))
  (:action wave :parameters (?from - cell ?to - cell)
    :precondition (at ?from) :effect (waved ?to))
  (:action walk :parameters (?from - cell ?to - cell)
    :precondition (and (at ?from) (next ?from ?to) (not (hill ?to)))
    :effect (and (not (at ?from)) (at ?to)))
  (:action climb :parameters (?from - cell ?to - cell)
    :precondition (and (at ?from) (next ?from ?to) (hill ?to))
    :effect (and (not (at ?from)) (at ?to))))
`;

/** A trail of `n` cells from c0 to the goal at its end, with hills at `hills`. */
function trailProblem(name: string, n: number, hills: number[]): string {
  const cells = Array.from({ length: n }, (_, i) => `c${i}`);
  const next = cells.slice(1).map((c, i) => `(next c${i} ${c})`);
  return `(define (problem ${name}) (:domain trail) (:objects ${cells.join(" ")} - cell)
  (:init (at c0) ${next.join(" ")} ${hills.map((h) => `(hill c${h})`).join(" ")})
  (:goal (at c${n - 1})))`;
}

const kit = pddlKit("pddl:trail", TRAIL_DOMAIN, "trail.pddl", [
  { id: "trail/p1", file: "p1.pddl", text: trailProblem("p1", 3, []) },
  { id: "trail/p2", file: "p2.pddl", text: trailProblem("p2", 4, []) },
  { id: "trail/hills", file: "hills.pddl", text: trailProblem("hills", 7, [2, 4]) },
], {});

/** Walks to the next cell of the trail until it ends. */
const FOLLOW: Skill = {
  format: "skillc/skill@1",
  name: "follow",
  vocabulary: kit.vocabulary.name,
  params: [],
  doc: { summary: "Follows the trail to its end." },
  entry: "more",
  nodes: [
    { id: "more", kind: "check", cond: "exists(c: cell, exists(d: cell, at(c) and next(c, d)))" },
    { id: "here", kind: "data", var: "c", expr: "select_one(c: cell, at(c))" },
    { id: "there", kind: "data", var: "d", expr: "select_one(d: cell, next(c, d))" },
    { id: "walk", kind: "primitive", action: "walk", args: { from: "c", to: "d" } },
    { id: "done", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "more", to: "here", label: "yes" },
    { from: "more", to: "done", label: "no" },
    { from: "here", to: "there", label: "next" },
    { from: "there", to: "walk", label: "next" },
    { from: "walk", to: "more", label: "next" },
  ],
};

/** The action model learned from the demonstrations on the trails without hills. */
async function learnedModel() {
  const traces = await generateExpertTraces(kit, [{ id: "trail/p1" }, { id: "trail/p2" }], {
    envOptions: LEARNED,
  });
  return compileTraces(traces, withEnvOptions(kit, LEARNED)).actionModel;
}

/** The actions sent, each with the action it stood in for. */
function sent(events: AgentEvent[]): { action: string; standsFor?: string }[] {
  return events.flatMap((e) =>
    e.type === "run" && e.event.type === "act" && !e.event.recalled
      ? [{ action: e.event.action, ...(e.event.standsFor ? { standsFor: e.event.standsFor } : {}) }]
      : []
  );
}

Deno.test("stand-ins: the unlearned actions of the same argument types, a misfit never again", async () => {
  const standIns = new StandIns(await learnedModel());
  assert.deepEqual(standIns.for("walk c1 c2"), ["wave c1 c2", "climb c1 c2"]);
  standIns.misfit("walk c1 c2", "wave c1 c2");
  assert.deepEqual(standIns.for("walk c3 c4"), ["climb c3 c4"]);
  // A learned action is no stand-in for an unlearned one.
  assert.deepEqual(standIns.for("climb c1 c2"), ["wave c1 c2"]);
});

Deno.test("a walk refused at a hill goes on by an action no demonstration used, and one that does something else is dropped", async () => {
  const actionModel = await learnedModel();
  const library = compileSkills([{ data: FOLLOW, source: "test" }], kit.vocabulary);
  const run = (withModel: boolean) =>
    drainAgent(runAgent({
      env: kit.create(LEARNED),
      kit: withEnvOptions(kit, LEARNED),
      library,
      templates: [{
        type: "pddl:trail",
        traces: 1,
        steps: [{ skill: "follow", args: [] }],
        support: 1,
        alternatives: [],
      }],
      ...(withModel ? { actionModel } : {}),
      task: { id: "trail/hills" },
      maxActions: 50,
    }));
  const { result, events } = await run(true);
  assert.ok(result.success, result.stop);
  const standing = sent(events).filter((a) => a.standsFor !== undefined);
  // Waving is tried once (the first hill) and does not move the walker;
  // climbing does, at both hills.
  assert.deepEqual(standing, [
    { action: "wave c1 c2", standsFor: "walk c1 c2" },
    { action: "climb c1 c2", standsFor: "walk c1 c2" },
    { action: "climb c3 c4", standsFor: "walk c3 c4" },
  ]);
  assert.equal(result.plannedActions, 0);
  // Without a learned action model nothing is known to be unlearned: the walk stops at the hill.
  const bare = await run(false);
  assert.equal(bare.result.success, false);
  assert.ok(!sent(bare.events).some((a) => a.standsFor !== undefined));
});
