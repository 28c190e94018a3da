/**
 * Exploring the actions no demonstration used: the demonstrations' crates
 * all stand on the floor, so none is ever lifted off another; a test
 * problem whose crates start piled needs that action.
 */
import assert from "node:assert/strict";
import { pddlKit } from "../../environments/pddl/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { describeExploration, exploreUnusedActions } from "../../compiler/explore_actions.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import type { Trace } from "../../dsl/trace.ts";
import { induceAndRun } from "./_induce_and_run.ts";
import { CRATES, cratesProblem } from "./_crates.ts";

const LEARNED = { rules: "learned", observe: "changing" };

const PROBLEMS: Record<string, [string[][], string[][]]> = {
  d1: [[["a"], ["b"]], [["a", "b"]]],
  d2: [[["a"], ["b"], ["c"]], [["a", "b", "c"]]],
  // A pile the goal leaves alone: the expert never lifts its top crate.
  d3: [[["a", "b", "e"], ["c"], ["d"]], [["c", "d"]]],
  // Piled the other way round: a crate must be lifted off another.
  t1: [[["a", "b"], ["c"]], [["c", "a"]]],
  t2: [[["a", "b"], ["c", "d"]], [["b", "c"]]],
};

const kit = pddlKit(
  "pddl:crates",
  CRATES,
  "crates.pddl",
  Object.entries(PROBLEMS).map(([id, [piles, goal]]) => ({
    id: `crates/${id}`,
    file: `${id}.pddl`,
    text: cratesProblem(id, piles, goal),
  })),
  {},
);

async function demonstrations() {
  return await generateExpertTraces(kit, ["d1", "d2", "d3"].map((d) => ({ id: `crates/${d}` })), {
    envOptions: LEARNED,
  });
}

Deno.test("the actions no demonstration used are tried in the demonstrations' problems, and the model learns what they do", async () => {
  const traces = await demonstrations();
  const used = new Set(traces.flatMap((t) => t.steps.map((s) => s.action.split(" ")[0])));
  assert.deepEqual([...used].sort(), ["grab", "pile"]);
  const explored = await exploreUnusedActions(kit, traces, { envOptions: LEARNED });
  assert.deepEqual(explored.actions.map((a) => a.action).sort(), ["drop", "lift"]);
  for (const a of explored.actions) assert.ok(a.uses > 0, describeExploration(explored));
  // Each explored trace is a demonstration's prefix and one tried action at least.
  for (const t of explored.traces) {
    assert.match(t.steps[t.steps.length - 1].action, /^(lift|drop) /);
  }
  const learned = withEnvOptions(kit, LEARNED);
  const without = compileTraces(traces, learned, { policy: true }).actionModel;
  const withExplored = compileTraces(traces, learned, {
    policy: true,
    explored: explored.traces,
  }).actionModel;
  const facts = new FactStore([
    { pred: "floor", args: ["a"] },
    { pred: "on", args: ["b", "a"] },
    { pred: "top", args: ["b"] },
  ], { a: "crate", b: "crate" });
  assert.equal(without.predict(facts, "lift b a"), undefined);
  const lifted = withExplored.predict(facts, "lift b a");
  assert.ok(lifted?.add.some((a) => a.pred === "held" && a.args[0] === "b"));
  assert.ok(lifted?.add.some((a) => a.pred === "top" && a.args[0] === "a"));
});

Deno.test("crates piled the other way round are unpiled with actions only exploration showed", async () => {
  const traces = await demonstrations();
  const explored = await exploreUnusedActions(kit, traces, { envOptions: LEARNED });
  const run = async (tried: Trace[]) => {
    const out = await induceAndRun(kit, traces, ["crates/t1", "crates/t2"], {
      envOptions: LEARNED,
      explored: tried,
      maxActions: 100,
    });
    return {
      solved: out.results.map((r) => r.success),
      // The actions the episode itself had to try (its model knew nothing of them).
      triedInEpisode: out.events.map((events) =>
        events.flatMap((e) =>
          e.type === "decide" && e.node === "explore" ? [/Tried "(\w+)"/.exec(e.text)![1]] : []
        )
      ),
    };
  };
  // Without: an episode that gets stuck must try lifting and dropping itself.
  const without = await run([]);
  assert.ok(without.triedInEpisode.some((t) => t.includes("lift")), JSON.stringify(without));
  const withExplored = await run(explored.traces);
  assert.deepEqual(withExplored.solved, [true, true]);
  assert.deepEqual(withExplored.triedInEpisode, [[], []]);
});

Deno.test("an action no demonstrated state allows is tried one or two demonstrated actions off the plan", async () => {
  // Two crates piled as the goal asks: only the final state holds a pile,
  // and an episode that reached its goal takes no more actions.
  const traces = await generateExpertTraces(kit, [{ id: "crates/d1" }], { envOptions: LEARNED });
  assert.deepEqual(traces[0].steps.map((s) => s.action), ["grab b", "pile b a"]);
  const explored = await exploreUnusedActions(kit, traces, { envOptions: LEARNED });
  const lift = explored.actions.find((a) => a.action === "lift");
  assert.ok(lift && lift.uses > 0, describeExploration(explored));
  // Each use of lift comes after crates were piled off the plan (a on b).
  for (const t of explored.traces.filter((t) => t.steps.at(-1)!.action.startsWith("lift"))) {
    assert.ok(
      t.steps.some((s) => s.action === "pile a b"),
      t.steps.map((s) => s.action).join("; "),
    );
  }
});
