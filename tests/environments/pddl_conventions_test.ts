// pddlgym's conventions (action predicates named in a comment and listed in
// :init), negative preconditions, equality and either types, on small
// domains written here in those conventions.
import assert from "node:assert/strict";
import { parseDomain, parseProblem, PddlError } from "../../environments/pddl/parse.ts";
import { actionText, PddlWorld } from "../../environments/pddl/world.ts";
import { planPddl } from "../../environments/pddl/plan.ts";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { checkEnvOptions, withEnvOptions } from "../../runtime/environment.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { KEYS_DOMAIN, KEYS_PROBLEM } from "./_keys_domain.ts";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

Deno.test("pddlgym's action predicates are read from the comment and leave the operators plain STRIPS", () => {
  const domain = parseDomain(KEYS_DOMAIN, "keys.pddl");
  assert.deepEqual(domain.actionPredicates, ["walk", "take", "open"]);
  assert.ok(!("walk" in domain.predicates) && !("take" in domain.predicates));
  assert.deepEqual(domain.actions[0].precondition.map((l) => l.pred), ["in", "="]);
  assert.equal(domain.predicates.holding[1].type, "either key door");
  // The action literals of :init are no facts of the world.
  const world = new PddlWorld(domain, parseProblem(KEYS_PROBLEM, "p.pddl"));
  assert.ok(![...world.initial()].some((f) => /^(walk|take|open) /.test(f)));
});

Deno.test("equality and negative preconditions decide which actions apply", () => {
  const world = new PddlWorld(
    parseDomain(KEYS_DOMAIN, "keys.pddl"),
    parseProblem(KEYS_PROBLEM, "p.pddl"),
  );
  const walks = world.applicable(world.initial()).map(actionText).filter((a) =>
    a.startsWith("walk")
  );
  // Not to the room it is in: (not (= ?from ?to)).
  assert.deepEqual(walks.sort(), ["walk me r1 r2", "walk me r1 r3"]);
  const plan = planPddl(world)!;
  let state = world.initial();
  for (const g of plan) {
    assert.ok(world.holds(g, state), actionText(g));
    state = world.apply(g, state);
  }
  assert.ok(world.satisfied(state));
  // A door already open cannot be opened again (a negative precondition).
  const open = plan.find((g) => g.action.name === "open")!;
  assert.equal(world.holds(open, world.apply(open, state)), false);
});

Deno.test("an either type takes objects of each member type, and nothing else", () => {
  const world = new PddlWorld(
    parseDomain(KEYS_DOMAIN, "keys.pddl"),
    parseProblem(KEYS_PROBLEM, "p.pddl"),
  );
  assert.ok(world.isA("key", "either key door"));
  assert.ok(world.isA("door", "either key door"));
  assert.ok(!world.isA("room", "either key door"));
});

Deno.test("the conventions are checked: a comment naming no predicate is an error naming the line", () => {
  const bad = KEYS_DOMAIN.replace("; (:actions walk take open)", "; (:actions walk fly)");
  assert.throws(() => parseDomain(bad, "keys.pddl"), (e) => {
    assert.ok(e instanceof PddlError);
    assert.match(
      e.message,
      /keys\.pddl:\d+:1: \(:actions \.\.\.\) names "fly", which is no predicate/,
    );
    return true;
  });
  assert.throws(
    () => parseDomain(KEYS_DOMAIN.replace("(:requirements", "(:requirements :fluents"), "k.pddl"),
    /requirement ":fluents" is not supported/,
  );
});

Deno.test("a pddlgym-format domain plans, runs and induces, with its rules learned", async () => {
  const kit = pddlKit("pddl:keys", KEYS_DOMAIN, "keys.pddl", [
    { id: "keys/p1", file: "p1.pddl", text: KEYS_PROBLEM },
  ], {});
  // The kit knows its options, and says so for one it does not.
  assert.match(
    checkEnvOptions(kit, { rule: "learned" })!,
    /no option "rule"; its options: observe \(string\), rules \(string\)/,
  );
  assert.equal(checkEnvOptions(kit, { rules: "learned" }), undefined);
  const learned = withEnvOptions(kit, { rules: "learned" });
  assert.equal(learned.actionRules!(), undefined);
  assert.ok(kit.actionRules!()!.stated);
  const [trace] = await generateExpertTraces(kit, [{ id: "keys/p1" }]);
  assert.equal(trace.success, true);
  // The vocabulary has no action predicates; the library induced with learned rules
  // says it was learned from observation alone.
  assert.ok(!("walk" in kit.vocabulary.predicates));
  const compiled = compileTraces([trace], learned, { policy: true });
  assert.equal(compiled.actionModel.stated, false);
  assert.ok(compiled.skills.some((s) => s.name.startsWith("policy_")));
});

