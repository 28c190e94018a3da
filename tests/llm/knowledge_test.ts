import assert from "node:assert/strict";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { LlmClient } from "../../llm/client.ts";
import { llmConfigFrom } from "../../llm/config.ts";
import { episodeModels } from "../../llm/episode.ts";
import type { AgentEvent } from "../../runtime/agent/agent_types.ts";
import type { TaskSpec } from "../../runtime/environment.ts";
import { agentRunner } from "../../runtime/eval/eval_runners.ts";
import { evaluate, type Evaluation } from "../../runtime/eval/evaluate.ts";
import type { KnowledgeSource } from "../../runtime/knowledge.ts";
import { loadFixture } from "../fixtures/_libraries.ts";
import { runCli } from "../cli/_run.ts";
import { readKnowledgeRequest, roleOf } from "./_oracle.ts";
import { fakeOpenAI } from "./_server.ts";

/**
 * TextCraft tasks (built-in recipes) whose listing leaves out the recipe of
 * an ingredient of the goal's recipe: the environment still accepts it, but
 * nothing in the facts says how to make that ingredient.
 */
async function tasksMissingARecipe(n: number): Promise<TaskSpec[]> {
  const env = textcraftKit.create();
  const out: TaskSpec[] = [];
  const output = (line: string) => line.split(" using ")[0].replace(/^craft \d+ /, "");
  for (const t of textcraftKit.taskList!({ split: "unseen", n: 40 })) {
    const r = await env.reset(t);
    const lines = r.observation.split("\n").filter((l) => l.startsWith("craft "));
    const goal = r.goal.replace(/^craft /, "");
    const goalLine = lines.find((l) => output(l) === goal);
    const inputs = goalLine?.split(" using ")[1].split(", ").map((x) => x.replace(/^\d+ /, ""));
    const drop = lines.find((l) => inputs?.includes(output(l)));
    if (drop) out.push({ spec: { commands: lines.filter((l) => l !== drop), goal } });
    if (out.length === n) break;
  }
  return out;
}

