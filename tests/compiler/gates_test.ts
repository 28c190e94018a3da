/**
 * Gates: rooms a courier enters only once a badge of their colour has
 * unsealed them. Three small demonstrations fetch one badge; larger
 * problems need badges fetched, seals opened and parcels left waiting
 * while their room is still sealed.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { groundTrace, shareStates } from "../../compiler/ground.ts";
import { learnPolicy, policyExamples, ruleText } from "../../compiler/policy/learn.ts";
import { induceAndRun } from "./_induce_and_run.ts";
import { VAULT, type VaultLayout, vaultProblem } from "./_vault.ts";

const LEARNED = { rules: "learned", observe: "changing" };

const PROBLEMS: Record<string, VaultLayout> = {
  // The parcel's room lies past a seal; its badge lies on the way.
  d1: { rooms: 4, sealed: { 2: "red" }, badges: [["red", 1]], parcels: [[0, 3]], start: 0 },
  // The parcel lies past a seal.
  d2: { rooms: 4, sealed: { 1: "blue" }, badges: [["blue", 0]], parcels: [[2, 3]], start: 0 },
  // Nothing sealed in the way.
  d3: { rooms: 4, sealed: {}, badges: [], parcels: [[1, 3], [2, 0]], start: 0 },
  // Three seals, each badge past the seal before it, parcels both ways.
  t1: {
    rooms: 14,
    sealed: { 4: "red", 8: "blue", 11: "green" },
    badges: [["red", 1], ["blue", 6], ["green", 9]],
    parcels: [[0, 13], [7, 2]],
    start: 2,
  },
  // Two seals, two badges of one colour, three parcels.
  t2: {
    rooms: 12,
    sealed: { 3: "red", 7: "blue" },
    badges: [["blue", 0], ["red", 5], ["red", 1]],
    parcels: [[6, 11], [2, 9], [10, 0]],
    start: 1,
  },
};

const kit = pddlKit(
  "pddl:vault",
  VAULT,
  "vault.pddl",
  Object.entries(PROBLEMS).map(([id, layout]) => ({
    id: `vault/${id}`,
    file: `${id}.pddl`,
    text: vaultProblem(id, layout),
  })),
  {},
);

async function demonstrations() {
  return await generateExpertTraces(kit, ["d1", "d2", "d3"].map((d) => ({ id: `vault/${d}` })), {
    envOptions: LEARNED,
  });
}

Deno.test("a decision list opens the seals in the way: it fetches a badge, unseals, and leaves for later what it cannot bring yet", async () => {
  const traces = await demonstrations();
  // 150 actions: enough for the way to where a badge opens (112 and 78
  // actions), not for walking past every seal to see (272 and 154 without
  // the rules for what blocks the way).
  const run = await induceAndRun(kit, traces, ["vault/t1", "vault/t2"], {
    policyOnly: true,
    envOptions: LEARNED,
    maxActions: 150,
  });
  const unsealed = run.results.map((r) => r.success);
  assert.deepEqual(unsealed, [true, true], run.policy.slice(0, 400));
});

Deno.test("the rules that open the way say what blocks it and what it wants", async () => {
  const traces = await demonstrations();
  const learned = withEnvOptions(kit, LEARNED);
  const grounded = shareStates(traces.map((t) => groundTrace(t, learned.grounder())));
  const lines: string[] = [];
  const policy = learnPolicy(policyExamples(grounded, kit.vocabulary), grounded, kit.vocabulary, {
    explain: (l) => lines.push(l),
  });
  assert.equal(policy.gates.length, 1);
  const [gate] = policy.gates;
  assert.equal(gate.opener, "unseal");
  assert.equal(gate.fluent, "unsealed");
  // What it needs of the badge, not of the room the courier stands in.
  assert.equal(gate.wanted, "carries");
  const texts = policy.rules.map((r) =>
    ruleText(
      r,
      kit.vocabulary,
      policy.movers,
      policy.chains,
      policy.goals,
      policy.supplies,
      policy.gates,
    )
  );
  // Unseal where the room blocks the way.
  assert.ok(
    texts.some((t) => t.startsWith("unseal(") && t.includes("and (not unsealed(door) and exists(")),
    texts.join("\n"),
  );
});