Deno.test("an object only the goal names is known, with its type", async () => {
  // Room r4 is in no fact of the initial state, only in the goal.
  const problem = KEYS_PROBLEM.replace("r3 - room", "r3 r4 - room")
    .replace(/\(:goal [^\n]*/, "(:goal (and (in me r4))))");
  const kit = pddlKit("pddl:keys", KEYS_DOMAIN, "keys.pddl", [
    { id: "keys/p1", file: "p1.pddl", text: problem },
  ], {});
  const first = await kit.create({}).reset({ id: "keys/p1" });
  assert.ok(!/\br4\b/.test(first.observation.split("\n").slice(1).join("\n")));
  const { delta } = kit.grounder().initial(first.observation, first.goal);
  assert.ok(delta.add.some((a) => a.pred.startsWith("goal_in") && a.args.join(" ") === "me r4"));
  assert.equal(delta.objects?.r4, delta.objects?.r1);
  assert.ok(delta.objects?.r4);
});

Deno.test("an object neither a fact nor the goal names is listed in the first observation and known", async () => {
  // Key k3 lies nowhere and fits no door: only the problem's objects declare it.
  const problem = KEYS_PROBLEM.replace("k1 k2 - key", "k1 k2 k3 - key");
  const kit = pddlKit("pddl:keys", KEYS_DOMAIN, "keys.pddl", [
    { id: "keys/p1", file: "p1.pddl", text: problem },
  ], {});
  const first = await kit.create({}).reset({ id: "keys/p1" });
  const lines = first.observation.split("\n");
  assert.equal(lines.at(-1), "Other objects: k3.");
  const { delta } = kit.grounder().initial(first.observation, first.goal);
  assert.equal(delta.objects?.k3, delta.objects?.k1);
  assert.ok(delta.objects?.k3);
  // The line adds no fact, and a problem whose objects all occur in facts has no such line.
  assert.deepEqual(
    delta.add.filter((a) => a.args.includes("k3")),
    [],
  );
  const plain = await pddlKit("pddl:keys", KEYS_DOMAIN, "keys.pddl", [
    { id: "keys/p1", file: "p1.pddl", text: KEYS_PROBLEM },
  ], {}).create({}).reset({ id: "keys/p1" });
  assert.ok(!plain.observation.includes("Other objects"));
});

Deno.test("a dash against a type name types the parameters before it; a parameter without '?' is an error", () => {
  // As published domains write it: `?obj -ball`.
  const glued = parseDomain(
    `(define (domain g) (:requirements :strips :typing) (:types ball room)
      (:predicates (at ?b - ball ?r - room))
      (:action drop :parameters (?obj -ball ?room -room)
        :precondition (at ?obj ?room) :effect (not (at ?obj ?room))))`,
    "g.pddl",
  );
  assert.deepEqual(glued.actions[0].params, [
    { name: "?obj", type: "ball" },
    { name: "?room", type: "room" },
  ]);
  assert.throws(
    () =>
      parseDomain(
        `(define (domain g) (:predicates (p ?x))
          (:action a :parameters (x) :precondition (p x) :effect (not (p x))))`,
        "g.pddl",
      ),
    (e) =>
      e instanceof PddlError && e.line === 2 &&
      /action "a": parameter "x" must start with "\?"/.test(e.message),
  );
});

/** Tea: a leaf is added to a clean, empty cup and brewed, which leaves the cup dirty. */
const BREW = `
(define (domain brew)
  (:requirements :strips :typing :negative-preconditions)
  (:types leaf cup)
  (:predicates (clean ?c - cup) (full ?c - cup) (in ?l - leaf ?c - cup) (fresh ?l - leaf)
    (brewed ?l - leaf))
  (:action add
    :parameters (?l - leaf ?c - cup)
    :precondition (and (fresh ?l) (clean ?c) (not (full ?c)))
    :effect (and (in ?l ?c) (full ?c) (not (fresh ?l))))
  (:action brew
    :parameters (?l - leaf ?c - cup)
    :precondition (in ?l ?c)
    :effect (and (brewed ?l) (not (in ?l ?c)) (not (full ?c)) (not (clean ?c))))
  (:action wash
    :parameters (?c - cup)
    :precondition (and (not (clean ?c)) (not (full ?c)))
    :effect (clean ?c)))
`;

/** Leaves `leaves` to brew in one cup, clean or not (a dirty, empty cup is in no fact). */
function tea(name: string, leaves: string[], clean: boolean): string {
  return `(define (problem ${name}) (:domain brew)
  (:objects ${leaves.join(" ")} - leaf c1 - cup)
  (:init ${clean ? "(clean c1)" : ""} ${leaves.map((l) => `(fresh ${l})`).join(" ")})
  (:goal (and ${leaves.map((l) => `(brewed ${l})`).join(" ")})))`;
}

Deno.test("a cup in no fact of the first observation is still washed and used, with the rules learned", async () => {
  const { results } = await induceAndSolveTexts(BREW, {
    train: [tea("t1", ["a"], true), tea("t2", ["a", "b"], true), tea("t3", ["a", "b", "c"], true)],
    // The cup starts dirty: no fact names it.
    test: [tea("dirty", ["a", "b", "c", "d"], false)],
  });
  assert.equal(results.length, 1);
  const [{ result }] = results;
  assert.ok(result.success, result.stop);
  assert.equal(result.plannedActions, 0);
  assert.equal(result.actions, 12);
});
