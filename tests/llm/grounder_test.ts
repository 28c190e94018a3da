import assert from "node:assert/strict";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { LlmClient } from "../../llm/client.ts";
import { type LlmConfig, llmConfigFrom } from "../../llm/config.ts";
import { episodeModels } from "../../llm/episode.ts";
import { checkGrounding, GroundingAnswerSchema } from "../../llm/grounder.ts";
import type { EnvironmentKit, TaskSpec } from "../../runtime/environment.ts";
import { agentRunner } from "../../runtime/eval/eval_runners.ts";
import { evaluate, type Evaluation } from "../../runtime/eval/evaluate.ts";
import { dataTest } from "../_data.ts";
import { type FixtureLibrary, loadFixture, RECIPES } from "../fixtures/_libraries.ts";
import { runCli } from "../cli/_run.ts";
import { noisyServer, oracleGrounding, oracleServer } from "./_oracle.ts";
import { fakeOpenAI } from "./_server.ts";

const config = (url: string, extra: Partial<LlmConfig> = {}): LlmConfig => ({
  ...llmConfigFrom({ llm: url, model: "m" }, {})!,
  timeoutMs: 5_000,
  maxRetries: 1,
  ...extra,
});

/** The fixture library evaluated on `tasks`, grounded by `client` when given. */
function run(
  kit: EnvironmentKit,
  lib: FixtureLibrary,
  tasks: TaskSpec[],
  envOptions: Record<string, unknown>,
  client?: LlmClient,
): Promise<Evaluation> {
  return evaluate({
    env: kit.name,
    createEnv: () => kit.create(envOptions),
    tasks,
    runner: agentRunner({
      kit,
      library: lib.library,
      templates: lib.templates,
      actionModel: lib.actionModel,
      maxActions: kit.defaults?.maxActions ?? 100,
      ...(client ? { model: episodeModels(client, kit, new Set(["grounder"])) } : {}),
    }),
  });
}

