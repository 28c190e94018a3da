// The last repair of a failed call: a plan in the action model that makes
// the call's postcondition true. A model learned from demonstrations alone
// has confirmed nothing (no action was ever rejected); the plan then
// assumes what held before every demonstrated use of an action.
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { drainAgent } from "./_agent_fixtures.ts";

const LEARNED = { rules: "learned" };

const FLEET_DOMAIN = `(define (domain fleet)
  (:requirements :strips :typing)
  (:types plane port parcel)
  (:predicates (at ?p - plane ?x - port) (lies ?c - parcel ?x - port) (in ?c - parcel ?p - plane))
  (:action fly :parameters (?p - plane ?from - port ?to - port)
    :precondition (at ?p ?from)
    :effect (and (at ?p ?to) (not (at ?p ?from))))
  (:action load :parameters (?c - parcel ?p - plane ?x - port)
    :precondition (and (at ?p ?x) (lies ?c ?x))
    :effect (and (in ?c ?p) (not (lies ?c ?x))))
  (:action unload :parameters (?c - parcel ?p - plane ?x - port)
    :precondition (and (at ?p ?x) (in ?c ?p))
    :effect (and (lies ?c ?x) (not (in ?c ?p)))))`;

/** Planes at `planes` (port numbers), the parcel at `from`, asked at `to`. */
function fleetProblem(name: string, ports: number, planes: number[], from: number, to: number) {
  const portNames = Array.from({ length: ports }, (_, i) => `port${i}`);
  return `(define (problem ${name}) (:domain fleet)
  (:objects ${portNames.join(" ")} - port ${planes.map((_, i) => `plane${i}`).join(" ")} - plane
    box - parcel)
  (:init (lies box port${from}) ${planes.map((p, i) => `(at plane${i} port${p})`).join(" ")})
  (:goal (lies box port${to})))`;
}

const kit = pddlKit("pddl:fleet", FLEET_DOMAIN, "fleet.pddl", [
  // Demonstrations: one with a plane where the parcel lies, one without.
  { id: "fleet/d1", file: "d1.pddl", text: fleetProblem("d1", 2, [0], 0, 1) },
  { id: "fleet/d2", file: "d2.pddl", text: fleetProblem("d2", 2, [1], 0, 1) },
  // No plane where the parcel lies, among many planes and ports.
  { id: "fleet/far", file: "far.pddl", text: fleetProblem("far", 8, [0, 1, 2, 4, 5, 6], 7, 3) },
], {});

/** Takes the parcel with a plane already where it lies: fails when there is none. */
const DELIVER: Skill = {
  format: "skillc/skill@1",
  name: "deliver",
  vocabulary: kit.vocabulary.name,
  params: [{ name: "c", type: "parcel" }, { name: "to", type: "port" }],
  doc: { summary: "Flies the parcel where it is asked.", post: "lies(c, to)" },
  entry: "from",
  nodes: [
    { id: "from", kind: "data", var: "x", expr: "select_one(x: port, lies(c, x))" },
    { id: "plane", kind: "data", var: "p", expr: "select_one(p: plane, at(p, x))" },
    { id: "load", kind: "primitive", action: "load", args: { c: "c", p: "p", x: "x" } },
    { id: "fly", kind: "primitive", action: "fly", args: { p: "p", from: "x", to: "to" } },
    { id: "unload", kind: "primitive", action: "unload", args: { c: "c", p: "p", x: "to" } },
    { id: "done", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "from", to: "plane", label: "next" },
    { from: "plane", to: "load", label: "next" },
    { from: "load", to: "fly", label: "next" },
    { from: "fly", to: "unload", label: "next" },
    { from: "unload", to: "done", label: "next" },
  ],
};

Deno.test("a call its skill cannot finish is finished by a plan with what the demonstrations always showed", async () => {
  const traces = await generateExpertTraces(kit, [{ id: "fleet/d1" }, { id: "fleet/d2" }], {
    envOptions: LEARNED,
  });
  const actionModel = compileTraces(traces, withEnvOptions(kit, LEARNED)).actionModel;
  // Learned from successes alone: every rule is a hypothesis.
  assert.ok(
    ["fly", "load", "unload"].every((a) => actionModel.rules(a).every((r) => !r.confirmed)),
  );
  const run = (lookahead: boolean) =>
    drainAgent(runAgent({
      env: kit.create(LEARNED),
      kit: withEnvOptions(kit, LEARNED),
      library: compileSkills([{ data: DELIVER, source: "test" }], kit.vocabulary),
      templates: [{
        type: "pddl:fleet",
        traces: 1,
        steps: [{
          skill: "deliver",
          args: [{ name: "c", type: "parcel", expr: "'box'" }, {
            name: "to",
            type: "port",
            expr: "'port3'",
          }],
        }],
        support: 1,
        alternatives: [],
      }],
      actionModel,
      lookahead,
      task: { id: "fleet/far" },
      maxActions: 20,
    }));
  const { events, result } = await run(true);
  assert.ok(result.success, result.stop);
  const fallback = events.find((e) => e.type === "fallback");
  assert.ok(fallback?.type === "fallback" && fallback.holds);
  // A plane flies to the parcel, takes it and flies where it is asked.
  assert.equal(fallback.plan.length, 4);
  assert.match(fallback.plan[0], /^fly plane\d port\d port7$/);
  assert.deepEqual(fallback.plan.slice(1).map((a) => a.split(" ")[0]), ["load", "fly", "unload"]);
  assert.equal(result.invalidActions, 0);
  // Without look-ahead the agent plans nothing, and the call fails.
  const blind = await run(false);
  assert.equal(blind.result.success, false);
  assert.equal(blind.events.some((e) => e.type === "fallback" && e.holds), false);
});
