/**
 * What the environment's refusals rule out for the rest of an episode: an
 * action that breaks every hypothesis a refused one broke is not sent.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { learnActionModel } from "../../runtime/learn/action_model.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { RefusalReasons } from "../../runtime/agent/refusal_reasons.ts";
import { PARCELS } from "./_parcels.ts";

const kit = pddlKit("pddl:parcels", PARCELS, "parcels.pddl", [], {});

const objects: Record<string, string> = {
  p0_0: "place",
  p0_1: "place",
  p1_0: "place",
  p1_1: "place",
  t0: "town",
  t1: "town",
  c0: "parcel",
  c1: "parcel",
  v0: "van",
};
const at = (p: string, l: string) => ({ pred: "at", args: [p, l] });
const towns = [
  { pred: "hub", args: ["p0_0"] },
  { pred: "hub", args: ["p1_0"] },
  { pred: "in_town", args: ["p0_0", "t0"] },
  { pred: "in_town", args: ["p0_1", "t0"] },
  { pred: "in_town", args: ["p1_0", "t1"] },
  { pred: "in_town", args: ["p1_1", "t1"] },
];
/** The world's answer to a refused flight. */
const refused = { observation: "Nothing happens.", rejected: "The action is not valid." };
const state = (...atoms: { pred: string; args: string[] }[]) =>
  new FactStore([...towns, ...atoms], objects);

/** Flights from hub to hub, the goal asking for each parcel where it went. */
function model() {
  const flight = (p: string, from: string, to: string) => ({
    facts: state(at(p, from), { pred: "goal_at", args: [p, to] }),
    action: `fly ${p} ${from} ${to}`,
    ok: true,
    delta: { add: [at(p, to)], remove: [at(p, from)] },
  });
  return learnActionModel(kit.vocabulary, [
    flight("c0", "p0_0", "p1_0"),
    flight("c1", "p1_0", "p0_0"),
  ]);
}

Deno.test("an action that breaks what a refused one broke gets its answer, recalled", () => {
  const m = model();
  const hypotheses = m.rules("fly").map((r) => r.text);
  assert.ok(hypotheses.includes("hub(to)"), hypotheses.join("; "));
  const reasons = new RefusalReasons(m);
  const here = state(at("c0", "p0_0"), at("c1", "p1_0"));
  // Nothing refused yet: nothing ruled out.
  assert.equal(reasons.recall(here, "fly c0 p0_0 p0_1"), undefined);
  // Flown to a place off the hub: refused, for what it broke (the place is no hub).
  assert.equal(reasons.record(here, "fly c0 p0_0 p0_1", refused), true);
  // Another flight off the hub gets the same answer, recalled, not sent.
  const answer = reasons.recall(here, "fly c1 p1_0 p1_1");
  assert.equal(answer?.observation, refused.observation);
  assert.match(
    answer?.rejected ?? "",
    /^The action is not valid\. \(recalled: "fly c1 p1_0 p1_1" breaks what "fly c0 p0_0 p0_1" broke, .*hub\(to\)/,
  );
  // A flight to a hub breaks no such thing.
  assert.equal(reasons.recall(here, "fly c1 p1_0 p0_0"), undefined);
});

Deno.test("a refusal that broke no hypothesis teaches nothing, nor does what the goal asks", () => {
  const m = model();
  assert.ok(m.rules("fly").some((r) => r.text === "goal_at(p, to)"));
  const reasons = new RefusalReasons(m);
  // Hub to hub with the parcel there: every hypothesis holds (the goal's
  // wish for it elsewhere is no reason the world refuses a flight).
  const here = state(at("c0", "p0_0"), at("c1", "p1_1"));
  assert.equal(reasons.record(here, "fly c0 p0_0 p1_0", refused), false);
  assert.equal(reasons.recall(here, "fly c0 p0_0 p1_0"), undefined);
});

Deno.test("a refusal that broke more says less: only actions breaking all of it are refused", () => {
  const m = model();
  const reasons = new RefusalReasons(m);
  const here = state(at("c0", "p0_1"), at("c1", "p1_0"));
  // From off the hub to off the hub: two hypotheses broken at once.
  assert.equal(reasons.record(here, "fly c0 p0_1 p1_1", refused), true);
  // Breaking one of them is not enough to tell.
  assert.equal(reasons.recall(here, "fly c1 p1_0 p1_1"), undefined);
  assert.notEqual(reasons.recall(here, "fly c0 p0_1 p0_1"), undefined);
  // Refused for the one alone, the narrower reason replaces the wider.
  assert.equal(reasons.record(here, "fly c1 p1_0 p1_1", refused), true);
  assert.notEqual(reasons.recall(here, "fly c1 p1_0 p1_1"), undefined);
  // A reason wider than one kept teaches nothing new.
  assert.equal(reasons.record(here, "fly c0 p0_1 p1_1", refused), false);
});

Deno.test("hypotheses that no state seen could tell come last: a negation of what held nowhere", () => {
  // One flight at a time: what the goal forbids or asks of a hub held
  // nowhere; that no other parcel stood where it landed is a coincidence
  // the states could have told otherwise.
  const rules = model().rules("fly").map((r) => r.text);
  const heldNowhere = (t: string) =>
    /^not (exists\(x: \w+, )?(goal_hub|goal_false_|parked)/.test(t);
  assert.ok(rules.includes("not exists(x: parcel, at(x, to))"), rules.join("; "));
  const first = rules.findIndex(heldNowhere);
  assert.ok(first < 0 || rules.slice(first).every(heldNowhere), rules.join("; "));
});

Deno.test("a negation of what held before another action's use is no vacuous hypothesis", () => {
  // No van was parked anywhere before a flight, but before an unload one was.
  const inVan = { pred: "in", args: ["c1", "v0"] };
  const m = learnActionModel(kit.vocabulary, [
    {
      facts: state(at("c0", "p0_0"), { pred: "goal_at", args: ["c0", "p1_0"] }),
      action: "fly c0 p0_0 p1_0",
      ok: true,
      delta: { add: [at("c0", "p1_0")], remove: [at("c0", "p0_0")] },
    },
    {
      facts: state(inVan, { pred: "parked", args: ["v0", "p0_1"] }),
      action: "unload c1 v0 p0_1",
      ok: true,
      delta: { add: [at("c1", "p0_1")], remove: [inVan] },
    },
  ]);
  const rules = m.rules("fly").map((r) => r.text);
  assert.ok(rules.includes("not exists(x: van, parked(x, from))"), rules.join("; "));
});

Deno.test("the model names the rules of an action false in a state, leaving out those read off the goal", () => {
  const m = model();
  const here = state(at("c0", "p0_0"));
  const off = m.falseRules(here, "fly c0 p0_0 p0_1");
  assert.ok(off.includes("hub(to)") && !off.includes("hub(from)"), off.join("; "));
  // The goal asks nothing of c0 here: that hypothesis is false, and left out on request.
  assert.ok(m.falseRules(here, "fly c0 p0_0 p1_0").includes("goal_at(p, to)"));
  assert.ok(
    !m.falseRules(here, "fly c0 p0_0 p1_0", new Set(["goal_at"])).includes("goal_at(p, to)"),
  );
  assert.deepEqual(m.falseRules(here, "no such action"), []);
});