async function run(
  tasks: TaskSpec[],
  options: { knowledge?: KnowledgeSource; url?: string; onEvent?: (e: AgentEvent) => void } = {},
): Promise<Evaluation> {
  const lib = await loadFixture("textcraft_depth1_30.json");
  const client = options.url
    ? new LlmClient({ ...llmConfigFrom({ llm: options.url, model: "m" }, {})!, maxRetries: 0 })
    : undefined;
  return await evaluate({
    env: "textcraft",
    createEnv: () => textcraftKit.create(),
    tasks,
    runner: agentRunner({
      kit: textcraftKit,
      library: lib.library,
      templates: lib.templates,
      actionModel: lib.actionModel,
      maxActions: 100,
      ...(options.knowledge ? { knowledge: options.knowledge } : {}),
      ...(client
        ? { model: episodeModels(client, textcraftKit, new Set(["knowledge"] as const)) }
        : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    }),
  });
}

Deno.test("background knowledge (the recipe data) makes tasks with an unlisted recipe solvable", async () => {
  const tasks = await tasksMissingARecipe(6);
  assert.equal(tasks.length, 6);
  const without = await run(tasks);
  const events: AgentEvent[] = [];
  const knowledge = textcraftKit.knowledge!();
  const withIt = await run(tasks, { knowledge, onEvent: (e) => events.push(e) });
  assert.ok(without.report.success_rate <= 1 / 6, `${without.report.success_rate}`);
  assert.ok(withIt.report.success_rate >= 5 / 6, `${withIt.report.success_rate}`);
  const assumed = events.filter((e) => e.type === "assume");
  assert.ok(assumed.length >= 5);
  assert.ok(assumed.every((e) => e.type === "assume" && e.source === "recipe data"));
  assert.ok(
    assumed.some((e) => e.type === "assume" && e.facts.some((f) => f.startsWith("makes("))),
  );
});

Deno.test("assumed facts the environment refutes are taken back", async () => {
  const [task] = await tasksMissingARecipe(1);
  // A made-up recipe: the item from one stick.
  const liar: KnowledgeSource = {
    ask: (q) =>
      Promise.resolve({
        add: q.objects.filter((o) => q.facts.query("makes", [null, o]).length === 0).flatMap((
          o,
        ) => [
          { pred: "makes", args: ["recipe 99", o] },
          { pred: "produces", args: ["recipe 99", o, 1] },
          { pred: "uses", args: ["recipe 99", "stick"] },
          { pred: "needs", args: ["recipe 99", "stick", 1] },
        ]),
        objects: { "recipe 99": "Recipe", stick: "Item" },
        source: "a liar",
      }),
  };
  const events: AgentEvent[] = [];
  const { records } = await run([task], { knowledge: liar, onEvent: (e) => events.push(e) });
  assert.equal(records[0].success, false);
  const assumed = new Set(events.flatMap((e) => e.type === "assume" ? e.facts : []));
  const retracted = events.flatMap((e) => e.type === "retract" ? e.facts : []);
  assert.ok(events.some((e) => e.type === "assume" && e.source === "a liar"));
  // What the environment refuted is taken back, and only what was assumed.
  assert.ok(retracted.some((f) => f.startsWith("makes('recipe 99'")));
  assert.ok(retracted.every((f) => assumed.has(f)));
});

Deno.test("the knowledge role: an oracle model's facts are verified like the recipe data's; invalid ones rejected", async () => {
  const tasks = await tasksMissingARecipe(4);
  const knowledge = textcraftKit.knowledge!();
  let first = true;
  const server = fakeOpenAI(async (request) => {
    assert.equal(roleOf(request), "knowledge");
    // The first answer names a predicate the vocabulary does not have.
    if (first) {
      first = false;
      return JSON.stringify({ add: [{ pred: "smelts", args: ["furnace 1"] }] });
    }
    const { objects, facts } = readKnowledgeRequest(
      request.messages.find((m) => m.role === "user")!.content,
    );
    const answer = await knowledge.ask({
      goal: "",
      skill: "",
      args: {},
      need: "",
      diagnosis: "",
      objects,
      facts,
    });
    return JSON.stringify({ add: answer?.add ?? [], objects: answer?.objects ?? {} });
  });
  try {
    const symbolic = await run(tasks, { knowledge });
    const model = await run(tasks, { url: server.url });
    assert.deepEqual(
      model.records.map((r) => r.success),
      symbolic.records.map((r) => r.success),
    );
    assert.ok(model.report.success_rate >= 0.75);
    assert.equal(model.report.llm_calls, server.calls);
    const rejected = model.records.flatMap((r) => r.llm?.rejected ?? []);
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0].role, "knowledge");
    assert.match(rejected[0].why, /"smelts" is no predicate of the vocabulary/);
  } finally {
    await server.close();
  }
});

Deno.test("eval --knowledge: the kit's background knowledge, or a clear error when it has none", async () => {
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(
    file,
    (await tasksMissingARecipe(3)).map((t) => JSON.stringify(t.spec)).join("\n") + "\n",
  );
  const args = ["--env", "textcraft", "--traces", "builtin", "--tasks", file, "--json"];
  const without = await runCli("cli/eval.ts", args);
  const withIt = await runCli("cli/eval.ts", [...args, "--knowledge"]);
  assert.equal(withIt.code, 0, withIt.stderr);
  assert.ok(
    JSON.parse(withIt.stdout).success_rate > JSON.parse(without.stdout).success_rate,
    `${without.stdout}\n${withIt.stdout}`,
  );
  const none = await runCli("cli/eval.ts", [
    "--env",
    "examples/garden/kit.ts",
    "--traces",
    "builtin",
    "--knowledge",
  ]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--knowledge: the "garden" environment offers no background knowledge/);
});
