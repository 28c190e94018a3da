// Effects by chance (pddlgym's `probabilistic`): drawn by the simulator,
// planned as their most likely outcome, replanned by the expert.
import assert from "node:assert/strict";
import { parseDomain, parseProblem, PddlError } from "../../environments/pddl/parse.ts";
import { PddlWorld } from "../../environments/pddl/world.ts";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { induceAndSolveTexts } from "./_induce_and_solve.ts";

/** A flip shows heads with probability 0.7; a nudge turns a coin with probability 0.3. */
const COINS = `
(define (domain coins)
  (:requirements :strips :typing :probabilistic-effects)
  (:types coin)
  (:predicates (heads ?c - coin) (tails ?c - coin) (flipped ?c - coin))
  (:action flip
    :parameters (?c - coin)
    :precondition (tails ?c)
    :effect (and (flipped ?c) (probabilistic 0.7 (and (heads ?c) (not (tails ?c))))))
  (:action nudge
    :parameters (?c - coin)
    :precondition (tails ?c)
    :effect (probabilistic 0.3 (and (heads ?c) (not (tails ?c))))))
`;

/** `n` coins, all tails; the goal shows heads on the first `goal` of them. */
function coins(name: string, n: number, goal = n): string {
  const cs = Array.from({ length: n }, (_, k) => `c${k + 1}`);
  return `(define (problem ${name}) (:domain coins) (:objects ${cs.join(" ")} - coin)
  (:init ${cs.map((c) => `(tails ${c})`).join(" ")})
  (:goal (and ${cs.slice(0, goal).map((c) => `(heads ${c})`).join(" ")})))`;
}

Deno.test("an effect by chance is read with its probability, and bad ones are errors with their place", () => {
  const flip = parseDomain(COINS, "coins.pddl").actions[0];
  assert.deepEqual(flip.add, [{ pred: "flipped", args: ["?c"] }]);
  assert.deepEqual(flip.chances, [{
    outcomes: [{
      probability: 0.7,
      add: [{ pred: "heads", args: ["?c"] }],
      del: [{ pred: "tails", args: ["?c"] }],
    }],
  }]);
  assert.throws(
    () =>
      parseDomain(
        COINS.replace("probabilistic 0.7 (and", "probabilistic 0.7 (and (heads ?c)) 0.5 (and"),
        "coins.pddl",
      ),
    (e: unknown) =>
      e instanceof PddlError && /add up to 1\.2, more than 1/.test(e.message) && e.line === 9,
  );
  assert.throws(
    () => parseDomain(COINS.replace("probabilistic 0.7", "probabilistic high"), "coins.pddl"),
    /coins\.pddl:9:\d+: expected a probability between 0 and 1, got "high"/,
  );
});

Deno.test("the world draws each chance, and without draws its most likely outcome happens", () => {
  const world = new PddlWorld(
    parseDomain(COINS, "coins.pddl"),
    parseProblem(coins("p", 1), "p.pddl"),
  );
  const s = world.initial();
  const flip = world.parseAction("flip c1")!;
  const nudge = world.parseAction("nudge c1")!;
  assert.deepEqual([...world.apply(flip, s)].sort(), ["flipped c1", "heads c1"]);
  assert.deepEqual([...world.apply(flip, s, () => 0.9)].sort(), ["flipped c1", "tails c1"]);
  assert.deepEqual([...world.apply(flip, s, () => 0.1)].sort(), ["flipped c1", "heads c1"]);
  // Nothing happening (0.7) is likelier than the nudge's outcome (0.3).
  assert.deepEqual([...world.apply(nudge, s)], ["tails c1"]);
});

Deno.test("the simulator's draws are the same for the same problem on every run, and the expert replans", async () => {
  const kit = pddlKit("pddl:coins", COINS, "coins.pddl", [
    { id: "coins/twelve", file: "twelve.pddl", text: coins("twelve", 12) },
  ], {});
  const outcomes = async () => {
    const env = kit.create();
    await env.reset({ id: "coins/twelve" });
    const out: string[] = [];
    for (let k = 1; k <= 12; k++) out.push((await env.step(`flip c${k}`)).observation);
    return out;
  };
  const first = await outcomes();
  assert.deepEqual(await outcomes(), first);
  const heads = first.filter((o, k) => o.includes(`heads c${k + 1}.`)).length;
  assert.ok(heads > 0 && heads < 12, `${heads} of 12 flips show heads`);
  // Some flips show tails: the expert flips again until every coin shows heads.
  const trace = await kit.expert!().solve(kit.create(), { id: "coins/twelve" });
  assert.equal(trace.success, true);
  assert.ok(trace.steps.length > 12, `${trace.steps.length} flips`);
  assert.ok(trace.steps.every((s) => s.action.startsWith("flip ")));
});

Deno.test("skills induced from small coin problems show heads on larger ones, with the rules learned", async () => {
  const { results } = await induceAndSolveTexts(COINS, {
    train: [coins("t1", 1), coins("t2", 2), coins("t3", 3, 2)],
    test: [coins("big1", 9, 7), coins("big2", 12)],
  });
  assert.equal(results.length, 2);
  for (const { id, result } of results) {
    assert.ok(result.success, `${id}: ${result.stop}`);
    assert.equal(result.plannedActions, 0, `${id}: look-ahead planned actions`);
  }
});
