import assert from "node:assert/strict";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { LlmClient } from "../../llm/client.ts";
import { llmConfigFrom } from "../../llm/config.ts";
import { episodeModels, type RuntimeRole } from "../../llm/episode.ts";
import { agentRunner } from "../../runtime/eval/eval_runners.ts";
import { evaluate, type Evaluation } from "../../runtime/eval/evaluate.ts";
import type { TaskSpec } from "../../runtime/environment.ts";
import { dataTest } from "../_data.ts";
import { loadFixture, RECIPES } from "../fixtures/_libraries.ts";
import { fakeOpenAI, type FakeRequest } from "./_server.ts";
import { roleOf } from "./_oracle.ts";

/** The goal item of a planner request's user message (`Goal: craft <item>`). */
function goalItem(request: FakeRequest): string {
  const user = request.messages.find((m) => m.role === "user")!.content;
  return /^Goal: craft (.*)$/m.exec(user)![1];
}

/**
 * The TextCraft library without its task templates, on `tasks`: the agent
 * has no plan, and with the planner role the model routes it.
 */
async function runWithoutTemplates(
  tasks: TaskSpec[],
  url?: string,
  roles: RuntimeRole[] = ["planner"],
): Promise<Evaluation> {
  const lib = await loadFixture("textcraft_depth1_30.json");
  const client = url
    ? new LlmClient({ ...llmConfigFrom({ llm: url, model: "m" }, {})!, maxRetries: 0 })
    : undefined;
  return await evaluate({
    env: "textcraft",
    createEnv: () => textcraftKit.create({ recipes: RECIPES }),
    tasks,
    runner: agentRunner({
      kit: textcraftKit,
      library: lib.library,
      templates: [],
      actionModel: lib.actionModel,
      maxActions: 100,
      ...(client ? { model: episodeModels(client, textcraftKit, new Set(roles)) } : {}),
    }),
  });
}

dataTest("the planner role routes a goal no template fits through the skills", async () => {
  const tasks = textcraftKit.taskList!({ split: "unseen", n: 6 });
  const without = await runWithoutTemplates(tasks);
  assert.equal(without.report.success_rate, 0);
  assert.match(without.records[0].stop!, /The library has no task templates/);
  // An oracle: the one skill, on the goal's item.
  const server = fakeOpenAI((request) => {
    assert.equal(roleOf(request), "planner");
    return JSON.stringify({ skill: "craft_item", args: { item: goalItem(request) } });
  });
  try {
    const routed = await runWithoutTemplates(tasks, server.url);
    assert.ok(routed.report.success_rate >= 5 / 6, `${routed.report.success_rate}`);
    assert.equal(routed.report.llm_calls, server.calls);
    // The system message lists the skill by signature and docstring.
    assert.ok(routed.records.every((r) => r.llmCalls >= 1));
  } finally {
    await server.close();
  }
});

dataTest(
  "the planner's invalid answers are rejected with the reason; a failed skill's diagnosis comes back",
  async () => {
    const [task] = textcraftKit.taskList!({ split: "unseen", n: 1 });
    const requests: FakeRequest[] = [];
    const server = fakeOpenAI((request, call) => {
      requests.push(request);
      switch (call) {
        case 1:
          return JSON.stringify({ skill: "fly", args: {} });
        case 2:
          return JSON.stringify({ skill: "craft_item", args: { item: "bedrock" } });
        case 3:
          return JSON.stringify({ action: "dance" });
        default:
          return JSON.stringify({ skill: "craft_item", args: { item: goalItem(request) } });
      }
    });
    try {
      const { records } = await runWithoutTemplates([task], server.url);
      const [r] = records;
      assert.equal(r.success, true, r.stop);
      assert.deepEqual(r.llm!.rejected.map((x) => x.role), ["planner", "planner"]);
      assert.match(
        r.llm!.rejected[0].why,
        /"fly" is no skill of the library \(skills: craft_item\)/,
      );
      assert.match(r.llm!.rejected[1].why, /"dance" matches no action of the vocabulary/);
      // The skills are offered by signature and docstring.
      assert.match(
        requests[0].messages[0].content,
        /craft_item\(item: Item\): .*Achieves: count\(item\) >= 1/,
      );
      // The question after the failed call carries its diagnosis.
      const third = requests[2].messages.find((m) => m.role === "user")!.content;
      assert.match(third, /1\. craft_item\(\{"item":"bedrock"\}\) -> failure: \S/);
    } finally {
      await server.close();
    }
  },
);
