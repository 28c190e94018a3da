// A call with no postcondition of its own answers to the task's goal: when
// its actions changed the state and no more of the goal holds, running it
// again (or choosing differently at one node) would go the same way.
import assert from "node:assert/strict";
import type { Skill } from "../../dsl/graph/schema.ts";

import { keysKit, runKeysAgent } from "./_keys_agent.ts";

const kit = keysKit;

/**
 * Walks to another room, then takes a key in the room it left: rejected,
 * whichever of the two keys it chooses.
 */
function wander(post?: string): Skill {
  return {
    format: "skillc/skill@1",
    name: "wander",
    vocabulary: kit.vocabulary.name,
    params: [],
    doc: { summary: "Walks on and takes a key.", ...(post ? { post } : {}) },
    entry: "who",
    nodes: [
      { id: "who", kind: "data", var: "a", expr: "select_one(a: agent, true)" },
      { id: "here", kind: "data", var: "h", expr: "select_one(r: room, in_(a, r))" },
      { id: "there", kind: "data", var: "t", expr: "select_one(r: room, not in_(a, r))" },
      { id: "walk", kind: "primitive", action: "walk", args: { a: "a", from: "h", to: "t" } },
      { id: "key", kind: "data", var: "k", expr: "select_one(k: key, true)" },
      { id: "take", kind: "primitive", action: "take", args: { a: "a", k: "k", r: "h" } },
      { id: "done", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "who", to: "here", label: "next" },
      { from: "here", to: "there", label: "next" },
      { from: "there", to: "walk", label: "next" },
      { from: "walk", to: "key", label: "next" },
      { from: "key", to: "take", label: "next" },
      { from: "take", to: "done", label: "next" },
    ],
  };
}

async function retriesOf(skill: Skill): Promise<number> {
  const { events } = await runKeysAgent(skill, 50);
  return events.filter((e) => e.type === "call" && e.skill === "wander" && e.reason === "retry")
    .length;
}

Deno.test("a call with no postcondition whose actions got no nearer the goal is not run again", async () => {
  assert.equal(await retriesOf(wander()), 0);
});

Deno.test("a call with a postcondition of its own is still run again choosing another key", async () => {
  // The same run, judged by its own postcondition: the rejected key was one
  // of two, so the retry takes the other.
  assert.ok(await retriesOf(wander("exists(d: door, opened(d))")) > 0);
});
