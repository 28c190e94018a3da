// An environment skillc knows by its vocabulary alone, behind an AgentGym
// server: the model grounds its traces for induction and its observations
// at run time. The garden example domain plays it (its grounder serves only
// the oracle LLM server, never skillc).
import assert from "node:assert/strict";
import { gardenKit } from "../../examples/garden/kit.ts";
import { writeTracesJsonl } from "../../compiler/trace_io.ts";
import { serveEnvironment } from "../../environments/remote/mod.ts";
import { openLibrary } from "../../compiler/open_library.ts";
import { agentRunner } from "../../runtime/eval/eval_runners.ts";
import { evaluate } from "../../runtime/eval/evaluate.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { runCli } from "../cli/_run.ts";
import { oracleServer } from "./_oracle.ts";

Deno.test("agentgym:<name>@url --vocabulary: induce and eval ground with the model, as the symbolic grounder would", async () => {
  const dir = await Deno.makeTempDir();
  const vocabulary = `${dir}/garden.vocabulary.json`;
  await Deno.writeTextFile(vocabulary, JSON.stringify(gardenKit.vocabulary));
  const traces = `${dir}/traces.jsonl`;
  await writeTracesJsonl(
    traces,
    await generateExpertTraces(gardenKit, gardenKit.demonstrationTasks!(8)),
  );
  const env = serveEnvironment(gardenKit, { port: 0 });
  const llm = oracleServer(gardenKit);
  const remote = [
    "--env",
    `agentgym:garden@http://127.0.0.1:${env.addr.port}`,
    "--vocabulary",
    vocabulary,
  ];
  const model = ["--llm", llm.url, "--model", "m"];
  try {
    // Without a model, nothing can ground the observations.
    const refused = await runCli("cli/eval.ts", [...remote, "--traces", traces]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /"garden" environment has no grounder code: .*--llm <url>/);

    const induced = await runCli("cli/induce.ts", [
      ...remote,
      ...model,
      "--traces",
      traces,
      "--out",
      `${dir}/lib`,
      "--json",
    ]);
    assert.equal(induced.code, 0, induced.stderr);
    const summary = JSON.parse(induced.stdout);
    assert.ok(summary.skills.length >= 2, induced.stdout);
    const groundingCalls = llm.calls;
    assert.ok(groundingCalls > 50, `${groundingCalls}`);

    const evaluated = await runCli("cli/eval.ts", [
      ...remote,
      ...model,
      "--lib",
      `${dir}/lib`,
      "--n",
      "6",
      "--json",
      "--episodes",
    ]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    const report = JSON.parse(evaluated.stdout);
    assert.equal(report.errors.length, 0);
    assert.equal(report.llm_calls, llm.calls - groundingCalls);

    // The same library and tasks with the garden's own grounder, in-process.
    const lib = await openLibrary(`${dir}/lib`, gardenKit.vocabulary);
    lib.store.close();
    const symbolic = await evaluate({
      env: "garden",
      createEnv: () => gardenKit.create(),
      tasks: Array.from({ length: 6 }, (_, seed) => ({ seed })),
      runner: agentRunner({
        kit: gardenKit,
        library: lib.library,
        templates: lib.templates,
        ...(lib.actionModel ? { actionModel: lib.actionModel } : {}),
        maxActions: 100,
      }),
    });
    assert.ok(symbolic.report.success_rate >= 0.5, `${symbolic.report.success_rate}`);
    assert.deepEqual(
      report.episodes.map((e: { success: boolean; actions: number }) => [e.success, e.actions]),
      symbolic.records.map((r) => [r.success, r.actions]),
    );
  } finally {
    await llm.close();
    await env.shutdown();
  }
});
