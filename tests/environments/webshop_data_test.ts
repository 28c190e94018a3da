// WebShop on the real catalog (skipped, naming the folder, when the data is
// missing): the default demonstration shows the check on a product's page
// both ways, and the library induced from it alone shops well on test goals.
import assert from "node:assert/strict";
import { dataPath, dataTest } from "../_data.ts";
import { WEBSHOP_DEMONSTRATION, webshopKit } from "../../environments/webshop/kit.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { playGoal } from "./_webshop_shop.ts";
import { groundTrace } from "../../compiler/ground.ts";
import type { Trace } from "../../dsl/trace.ts";

const data = dataPath("webshop");

/**
 * Whether a demonstration leaves a product, leaves only products whose page
 * lacks something the instruction asks for, and buys one whose page has it
 * all (as the grounder reads the pages: the check is visible both ways).
 */
function leavesOnlyMismatches(trace: Trace): boolean {
  const grounded = groundTrace(trace, webshopKit.grounder());
  let left = 0;
  for (const [i, step] of trace.steps.entries()) {
    const matches = grounded.states[i].has({ pred: "curr_match", args: [] });
    if (step.action === "click[Buy Now]" && !matches) return false;
    if (step.action !== "click[< Prev]") continue;
    left++;
    if (matches) return false;
  }
  return left > 0;
}

dataTest(
  "webshop: the default demonstration is the first to show the check both ways",
  async () => {
    const kit = withEnvOptions(webshopKit, { data });
    const [task] = kit.demonstrationTasks!(1);
    assert.equal(task.seed, WEBSHOP_DEMONSTRATION);
    const tasks = Array.from(
      { length: WEBSHOP_DEMONSTRATION - 1499 },
      (_, i) => ({ seed: 1500 + i }),
    );
    const traces = await generateExpertTraces(kit, tasks, { envOptions: { data } });
    const chosen = traces.at(-1)!;
    assert.equal(chosen.steps.at(-1)?.reward, 1);
    assert.ok(leavesOnlyMismatches(chosen));
    for (const t of traces.slice(0, -1)) {
      assert.ok(!leavesOnlyMismatches(t) || t.steps.at(-1)?.reward !== 1, t.task.id);
    }
  },
);

dataTest(
  "webshop: a policy induced from one purchase scores over 80 on test goals 0-99",
  async () => {
    const kit = withEnvOptions(webshopKit, { data });
    const traces = await generateExpertTraces(kit, kit.demonstrationTasks!(1), {
      envOptions: { data },
    });
    const compiled = compileTraces(traces, kit, { policy: true });
    let reward = 0;
    let full = 0;
    for (let seed = 0; seed < 100; seed++) {
      const result = await playGoal(kit, data, compiled, seed);
      reward += result.reward;
      if (result.reward >= 1) full++;
    }
    assert.ok(reward > 80, `score ${reward.toFixed(1)}`);
    assert.ok(full >= 60, `success ${full}%`);
  },
);