Deno.test("checkGrounding rejects unknown predicates, wrong arity, ill-typed and unseen objects", () => {
  const vocab = textcraftKit.vocabulary;
  const known: Record<string, string> = { "oak planks": "Item" };
  const check = (answer: unknown, text = "You see oak planks and a stick.") =>
    checkGrounding(GroundingAnswerSchema.parse(answer), vocab, (id) => known[id], text);
  assert.equal(
    check({ add: [{ pred: "inventory", args: ["oak planks", 2] }], remove: [] }),
    undefined,
  );
  assert.match(
    check({ add: [{ pred: "glows", args: [] }], remove: [] })!,
    /add\[0\] glows\(\): "glows" is no predicate of the vocabulary \(known: .*inventory/,
  );
  assert.match(
    check({ add: [], remove: [{ pred: "inventory", args: ["oak planks"] }] })!,
    /remove\[0\] .*inventory takes 2 argument\(s\) \(Item, Num\), not 1/,
  );
  assert.match(
    check({ add: [{ pred: "inventory", args: ["oak planks", "two"] }], remove: [] })!,
    /argument 2 of inventory must be a number, not "two"/,
  );
  assert.match(
    check({ add: [{ pred: "inventory", args: ["stick", 1] }], remove: [] })!,
    /"stick" \(argument 1 of inventory\) is an unknown object: name it in "objects"/,
  );
  // Named in the observation: a new object is welcome; made up, it is not.
  assert.equal(
    check({
      add: [{ pred: "inventory", args: ["stick", 1] }],
      remove: [],
      objects: { stick: "Item" },
    }),
    undefined,
  );
  assert.match(
    check({ add: [], remove: [], objects: { "phantom 9": "Item" } })!,
    /"phantom 9" is neither a known object nor named in the observation/,
  );
  // What the observation describes without a name is called after its type.
  assert.equal(check({ add: [], remove: [], objects: { "recipe 3": "Recipe" } }), undefined);
  assert.match(
    check({ add: [], remove: [], objects: { stick: "Nonsense" } })!,
    /"Nonsense" \(the type of "stick"\) is no object type/,
  );
});

dataTest(
  "an oracle LLM grounder gives TextCraft the symbolic success, one call per observation",
  async () => {
    const lib = await loadFixture("textcraft_depth1_30.json");
    const tasks = textcraftKit.taskList!({ split: "unseen", n: 12 });
    const envOptions = { recipes: RECIPES };
    const symbolic = await run(textcraftKit, lib, tasks, envOptions);
    const server = oracleServer(textcraftKit);
    try {
      const client = new LlmClient(config(server.url));
      const grounded = await run(textcraftKit, lib, tasks, envOptions, client);
      assert.deepEqual(
        grounded.records.map((r) => [r.task, r.success, r.actions]),
        symbolic.records.map((r) => [r.task, r.success, r.actions]),
      );
      assert.ok(symbolic.report.success_rate >= 0.9, `${symbolic.report.success_rate}`);
      for (const r of grounded.records) {
        assert.equal(r.error, undefined);
        // The first observation, then one per action.
        assert.equal(r.llmCalls, r.actions + 1, r.task);
        assert.ok(r.llm!.promptTokens > 0);
        assert.deepEqual(r.llm!.rejected, []);
      }
      assert.equal(grounded.report.llm_calls, server.calls);
      assert.equal(client.totalUsage().calls, server.calls);
    } finally {
      await server.close();
    }
  },
);

dataTest("an oracle LLM grounder gives ALFWorld the symbolic success", async () => {
  const lib = await loadFixture("alfworld.json");
  const tasks = alfworldKit.taskList!({ split: "unseen", n: 8 });
  const symbolic = await run(alfworldKit, lib, tasks, {});
  const server = oracleServer(alfworldKit);
  try {
    const grounded = await run(alfworldKit, lib, tasks, {}, new LlmClient(config(server.url)));
    assert.deepEqual(
      grounded.records.map((r) => [r.task, r.success, r.actions]),
      symbolic.records.map((r) => [r.task, r.success, r.actions]),
    );
    assert.ok(symbolic.report.success_rate >= 0.75, `${symbolic.report.success_rate}`);
    assert.equal(grounded.report.llm_calls, server.calls);
    assert.ok(grounded.records.every((r) => r.llmCalls === r.actions + 1));
  } finally {
    await server.close();
  }
});

dataTest(
  "a noisy LLM grounder: every invalid answer is rejected with its reason in the episode record",
  async () => {
    const lib = await loadFixture("textcraft_depth1_30.json");
    const tasks = textcraftKit.taskList!({ split: "unseen", n: 12 });
    const server = noisyServer(textcraftKit, 0.15);
    try {
      const { records, report } = await run(
        textcraftKit,
        lib,
        tasks,
        { recipes: RECIPES },
        new LlmClient(config(server.url)),
      );
      assert.equal(records.length, tasks.length);
      assert.ok(server.counts.invalid > 5, `${server.counts.invalid} invalid answers`);
      const rejected = records.flatMap((r) => r.llm?.rejected ?? []);
      assert.equal(rejected.length, server.counts.invalid);
      assert.equal(report.llm_rejected, server.counts.invalid);
      for (const r of rejected) {
        assert.equal(r.role, "grounder");
        assert.match(r.why, /"glows_faintly" is no predicate|"phantom 99" .*is an unknown object/);
      }
      // Wrong but valid answers (dropped facts) cannot be caught: success is reported as it is.
      assert.ok(report.success_rate > 0, `${report.success_rate}`);
    } finally {
      await server.close();
    }
  },
);

Deno.test("a faulty LLM server: the episode ends with an error naming the role and the request, the next ones go on", async () => {
  const kit = textcraftKit;
  const tasks = kit.taskList!({ split: "unseen", n: 3 });
  // Episode 1: a 500 (retried once, then given up); episode 2: prose, then JSON
  // that breaks the schema (rejected twice); from then on the oracle answers.
  const server = fakeOpenAI((request, call) => {
    if (call <= 2) return new Response("overloaded", { status: 500 });
    if (call === 3) return "Sure! Here are the facts.";
    if (call === 4) return JSON.stringify({ add: "everything" });
    return oracleGrounding(kit, request.messages.find((m) => m.role === "user")!.content);
  });
  try {
    const lib = await loadFixture("textcraft_depth1_30.json");
    const { records } = await run(
      kit,
      lib,
      tasks,
      {},
      new LlmClient(config(server.url, { maxRetries: 1 })),
    );
    assert.match(records[0].error!, /^LLM grounder: the server answered 500 .*\(request: "Goal: /);
    assert.equal(records[0].llmCalls, 0);
    assert.match(
      records[1].error!,
      /^LLM grounder: answer rejected 2 times; last: .*at "add".*\(request: "Goal: /,
    );
    assert.deepEqual(records[1].llm!.rejected.map((r) => r.why.slice(0, 15)), [
      "it is not JSON",
      records[1].llm!.rejected[1].why.slice(0, 15),
    ]);
    assert.equal(records[2].error, undefined);
    assert.ok(records[2].llmCalls > 1);
  } finally {
    await server.close();
  }
});

Deno.test("eval --llm: recorded answers replay with the server stopped and give the same JSON", async () => {
  const cache = `${await Deno.makeTempDir()}/llm.jsonl`;
  const args = ["--env", "textcraft", "--traces", "builtin", "--n", "3", "--json", "--episodes"];
  const server = oracleServer(textcraftKit);
  let live;
  try {
    live = await runCli("cli/eval.ts", [
      ...args,
      "--llm",
      server.url,
      "--model",
      "m",
      "--llm-cache",
      cache,
    ]);
  } finally {
    await server.close();
  }
  assert.equal(live.code, 0, live.stderr);
  assert.match(live.stderr, /LLM m: grounder/);
  const replay = await runCli("cli/eval.ts", [...args, "--llm-cache", cache]);
  assert.equal(replay.code, 0, replay.stderr);
  // Timing aside, and the answers now come from the cache.
  const stable = (text: string) =>
    JSON.parse(text, (k, v) => k === "seconds" || k === "cached" ? undefined : v);
  const a = stable(live.stdout);
  assert.ok(a.llm_calls > 3 && a.llm_tokens > 0);
  assert.deepEqual(stable(replay.stdout), a);
  assert.ok(
    JSON.parse(replay.stdout).episodes.every((e: { llm: { cached: number }; llmCalls: number }) =>
      e.llm.cached === e.llmCalls
    ),
  );
});

Deno.test("eval --llm-roles names an unknown role and the known ones", async () => {
  const r = await runCli("cli/eval.ts", [
    "--env",
    "textcraft",
    "--traces",
    "builtin",
    "--llm",
    "http://127.0.0.1:9/v1",
    "--model",
    "m",
    "--llm-roles",
    "grounder,oracle",
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--llm-roles: unknown role "oracle"; this command's roles: grounder/);
});
