// Induce from a few small PDDL problems, solve larger ones: shared by the generalised-planning tests.
import assert from "node:assert/strict";
import { loadPddlKit } from "../../environments/pddl/load.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { drainAgent } from "../runtime/_agent_fixtures.ts";

/**
 * Induces a library from the expert's plans of the three smallest problems
 * of `trainSpec` (a PDDL kit spec; the domain's rules withheld) and runs it
 * on the problems of `testSpec` that `pick` takes; returns the decision list
 * and each run's result.
 */
export async function induceAndSolveOn(
  trainSpec: string,
  testSpec: string,
  pick: (tasks: { id: string }[]) => { id: string }[],
  agent: { lookahead?: boolean } = {},
) {
  const options = { rules: "learned", observe: "changing" };
  const train = await loadPddlKit(trainSpec);
  const test = await loadPddlKit(testSpec);
  const traces = await generateExpertTraces(train, train.demonstrationTasks!(3), {
    envOptions: options,
  });
  const compiled = compileTraces(traces, withEnvOptions(train, options), { policy: true });
  // Learned from observation alone: the domain's rules were withheld.
  assert.equal(compiled.actionModel.stated, false);
  const library = compileSkills(
    compiled.skills.map((s) => ({ data: s, source: s.name })),
    test.vocabulary,
  );
  const actionModel = ActionModel.fromJSON(compiled.actionModel.toJSON(), test.vocabulary);
  const results = [];
  for (const task of pick(test.taskList!({ split: "unseen" }) as { id: string }[])) {
    const { result } = await drainAgent(runAgent({
      env: test.create(options),
      kit: withEnvOptions(test, options),
      library,
      templates: compiled.templates,
      actionModel,
      task,
      maxActions: 3000,
      ...agent,
    }));
    results.push({ id: task.id, result });
  }
  const policy = compiled.skills.find((s) => s.name.startsWith("policy_"));
  return { results, policy: JSON.stringify(policy) };
}

/**
 * {@linkcode induceAndSolveOn} for a domain and problems given as texts:
 * written to a temporary folder (`domain.pddl`, `train/`, `test/`), then
 * every test problem is run; the folder is removed after.
 */
export async function induceAndSolveTexts(
  domain: string,
  problems: { train: string[]; test: string[] },
  agent: { lookahead?: boolean } = {},
) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/domain.pddl`, domain);
    for (const [split, texts] of Object.entries(problems)) {
      await Deno.mkdir(`${dir}/${split}`);
      for (const [k, text] of texts.entries()) {
        await Deno.writeTextFile(`${dir}/${split}/p${k}.pddl`, text);
      }
    }
    const spec = (split: string) => `pddl:${dir}/domain.pddl+${dir}/${split}`;
    return await induceAndSolveOn(spec("train"), spec("test"), (tasks) => tasks, agent);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
