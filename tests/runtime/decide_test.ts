import assert from "node:assert/strict";
import {
  type AttemptState,
  decide,
  type FailureView,
  type Repair,
} from "../../runtime/agent/decide.ts";

const call = { skill: "fetch", args: { item: "key" } };

/** A failure that shows nothing, with `shows` overriding what it does show. */
function failure(shows: Partial<FailureView> = {}): FailureView {
  return {
    askedAgain: () => undefined,
    innerCall: () => undefined,
    redoable: () => false,
    otherChoices: () => [],
    ...shows,
  };
}

function state(over: Partial<AttemptState> = {}): AttemptState {
  return {
    level: 0,
    maxDepth: 6,
    retries: 0,
    maxRetries: 8,
    tried: new Set(),
    knowledge: "none",
    hook: false,
    fallback: false,
    ...over,
  };
}

Deno.test("decide: each repair when it is the first that applies", () => {
  const cases: [string, Partial<AttemptState>, Partial<FailureView>, Repair][] = [
    [
      "asked again for a provided object: tolerate its rejection",
      {},
      { askedAgain: () => ({ node: "get", object: "key" }) },
      { kind: "tolerate", node: "get", object: "key" },
    ],
    ["a failed inner call: achieve it first", {}, { innerCall: () => call }, {
      kind: "inner",
      call,
    }],
    ["nothing shown: regress", {}, {}, { kind: "regress" }],
    [
      "regression tried, a step undone: redo",
      { tried: new Set(["regress"]) },
      { redoable: () => true },
      { kind: "redo" },
    ],
    [
      "regression tried, a contested choice rejected: avoid it",
      { tried: new Set(["regress"]) },
      { otherChoices: () => ["box 1"] },
      { kind: "avoid", objects: ["box 1"] },
    ],
    [
      "knowledge available, the rest tried: ask",
      { tried: new Set(["regress"]), knowledge: "available" },
      {},
      { kind: "ask" },
    ],
    [
      "facts assumed and the retry failed: retract",
      { tried: new Set(["regress"]), knowledge: "assumed", hook: true },
      {},
      { kind: "retract" },
    ],
    [
      "knowledge asked already: the hook",
      { tried: new Set(["regress"]), knowledge: "asked", hook: true },
      {},
      { kind: "hook" },
    ],
    [
      "hook tried: the primitive fallback",
      { tried: new Set(["regress", "hook"]), hook: true, fallback: true },
      {},
      { kind: "fallback" },
    ],
    ["everything tried: give up", { tried: new Set(["regress"]) }, {}, { kind: "give-up" }],
  ];
  for (const [name, s, f, expected] of cases) {
    assert.deepEqual(decide(state(s), failure(f)), expected, name);
  }
});

Deno.test("decide: no retries left leaves only what does not retry", () => {
  const shows = failure({
    askedAgain: () => ({ node: "get", object: "key" }),
    innerCall: () => call,
    redoable: () => true,
    otherChoices: () => ["box 1"],
  });
  const spent = state({ retries: 8, knowledge: "available", hook: true, fallback: true });
  assert.deepEqual(decide(spent, shows), { kind: "hook" });
  assert.deepEqual(decide({ ...spent, tried: new Set(["hook"]) }, shows), { kind: "fallback" });
  // Facts assumed are taken back even then.
  assert.deepEqual(decide({ ...spent, knowledge: "assumed" }, shows), { kind: "retract" });
});

Deno.test("decide: at the depth limit there is no inner call or regression", () => {
  const deep = state({ level: 6, knowledge: "available" });
  assert.deepEqual(decide(deep, failure({ innerCall: () => call })), { kind: "ask" });
  assert.deepEqual(decide({ ...deep, knowledge: "none" }, failure()), { kind: "give-up" });
});

Deno.test("decide: a repair already tried is not chosen again; what a failure shows is read lazily", () => {
  let reads = 0;
  const counted = failure({
    innerCall: () => {
      reads++;
      return call;
    },
  });
  assert.deepEqual(decide(state({ tried: new Set(["inner"]) }), counted), { kind: "regress" });
  assert.equal(reads, 0);
  assert.deepEqual(decide(state(), counted), { kind: "inner", call });
  assert.equal(reads, 1);
});
